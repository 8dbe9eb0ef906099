// Substructure matching of a query against a stored structure read by smiles-graph.mjs, in two
// kinds, both sound against RDKit:
//
// - exact: a molecule used as a query (a SMILES, not a SMARTS), with RDKit's own rules for a
//   molecule query (useChirality off): atoms match when their atomic numbers are equal and, where
//   the query atom deviates from the default, its formal charge and isotope are equal too
//   (Atom::Match; a query dummy matches only dummies, with the isotope rule); bonds when their
//   types are equal (Bond::Match). Aromaticity flags are not compared: "CC" matches toluene's c-C.
//   Its yes and no are RDKit's.
// - loose (smarts-outline.mjs): a SMARTS reduced to what element, aromaticity and bond type can
//   decide, every other primitive taken as possibly true. A no rules the structure out (RDKit could
//   not match it either); a yes only sends it on to RDKit.
//
// Why this exists: RDKit in WebAssembly spends 15–25 µs a candidate (it parses the stored SMILES
// again, then matches), 5–10× what RDKit costs natively, and a generic query has millions of
// candidates. Reading the SMILES and matching here costs a few µs. RDKit stays the reference:
// substructure-match.test.ts and engine-parity.api.test.ts compare every answer with RDKit's.
// Plain JavaScript on purpose: the chemistry workers load it without tsx.

import { BOND, neighbourRows } from './smiles-graph.mjs';

/** Bond types (RDKit Bond::BondType values) → column of a query bond's table. */
const BOND_COLUMN = new Uint8Array(256).fill(6);
BOND_COLUMN[1] = 0; // single
BOND_COLUMN[2] = 1; // double
BOND_COLUMN[3] = 2; // triple
BOND_COLUMN[12] = 3; // aromatic
BOND_COLUMN[4] = 4; // quadruple
BOND_COLUMN[17] = 5; // dative
/** Bond types in a table: the six types above and any other. */
export const BOND_TYPES = 7;
/** Columns of a query bond's table: in a ring (0, 1) × 7 + type column. */
export const BOND_COLUMNS = 2 * BOND_TYPES;
/** Ring bond counts in an atom table: 0, 1, 2, 3, and 4 or more. */
export const RING_BOND_COUNTS = 5;
/** Columns of a query atom's table: min(ring bonds, 4) × 256 + atomic number × 2 + aromatic flag. */
export const ATOM_COLUMNS = RING_BOND_COUNTS * 256;

/**
 * A SMILES query as a molecule these rules match exactly as RDKit, or null when RDKit must match
 * it: a dummy atom, a radical (RDKit's trusted reading gives stored atoms none, so such a query
 * matches nothing), a dative bond (matched in its direction), or a SMILES RDKit writes in a form
 * smiles-graph.mjs does not read. Given
 * RDKit's canonical SMILES of the query molecule and its JSON (radicals), and a SmilesGraph to
 * read into. SMARTS and molfiles (query atoms and bonds) are never given here.
 */
export function moleculeQueryOf(canonicalSmiles, rdkitJson, graph) {
  if (canonicalSmiles.includes('*') || /"nRad":[1-9]/.test(rdkitJson)) return null;
  const bytes = new TextEncoder().encode(canonicalSmiles);
  if (!graph.read(bytes, 0, bytes.length)) return null;
  // RDKit matches a dative bond only in its direction (bondCompat); these tables hold no direction.
  for (let k = 0; k < graph.bonds; k++) if (graph.bondType[k] === BOND.dative) return null;
  return CompiledQuery.ofMolecule(graph);
}

/**
 * A query ready to match: atoms with a table of the (atomic number, aromatic) pairs they accept,
 * bonds with a table of the types they accept, and the order to place the atoms in.
 */
export class CompiledQuery {
  /**
   * @param shape { atoms, bonds, bondA, bondB } (bond k joins bondA[k] and bondB[k])
   * @param atomTable Uint8Array(atoms × ATOM_COLUMNS): 1 where the atom may match
   * @param bondTable Uint8Array(bonds × BOND_COLUMNS): 1 where the bond may match
   * @param exact null (loose: a match only sends the structure on to RDKit), or the query atoms'
   *   { charge, isotope } for RDKit's molecule-query rules (a match is RDKit's answer)
   * @param sure for a loose query, { atomTable, bondTable, needsRings }: the tables where the
   *   SMARTS is certainly true (a match with them is RDKit's answer too), and whether any test
   *   reads ring membership (the structure's rings are then found first)
   */
  constructor(shape, atomTable, bondTable, exact, sure = null) {
    const n = shape.atoms;
    this.atoms = n;
    this.atomTable = atomTable;
    this.bondTable = bondTable;
    this.exact = exact !== null;
    this.sureAtomTable = sure?.atomTable ?? null;
    this.sureBondTable = sure?.bondTable ?? null;
    this.needsRings = sure?.needsRings ?? false;
    this.charge = exact?.charge ?? new Int8Array(n);
    this.isotope = exact?.isotope ?? new Uint16Array(n);
    this.z = new Uint8Array(n);
    const start = new Int32Array(n + 1);
    const nbr = new Int32Array(2 * shape.bonds);
    const nbrBond = new Int32Array(2 * shape.bonds);
    const bondIndex = Int32Array.from({ length: shape.bonds }, (_, k) => k);
    neighbourRows(n, shape.bonds, shape.bondA, shape.bondB, bondIndex, start, nbr, nbrBond, new Int32Array(n));
    this.degree = new Int32Array(n);
    for (let a = 0; a < n; a++) this.degree[a] = start[a + 1] - start[a];
    this.plan(start, nbr, nbrBond);
    this.elementNeeds();
  }

