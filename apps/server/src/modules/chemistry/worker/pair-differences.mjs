// Activity cliffs: what differs in a pair (FMCS, else the core, else atom environments; docs/sar.md).
import { RD } from './runtime.mjs';
import { inputMol } from './sar-molecules.mjs';

/** The molecule as a graph: atomic numbers, aromatic atoms and bonds (RDKit's JSON); the molecule is not deleted. */
function graphOfMol(mol) {
  const doc = JSON.parse(mol.get_json());
  const molecule = doc.molecules[0];
  const atoms = molecule.atoms.map((a) => ({ ...doc.defaults.atom, ...a }));
  const bonds = (molecule.bonds ?? []).map((b) => ({ ...doc.defaults.bond, ...b }));
  const ext = (molecule.extensions ?? []).find((e) => e.name === 'rdkitRepresentation') ?? {};
  const aromaticAtoms = new Set(ext.aromaticAtoms ?? []);
  const aromaticBonds = new Set(ext.aromaticBonds ?? []);
  const adjacency = atoms.map(() => []);
  bonds.forEach((b, i) => {
    adjacency[b.atoms[0]].push([i, b.atoms[1]]);
    adjacency[b.atoms[1]].push([i, b.atoms[0]]);
  });
  return { atoms, bonds, aromaticAtoms, aromaticBonds, adjacency };
}

function bondSymbol(graph, bond) {
  if (graph.aromaticBonds.has(bond)) return ':';
  const bo = graph.bonds[bond].bo;
  return bo === 2 ? '=' : bo === 3 ? '#' : '-';
}

/** Radius-1 environment of each atom: element, aromaticity and its bonded neighbours (a Morgan-like invariant). */
function atomKeys(graph) {
  const label = (a) => `${graph.atoms[a].z}${graph.aromaticAtoms.has(a) ? 'a' : 'A'}${graph.atoms[a].chg || ''}`;
  return graph.atoms.map(
    (_, a) =>
      `${label(a)}(${graph.adjacency[a]
        .map(([bond, other]) => bondSymbol(graph, bond) + label(other))
        .sort()
        .join(',')})`,
  );
}

/** Atoms of `graph` whose radius-1 environment the other molecule also has (each of the other's used once). */
function sharedAtoms(keys, otherKeys) {
  const counts = new Map();
  for (const key of otherKeys) counts.set(key, (counts.get(key) ?? 0) + 1);
  const shared = new Set();
  keys.forEach((key, a) => {
    const n = counts.get(key) ?? 0;
    if (n > 0) {
      counts.set(key, n - 1);
      shared.add(a);
    }
  });
  return shared;
}

/** The connected parts of the atoms kept (each an array of atom indices), in order of their first atom. */
function components(graph, kept) {
  const parts = [];
  const seen = new Set();
  for (const start of kept) {
    if (seen.has(start)) continue;
    const part = [];
    const stack = [start];
    seen.add(start);
    while (stack.length) {
      const a = stack.pop();
      part.push(a);
      for (const [, other] of graph.adjacency[a]) {
        if (kept.has(other) && !seen.has(other)) {
          seen.add(other);
          stack.push(other);
        }
      }
    }
    parts.push(part);
  }
  return parts;
}

/** The largest connected part of the atoms kept. */
function largestComponent(graph, kept) {
  let best = [];
  for (const part of components(graph, kept)) if (part.length > best.length) best = part;
  return new Set(best);
}

/**
 * SMARTS of a connected set of atoms of the molecule (elements, aromaticity, bond orders);
 * `exact`: each atom also with its degree and hydrogen count in this molecule (`[#6;A;D2;H2]`), so
 * the fragment matches only where it is in this molecule, not wherever its elements recur.
 */
function subgraphSmarts(graph, kept, exact = false) {
  const start = Math.min(...kept);
  const visited = new Set();
  const treeBonds = new Set();
  const closures = new Set();
  const children = new Map();
  const walk = (a, via) => {
    visited.add(a);
    children.set(a, []);
    for (const [bond, other] of graph.adjacency[a]) {
      if (bond === via || !kept.has(other)) continue;
      if (visited.has(other)) {
        if (!treeBonds.has(bond)) closures.add(bond);
        continue;
      }
      treeBonds.add(bond);
      children.get(a).push([bond, other]);
      walk(other, bond);
    }
  };
  walk(start, -1);
  const labels = new Map();
  const free = [];
  let next = 1;
  const atomText = (a) =>
    `[#${graph.atoms[a].z}${graph.aromaticAtoms.has(a) ? ';a' : ';A'}${exact ? `;D${graph.adjacency[a].length};H${graph.atoms[a].impHs ?? 0}` : ''}]`;
  const write = (a) => {
    let text = atomText(a);
    for (const [bond] of graph.adjacency[a]) {
      if (!closures.has(bond)) continue;
      let label = labels.get(bond);
      if (label === undefined) {
        label = free.length ? free.pop() : next++;
        labels.set(bond, label);
      } else {
        labels.delete(bond);
        free.push(label);
        closures.delete(bond);
      }
      text += bondSymbol(graph, bond) + (label < 10 ? String(label) : `%${label}`);
    }
    const list = children.get(a);
    list.forEach(([bond, other], i) => {
      const branch = bondSymbol(graph, bond) + write(other);
      text += i < list.length - 1 ? `(${branch})` : branch;
    });
    return text;
  };
  return write(start);
}

