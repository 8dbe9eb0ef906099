// Substructure match of a molecule used as a query (a SMILES or drawn structure, not a SMARTS)
// against a stored structure, both read by smiles-graph.mjs, with RDKit's own rules for a
// molecule query (useChirality off): atoms match when their atomic numbers are equal and, where the
// query atom deviates from the default, its formal charge and isotope are equal too (Atom::Match;
// a query dummy matches only dummies, with the isotope rule); bonds when their types are equal
// (Bond::Match). Aromaticity flags are not compared: a query "CC" matches toluene's c-C.
//
// Why this exists: RDKit in WebAssembly spends 15–25 µs a candidate (it parses the stored SMILES
// again, then matches), 5–10× what RDKit costs natively, and a generic query has millions of
// candidates. Reading the SMILES and matching here costs a few µs. RDKit stays the reference:
// a query with anything these rules do not cover (a SMARTS, a radical) is left to RDKit, and
// engine-parity.api.test.ts and substructure-match.test.ts compare every answer with RDKit's.
// Plain JavaScript on purpose: the chemistry workers load it without tsx.

/**
 * A SMILES query as a molecule these rules match exactly as RDKit, or null when RDKit must match
 * it: a dummy atom, a radical (RDKit's trusted reading gives stored atoms none, so such a query
 * matches nothing), or a SMILES RDKit writes in a form smiles-graph.mjs does not read. Given
 * RDKit's canonical SMILES of the query molecule and its JSON (radicals), and a SmilesGraph to
 * read into. SMARTS and molfiles (query atoms and bonds) are never given here.
 */
export function moleculeQueryOf(canonicalSmiles, rdkitJson, graph) {
  if (canonicalSmiles.includes('*') || /"nRad":[1-9]/.test(rdkitJson)) return null;
  const bytes = new TextEncoder().encode(canonicalSmiles);
  return graph.read(bytes, 0, bytes.length) ? new MoleculeQuery(graph) : null;
}

/** A compiled query: its atoms in match order, each joined to an earlier one where it can be. */
export class MoleculeQuery {
  /** @param graph a SmilesGraph holding the query (copied: the graph may be reused). */
  constructor(graph) {
    const n = graph.atoms;
    this.atoms = n;
    this.z = graph.z.slice(0, n);
    this.charge = graph.charge.slice(0, n);
    this.isotope = graph.isotope.slice(0, n);
    this.degree = new Int32Array(n);
    for (let a = 0; a < n; a++) this.degree[a] = graph.start[a + 1] - graph.start[a];
    this.plan(graph);
    // Atoms of each element the query needs (a cheap first check against a structure's counts).
    const counts = new Map();
    for (let a = 0; a < n; a++) counts.set(this.z[a], (counts.get(this.z[a]) ?? 0) + 1);
    this.needZ = Int32Array.from(counts.keys());
    this.needCount = Int32Array.from(counts.values());
  }

  /**
   * Match order: each connected part from its rarest atom (heteroatoms before carbon, then the
   * most bonded), then breadth first, so that every later atom is a neighbour of one already
   * placed (`parent`) and its other bonds to placed atoms are checked as it is placed (`back`).
   */
  plan(graph) {
    const n = this.atoms;
    const rarity = (a) => (graph.z[a] === 6 ? 1000 : 0) - this.degree[a];
    const position = new Int32Array(n).fill(-1);
    const order = [];
    const parent = [];
    const parentBond = [];
    while (order.length < n) {
      let root = -1;
      for (let a = 0; a < n; a++) if (position[a] < 0 && (root < 0 || rarity(a) < rarity(root))) root = a;
      position[root] = order.length;
      order.push(root);
      parent.push(-1);
      parentBond.push(0);
      for (let head = position[root]; head < order.length; head++) {
        const a = order[head];
        for (let k = graph.start[a]; k < graph.start[a + 1]; k++) {
          const b = graph.nbr[k];
          if (position[b] >= 0) continue;
          position[b] = order.length;
          order.push(b);
          parent.push(head);
          parentBond.push(graph.nbrBond[k]);
        }
      }
    }
    // Bonds other than the parent's, to atoms placed earlier: [position, type] pairs per position.
    const backStart = new Int32Array(n + 1);
    const backAt = [];
    const backType = [];
    for (let p = 0; p < n; p++) {
      const a = order[p];
      backStart[p] = backAt.length;
      for (let k = graph.start[a]; k < graph.start[a + 1]; k++) {
        const q = position[graph.nbr[k]];
        if (q < p && q !== parent[p]) {
          backAt.push(q);
          backType.push(graph.nbrBond[k]);
        }
      }
    }
    backStart[n] = backAt.length;
    this.order = Int32Array.from(order);
    this.parent = Int32Array.from(parent);
    this.parentBond = Uint8Array.from(parentBond);
    this.backStart = backStart;
    this.backAt = Int32Array.from(backAt);
    this.backType = Uint8Array.from(backType);
  }
}