  /** The exact query of a molecule read into a SmilesGraph (copied: the graph may be reused). */
  static ofMolecule(graph) {
    const n = graph.atoms;
    // Rings are never read for a molecule query: only the first block of each table is used.
    const atomTable = new Uint8Array(n * ATOM_COLUMNS);
    for (let a = 0; a < n; a++) {
      atomTable[a * ATOM_COLUMNS + graph.z[a] * 2] = 1;
      atomTable[a * ATOM_COLUMNS + graph.z[a] * 2 + 1] = 1;
    }
    const bondTable = new Uint8Array(graph.bonds * BOND_COLUMNS);
    for (let k = 0; k < graph.bonds; k++) bondTable[k * BOND_COLUMNS + BOND_COLUMN[graph.bondType[k]]] = 1;
    const shape = { atoms: n, bonds: graph.bonds, bondA: graph.bondA, bondB: graph.bondB };
    const query = new CompiledQuery(shape, atomTable, bondTable, { charge: graph.charge.slice(0, n), isotope: graph.isotope.slice(0, n) });
    query.z.set(graph.z.subarray(0, n));
    return query;
  }

  /**
   * Match order: each connected part from its most selective atom (fewest accepted elements, then
   * the most bonded), then breadth first, so that every later atom is a neighbour of one already
   * placed (`parent`, joined by query bond `parentBond`) and its other bonds to placed atoms are
   * checked as it is placed (`back`).
   */
  plan(start, nbr, nbrBond) {
    const n = this.atoms;
    const accepted = new Int32Array(n);
    for (let a = 0; a < n; a++) {
      for (let c = 0; c < 256; c++) accepted[a] += this.atomTable[a * ATOM_COLUMNS + c];
      // Carbon is everywhere: a carbon-only atom is a poor place to start.
      if (this.atomTable[a * ATOM_COLUMNS + 12] || this.atomTable[a * ATOM_COLUMNS + 13]) accepted[a] += 100;
    }
    const rank = (a) => accepted[a] * 64 - this.degree[a];
    const position = new Int32Array(n).fill(-1);
    const order = [];
    const parent = [];
    const parentBond = [];
    while (order.length < n) {
      let root = -1;
      for (let a = 0; a < n; a++) if (position[a] < 0 && (root < 0 || rank(a) < rank(root))) root = a;
      position[root] = order.length;
      order.push(root);
      parent.push(-1);
      parentBond.push(-1);
      for (let head = position[root]; head < order.length; head++) {
        const a = order[head];
        for (let k = start[a]; k < start[a + 1]; k++) {
          const b = nbr[k];
          if (position[b] >= 0) continue;
          position[b] = order.length;
          order.push(b);
          parent.push(head);
          parentBond.push(nbrBond[k]);
        }
      }
    }
    // Bonds other than the parent's, to atoms placed earlier: [position, query bond] per position.
    const backStart = new Int32Array(n + 1);
    const backAt = [];
    const backBond = [];
    for (let p = 0; p < n; p++) {
      const a = order[p];
      backStart[p] = backAt.length;
      for (let k = start[a]; k < start[a + 1]; k++) {
        const q = position[nbr[k]];
        // A second bond to the parent (never in a molecule) is checked like any other.
        if (q < p && !(q === parent[p] && nbrBond[k] === parentBond[p])) {
          backAt.push(q);
          backBond.push(nbrBond[k]);
        }
      }
    }
    backStart[n] = backAt.length;
    this.order = Int32Array.from(order);
    this.parent = Int32Array.from(parent);
    this.parentBond = Int32Array.from(parentBond);
    this.backStart = backStart;
    this.backAt = Int32Array.from(backAt);
    this.backBond = Int32Array.from(backBond);
  }