/**
 * What the two compounds share, atom by atom, when no MCS is known: the atoms whose radius-1
 * environment occurs in the other compound, the largest connected part of them, as a SMARTS per
 * compound. Always answers (milliseconds), so every pair gets its difference drawn.
 */
function environmentCommon(ma, mb) {
  const ga = graphOfMol(ma);
  const gb = graphOfMol(mb);
  const ka = atomKeys(ga);
  const kb = atomKeys(gb);
  const sa = largestComponent(ga, sharedAtoms(ka, kb));
  const sb = largestComponent(gb, sharedAtoms(kb, ka));
  if (!sa.size || !sb.size) return null;
  return { a: subgraphSmarts(ga, sa), b: subgraphSmarts(gb, sb) };
}

function matchesBoth(smarts, ma, mb) {
  const q = RD.get_qmol(smarts);
  if (!q) return false;
  try {
    return ma.get_substruct_match(q) !== '{}' && mb.get_substruct_match(q) !== '{}';
  } finally {
    q.delete();
  }
}

/** The SAR core (`[*:n]` at its R positions) as a SMARTS of its own atoms: the R positions may hold anything, hydrogen too. */
function coreSmarts(core) {
  if (!core) return null;
  const text = core.replace(/-?\[\*(?::\d+)?\]|-?\*/g, '').replace(/\(\)/g, '');
  const mol = RD.get_mol(text);
  if (!mol) return null;
  try {
    return mol.is_valid() && mol.get_num_atoms() > 0 ? mol.get_smarts() : null;
  } finally {
    mol.delete();
  }
}

/** Longest highlight a depiction takes (packages/contracts chemistry.ts HIGHLIGHT_MAX_CHARS): it travels in the picture's URL. */
const HIGHLIGHT_MAX_CHARS = 4_000;

/** Smallest part of the remainders added to the common part (heavy atoms): fewer is chance, not shared structure. */
const EXTRA_MIN_ATOMS = 3;

/** FMCS rounds on the remainders, each adding one connected part. */
const EXTRA_ROUNDS = 3;

/** RDKit's time limit of one round (whole seconds; the remainders are small, a round takes milliseconds). */
const EXTRA_TIMEOUT_SECONDS = 1;

/** Parts of each remainder added by their atom environments (when no FMCS round fits in the time left). */
const EXTRA_ENVIRONMENT_PARTS = 4;

/** The atoms of every match of the SMARTS in the molecule — those the drawing (`highlightOf`) leaves uncoloured; null when none. */
function matchedAtoms(mol, smarts) {
  const q = RD.get_qmol(smarts);
  if (!q) return null;
  try {
    const matches = JSON.parse(mol.get_substruct_matches(q));
    const atoms = new Set();
    for (const match of Array.isArray(matches) ? matches : [matches]) for (const a of match.atoms ?? []) atoms.add(a);
    return atoms.size ? atoms : null;
  } finally {
    q.delete();
  }
}

/**
 * The molecule with every atom's isotope set to its element, but those `used` to a label of their
 * own (`base` + index): FMCS comparing isotopes then matches elements on the remainders only.
 */
function remainderMol(mol, used, base) {
  const doc = JSON.parse(mol.get_json());
  doc.molecules[0].atoms.forEach((atom, i) => {
    atom.isotope = used.has(i) ? base + i : (atom.z ?? doc.defaults.atom.z);
  });
  const out = RD.get_mol(JSON.stringify(doc));
  if (out?.is_valid()) return out;
  out?.delete();
  return null;
}