/** Scratch space for matching, sized for the largest structure (one per worker). */
export class Matcher {
  constructor(maxAtoms = 512) {
    this.map = new Int32Array(maxAtoms);
    this.cursor = new Int32Array(maxAtoms);
    this.usedStamp = new Int32Array(maxAtoms);
    this.stamp = 0;
    this.elementCount = new Int32Array(256);
  }

  /** Whether `query` (a MoleculeQuery) is a substructure of `target` (a SmilesGraph just read). */
  matches(query, target) {
    const n = query.atoms;
    const m = target.atoms;
    if (n === 0) return true;
    if (n > m) return false;
    if (!this.hasElements(query, target)) return false;
    const { map, cursor, usedStamp } = this;
    const stamp = ++this.stamp;
    if (stamp === 0x7fffffff) {
      usedStamp.fill(0);
      this.stamp = 1;
      return this.matches(query, target);
    }
    const { order, parent, parentBond, backStart, backAt, backType, degree } = query;
    const { start, nbr, nbrBond } = target;
    let p = 0;
    cursor[0] = parent[0] < 0 ? 0 : start[map[parent[0]]];
    while (p >= 0) {
      // Next candidate for position p: a neighbour of its parent's image, or any atom.
      const qa = order[p];
      const from = parent[p];
      let found = -1;
      if (from < 0) {
        while (cursor[p] < m) {
          const t = cursor[p]++;
          if (usedStamp[t] !== stamp && this.atomMatches(query, qa, target, t) && start[t + 1] - start[t] >= degree[qa] && this.backBonds(p, t, backStart, backAt, backType, target)) {
            found = t;
            break;
          }
        }
      } else {
        const end = start[map[from] + 1];
        while (cursor[p] < end) {
          const k = cursor[p]++;
          const t = nbr[k];
          if (nbrBond[k] === parentBond[p] && usedStamp[t] !== stamp && this.atomMatches(query, qa, target, t) && start[t + 1] - start[t] >= degree[qa] && this.backBonds(p, t, backStart, backAt, backType, target)) {
            found = t;
            break;
          }
        }
      }
      if (found < 0) {
        // Exhausted: free the previous position's atom and try its next candidate.
        p--;
        if (p >= 0) usedStamp[map[p]] = 0;
        continue;
      }
      map[p] = found;
      usedStamp[found] = stamp;
      if (++p === n) return true;
      cursor[p] = parent[p] < 0 ? 0 : start[map[parent[p]]];
    }
    return false;
  }

  /** RDKit's Atom::Match with the query atom as `this`. */
  atomMatches(query, qa, target, t) {
    const z = query.z[qa];
    if (z !== target.z[t]) return false;
    const iso = query.isotope[qa];
    if (z === 0) return !(iso && target.isotope[t] && iso !== target.isotope[t]);
    const charge = query.charge[qa];
    return !(charge && charge !== target.charge[t]) && !(iso && iso !== target.isotope[t]);
  }

  /** Every bond from position p's atom to earlier placed atoms exists in the target with its type. */
  backBonds(p, t, backStart, backAt, backType, target) {
    const { start, nbr, nbrBond } = target;
    for (let k = backStart[p]; k < backStart[p + 1]; k++) {
      const other = this.map[backAt[k]];
      let ok = false;
      for (let j = start[t]; j < start[t + 1]; j++) {
        if (nbr[j] === other) {
          ok = nbrBond[j] === backType[k];
          break;
        }
      }
      if (!ok) return false;
    }
    return true;
  }

  /** The target has at least as many atoms of each element as the query. */
  hasElements(query, target) {
    const count = this.elementCount;
    for (let a = 0; a < target.atoms; a++) count[target.z[a]]++;
    let ok = true;
    for (let k = 0; k < query.needZ.length; k++) {
      if (count[query.needZ[k]] < query.needCount[k]) {
        ok = false;
        break;
      }
    }
    for (let a = 0; a < target.atoms; a++) count[target.z[a]] = 0;
    return ok;
  }
}