  /** Atoms of each element the query certainly needs (atoms that accept one element only). */
  elementNeeds() {
    const counts = new Map();
    for (let a = 0; a < this.atoms; a++) {
      let only = -1;
      for (let c = 0; c < ATOM_COLUMNS; c++) {
        if (!this.atomTable[a * ATOM_COLUMNS + c]) continue;
        const z = (c & 255) >> 1;
        if (only === -1) only = z;
        else if (only !== z) {
          only = -2;
          break;
        }
      }
      if (only >= 0) counts.set(only, (counts.get(only) ?? 0) + 1);
    }
    this.needZ = Int32Array.from(counts.keys());
    this.needCount = Int32Array.from(counts.values());
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

  /**
   * RDKit's answer for a query that is decided here: true or false (an exact query, or a loose one
   * matched with its certain tables), or null when only RDKit can tell (a loose query that may
   * match). `target` is a SmilesGraph just read.
   */
  decide(query, target) {
    if (query.exact) return this.matches(query, target, query.atomTable, query.bondTable);
    if (query.needsRings) target.findRings();
    if (query.sureAtomTable && this.matches(query, target, query.sureAtomTable, query.sureBondTable)) return true;
    return this.matches(query, target, query.atomTable, query.bondTable) ? null : false;
  }

  /**
   * Whether `query` matches `target` with these atom and bond tables (the query's own, or its
   * certain ones): RDKit's answer for an exact query; for a loose one with its own tables, false
   * means RDKit would not match it either.
   */
  matches(query, target, atomTable = query.atomTable, bondTable = query.bondTable) {
    const n = query.atoms;
    const m = target.atoms;
    if (n === 0) return true;
    if (n > m) return false;
    if (!this.hasElements(query, target)) return false;
    const { map, cursor, usedStamp } = this;
    if (this.stamp === 0x7fffffff) {
      usedStamp.fill(0);
      this.stamp = 0;
    }
    const stamp = ++this.stamp;
    const { order, parent, parentBond, needsRings } = query;
    const { start, nbr, nbrBond, nbrRing } = target;
    let p = 0;
    cursor[0] = 0;
    while (p >= 0) {
      // Next candidate for position p: a neighbour of its parent's image, or any atom.
      const qa = order[p];
      const from = parent[p];
      let found = -1;
      if (from < 0) {
        while (cursor[p] < m) {
          const t = cursor[p]++;
          if (usedStamp[t] !== stamp && this.fits(query, qa, p, target, t, atomTable, bondTable)) {
            found = t;
            break;
          }
        }
      } else {
        const end = start[map[from] + 1];
        const bondRow = parentBond[p] * BOND_COLUMNS;
        while (cursor[p] < end) {
          const k = cursor[p]++;
          const t = nbr[k];
          const column = (needsRings ? nbrRing[k] * BOND_TYPES : 0) + BOND_COLUMN[nbrBond[k]];
          if (bondTable[bondRow + column] && usedStamp[t] !== stamp && this.fits(query, qa, p, target, t, atomTable, bondTable)) {
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

  /** Target atom t can take query atom qa at position p: its kind, its degree, its bonds to atoms placed. */
  fits(query, qa, p, target, t, atomTable, bondTable) {
    const rings = query.needsRings;
    const column = (rings ? Math.min(target.ringBonds[t], RING_BOND_COUNTS - 1) * 256 : 0) + target.z[t] * 2 + target.aromatic[t];
    if (!atomTable[qa * ATOM_COLUMNS + column]) return false;
    if (query.exact && !this.sameAtom(query, qa, target, t)) return false;
    const { start, nbr, nbrBond, nbrRing } = target;
    if (start[t + 1] - start[t] < query.degree[qa]) return false;
    const { backStart, backAt, backBond } = query;
    for (let k = backStart[p]; k < backStart[p + 1]; k++) {
      const other = this.map[backAt[k]];
      let ok = false;
      for (let j = start[t]; j < start[t + 1]; j++) {
        if (nbr[j] === other) {
          ok = bondTable[backBond[k] * BOND_COLUMNS + (rings ? nbrRing[j] * BOND_TYPES : 0) + BOND_COLUMN[nbrBond[j]]] === 1;
          break;
        }
      }
      if (!ok) return false;
    }
    return true;
  }

  /** RDKit's Atom::Match beyond the atomic number, with the query atom as `this`. */
  sameAtom(query, qa, target, t) {
    const iso = query.isotope[qa];
    if (query.z[qa] === 0) return !(iso && target.isotope[t] && iso !== target.isotope[t]);
    const charge = query.charge[qa];
    return !(charge && charge !== target.charge[t]) && !(iso && iso !== target.isotope[t]);
  }

  /** The target has at least as many atoms of each element as the query certainly needs. */
  hasElements(query, target) {
    if (query.needZ.length === 0) return true;
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