/** One FMCS round on the remainders (atoms outside `usedA`, `usedB`): the atoms of each compound in it, or null. */
function remainderMcs(ma, mb, usedA, usedB) {
  if (ma.get_num_atoms() - usedA.size < EXTRA_MIN_ATOMS || mb.get_num_atoms() - usedB.size < EXTRA_MIN_ATOMS) return null;
  const ra = remainderMol(ma, usedA, 1_000);
  const rb = ra ? remainderMol(mb, usedB, 1_000 + ma.get_num_atoms()) : null;
  const list = new RD.MolList();
  try {
    if (!ra || !rb) return null;
    list.append(ra);
    list.append(rb);
    const params = {
      Timeout: EXTRA_TIMEOUT_SECONDS,
      AtomCompare: 'Isotopes',
      BondCompare: 'Order',
      RingMatchesRingOnly: true,
      CompleteRingsOnly: false,
    };
    const result = JSON.parse(RD.get_mcs_as_json(list, JSON.stringify(params)));
    if (!(result.numAtoms >= EXTRA_MIN_ATOMS) || !result.smarts) return null;
    const q = RD.get_qmol(result.smarts);
    if (!q) return null;
    try {
      const fa = JSON.parse(ra.get_substruct_match(q)).atoms ?? [];
      const fb = JSON.parse(rb.get_substruct_match(q)).atoms ?? [];
      if (fa.length < EXTRA_MIN_ATOMS || fa.length !== fb.length || fa.some((a) => usedA.has(a)) || fb.some((b) => usedB.has(b)))
        return null;
      return [fa, fb];
    } finally {
      q.delete();
    }
  } finally {
    list.delete();
    ra?.delete();
    rb?.delete();
  }
}

/** Environment keys of radius 1, 2, 3 of both molecules' atoms (radius r + 1: radius r's with the bonded neighbours' radius r), as numbers shared by both. */
function environmentLevels(ga, gb) {
  const ids = new Map();
  const id = (text) => {
    let n = ids.get(text);
    if (n === undefined) ids.set(text, (n = ids.size));
    return n;
  };
  const levels = [[atomKeys(ga).map(id), atomKeys(gb).map(id)]];
  for (let r = 2; r <= 3; r += 1) {
    const [pa, pb] = levels.at(-1);
    const grow = (graph, prev) =>
      graph.atoms.map((_, a) =>
        id(
          `${r}:${prev[a]}(${graph.adjacency[a]
            .map(([bond, other]) => bondSymbol(graph, bond) + prev[other])
            .sort()
            .join(',')})`,
        ),
      );
    levels.push([grow(ga, pa), grow(gb, pb)]);
  }
  return levels;
}

/**
 * The remainders' atoms (those outside `usedA`, `usedB`) paired by atom environment, each atom
 * used once: first those alike to radius 3, then 2, then 1 (so a chain's CH2 takes no ring's CH2
 * that has its twin on the other side); per compound, the connected parts of ≥ EXTRA_MIN_ATOMS
 * paired atoms, largest first.
 */
function remainderEnvironmentParts(ga, usedA, gb, usedB) {
  const pairedA = new Set();
  const pairedB = new Set();
  for (const [ka, kb] of environmentLevels(ga, gb).reverse()) {
    const waiting = new Map();
    ka.forEach((key, a) => {
      if (usedA.has(a) || pairedA.has(a)) return;
      if (!waiting.has(key)) waiting.set(key, []);
      waiting.get(key).push(a);
    });
    kb.forEach((key, b) => {
      if (usedB.has(b) || pairedB.has(b)) return;
      const a = waiting.get(key)?.shift();
      if (a === undefined) return;
      pairedA.add(a);
      pairedB.add(b);
    });
  }
  const parts = (graph, paired) =>
    components(graph, paired)
      .filter((part) => part.length >= EXTRA_MIN_ATOMS)
      .sort((x, y) => y.length - x.length)
      .slice(0, EXTRA_ENVIRONMENT_PARTS);
  return [parts(ga, pairedA), parts(gb, pairedB)];
}

/**
 * The common part beyond one connected substructure (docs/sar.md "Activity cliffs"): `found` (FMCS
 * or the core, one SMARTS a compound) leaves uncoloured the atoms of its matches; what is left of
 * each compound — the remainders — may still share parts (two compounds differing only in the
 * linker between identical ends: the MCS holds one end, the other end is left). Those are added:
 * FMCS rounds on the remainders (a part of ≥ 3 atoms a round, at most 3 rounds, each started only
 * when its time limit ends by `until`), else the remainders' atoms paired by atom environment
 * (radius 3, then 2, then 1; parts of ≥ 3 atoms). Each part is written with the atoms' degree and
 * hydrogen count in its compound and joined to the SMARTS with '.'; RDKit matches the whole as one
 * query (parts on distinct atoms), and it is kept only when the atoms of all its matches in the
 * compound are exactly those meant (found's and the parts'), so the drawing ('rest') colours just
 * what lies outside the common part. Parts that fail this are dropped, the last first; none kept:
 * `found` as it was.
 */
function extendCommon(ma, mb, found, until) {
  const usedA = matchedAtoms(ma, found.a);
  const usedB = matchedAtoms(mb, found.b);
  if (!usedA || !usedB) return found;
  const ga = graphOfMol(ma);
  const gb = graphOfMol(mb);
  const parts = [];
  while (parts.length < EXTRA_ROUNDS && Date.now() + EXTRA_TIMEOUT_SECONDS * 1000 <= until) {
    const part = remainderMcs(ma, mb, usedA, usedB);
    if (!part) break;
    parts.push(part);
    part[0].forEach((a) => usedA.add(a));
    part[1].forEach((b) => usedB.add(b));
  }
  if (!parts.length) {
    const [pa, pb] = remainderEnvironmentParts(ga, usedA, gb, usedB);
    for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) parts.push([pa[i] ?? [], pb[i] ?? []]);
  }
  for (let n = parts.length; n > 0; n -= 1) {
    const kept = parts.slice(0, n);
    const a = withParts(
      ma,
      ga,
      found.a,
      kept.map((p) => p[0]),
    );
    const b =
      a &&
      withParts(
        mb,
        gb,
        found.b,
        kept.map((p) => p[1]),
      );
    if (a && b) return { ...found, a, b, common: found.a === found.b ? found.a : null };
  }
  return found;
}

/** `smarts` with the parts (atom indices of the molecule) joined on, when every match of the whole covers exactly its atoms and the parts'. */
function withParts(mol, graph, smarts, parts) {
  const used = matchedAtoms(mol, smarts);
  if (!used) return null;
  const texts = [smarts];
  for (const part of parts) {
    if (!part.length) continue;
    texts.push(subgraphSmarts(graph, new Set(part), true));
    part.forEach((a) => used.add(a));
  }
  const text = texts.join('.');
  if (text.length > HIGHLIGHT_MAX_CHARS) return null;
  const matched = matchedAtoms(mol, text);
  if (!matched || matched.size !== used.size || [...used].some((a) => !matched.has(a))) return null;
  return text;
}

/**
 * The common part of each pair, so the drawing can colour what differs (docs/sar.md "Activity
 * cliffs"): (1) RDKit FMCS (elements and bond orders, rings match rings but may be cut), seeded with
 * the SAR core when both contain it; when RDKit's time limit stops it, the largest common
 * substructure found so far (checked against both); (2) the SAR core when both contain it; (3) the
 * atom-environment common part. After (1) or (2), what the remainders still share is added
 * (`extendCommon`). `mcs: false` skips (1) and the FMCS rounds of the remainders (the call's time
 * budget is spent); FMCS rounds start only while they end within `extraMs` of the call's start.
 */
export function pairDifferences(message) {
  const until = Date.now() + (message.mcs ? (message.extraMs ?? 0) : 0);
  const core = coreSmarts(message.core);
  const differences = message.pairs.map(([sa, sb]) => {
    const ma = inputMol(sa);
    const mb = inputMol(sb);
    try {
      if (!ma || !mb) return null;
      const coreInBoth = core !== null && matchesBoth(core, ma, mb);
      if (message.mcs) {
        const list = new RD.MolList();
        let found = null;
        try {
          list.append(ma);
          list.append(mb);
          const params = {
            Timeout: message.timeoutSeconds,
            AtomCompare: 'Elements',
            BondCompare: 'Order',
            RingMatchesRingOnly: true,
            CompleteRingsOnly: false,
          };
          if (coreInBoth) params.InitialSeed = core;
          const result = JSON.parse(RD.get_mcs_as_json(list, JSON.stringify(params)));
          if (result.numAtoms > 0 && result.smarts && (!result.canceled || matchesBoth(result.smarts, ma, mb))) {
            found = { kind: result.canceled ? 'partial' : 'mcs', a: result.smarts, b: result.smarts };
          }
        } finally {
          list.delete();
        }
        if (found) return extendCommon(ma, mb, found, until);
      }
      if (coreInBoth) return extendCommon(ma, mb, { kind: 'core', a: core, b: core }, until);
      const env = environmentCommon(ma, mb);
      return env ? { kind: 'environment', ...env } : null;
    } finally {
      ma?.delete();
      mb?.delete();
    }
  });
  return { ok: true, differences };
}
