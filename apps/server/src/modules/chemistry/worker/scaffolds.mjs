// Bemis–Murcko scaffolds and the maximum common substructure (docs/sar.md).
import { canonical } from './mmpa.mjs';
import { RD } from './runtime.mjs';
import { graphOf, inputMol } from './sar-molecules.mjs';

/**
 * Bemis–Murcko scaffold (MinimalLib has no MurckoScaffold): ring atoms and the linkers between
 * rings, found by pruning non-ring atoms of degree 1 until none is left; then, as RDKit's
 * MurckoDecompose does, atoms double-bonded to a kept atom (C=O of a ring or linker) come back.
 * The scaffold is rebuilt from RDKit's JSON (Kekulé bond orders) with each kept atom's hydrogens
 * raised by the bond orders it lost, so RDKit re-perceives aromaticity and writes canonical SMILES.
 */
function murcko(smiles) {
  const mol = inputMol(smiles);
  if (!mol) return null;
  const { doc, molecule, atoms, bonds } = graphOf(mol);
  const defaults = doc.defaults;
  const ext = (molecule.extensions ?? []).find((e) => e.name === 'rdkitRepresentation') ?? {};
  const rings = ext.atomRings ?? [];
  if (!rings.length) return null;

  const inRing = new Uint8Array(atoms.length);
  for (const ring of rings) for (const a of ring) inRing[a] = 1;
  const neighbours = atoms.map(() => []);
  bonds.forEach((b, i) => {
    neighbours[b.atoms[0]].push(i);
    neighbours[b.atoms[1]].push(i);
  });
  const kept = new Uint8Array(atoms.length).fill(1);
  const degree = neighbours.map((list) => list.length);
  const queue = [];
  for (let a = 0; a < atoms.length; a++) if (!inRing[a] && degree[a] <= 1) queue.push(a);
  while (queue.length) {
    const a = queue.pop();
    if (!kept[a]) continue;
    kept[a] = 0;
    for (const bi of neighbours[a]) {
      const b = bonds[bi];
      const other = b.atoms[0] === a ? b.atoms[1] : b.atoms[0];
      if (!kept[other]) continue;
      degree[other] -= 1;
      if (!inRing[other] && degree[other] <= 1) queue.push(other);
    }
  }
  const scaffold = Uint8Array.from(kept);
  for (const b of bonds) {
    const [x, y] = b.atoms;
    if (b.bo < 2) continue;
    if (kept[x] && !kept[y] && atoms[y].z !== 1) scaffold[y] = 1;
    else if (kept[y] && !kept[x] && atoms[x].z !== 1) scaffold[x] = 1;
  }
  const index = new Int32Array(atoms.length).fill(-1);
  const outAtoms = [];
  for (let a = 0; a < atoms.length; a++) {
    if (!scaffold[a]) continue;
    index[a] = outAtoms.length;
    outAtoms.push({ z: atoms[a].z, chg: atoms[a].chg, impHs: atoms[a].impHs, nRad: atoms[a].nRad, isotope: atoms[a].isotope });
  }
  const outBonds = [];
  for (const b of bonds) {
    const [x, y] = b.atoms;
    if (scaffold[x] && scaffold[y]) outBonds.push({ atoms: [index[x], index[y]], bo: b.bo });
    else if (scaffold[x] !== scaffold[y]) outAtoms[index[scaffold[x] ? x : y]].impHs += b.bo;
  }
  const json = JSON.stringify({
    rdkitjson: { version: doc.rdkitjson?.version ?? 11 },
    defaults,
    molecules: [{ atoms: outAtoms, bonds: outBonds }],
  });
  const out = RD.get_mol(json);
  if (!out) return null;
  try {
    return out.is_valid() ? out.get_smiles() : null;
  } finally {
    out.delete();
  }
}

export function scaffolds(message) {
  return { ok: true, scaffolds: message.smiles.map((s) => murcko(s)) };
}

/** MCS of the molecules (rings match rings; completeRings: only whole rings, so the MCS is a usable core). */
export function mcs(message) {
  const list = new RD.MolList();
  try {
    for (const smiles of message.smiles) {
      const mol = inputMol(smiles);
      if (!mol) continue;
      list.append(mol);
      mol.delete();
    }
    if (list.size() < 2) return { ok: true, smarts: null, timedOut: false };
    const params = { Timeout: message.timeoutSeconds, RingMatchesRingOnly: true, CompleteRingsOnly: message.completeRings !== false };
    const result = JSON.parse(RD.get_mcs_as_json(list, JSON.stringify(params)));
    const smarts = result.numAtoms > 0 ? result.smarts : null;
    return { ok: true, smarts, smiles: smarts ? moleculeOfSmarts(smarts) : null, timedOut: result.canceled === true };
  } finally {
    list.delete();
  }
}

/**
 * An MCS SMARTS (elements, bond orders, ring membership) as the molecule it describes: canonical
 * SMILES, so it can be drawn with its elements and bonds; null when it is no molecule (a partial
 * aromatic ring, a query feature). An MCS says nothing of hydrogens, so an aromatic ring with a
 * pyrrole-type nitrogen (the pyrrolopyrimidine of a JAK series, an indole, an imidazole) does not
 * kekulize as written: each aromatic nitrogen in turn is given its hydrogen until RDKit reads it.
 */
export function moleculeOfSmarts(smarts) {
  const q = RD.get_qmol(smarts);
  if (!q) return null;
  let text;
  try {
    text = q.get_smiles();
  } finally {
    q.delete();
  }
  if (!text || text.includes('*')) return null;
  const plain = canonical(text);
  if (plain) return plain;
  // Of the nitrogens that make it readable, the one that keeps the ring system aromatic (an NH on
  // the wrong nitrogen reads as a tautomer whose rings are no longer aromatic).
  let best = null;
  for (const at of aromaticNitrogens(text).slice(0, MAX_NH_TRIALS)) {
    const withH = canonical(`${text.slice(0, at)}[nH]${text.slice(at + 1)}`);
    if (withH && (!best || aromaticBonds(withH) > aromaticBonds(best))) best = withH;
  }
  return best;
}

/** Aromatic bonds of a molecule (RDKit's JSON): the right tautomer keeps every ring bond of the MCS aromatic. */
function aromaticBonds(smiles) {
  const mol = RD.get_mol(smiles);
  if (!mol) return 0;
  try {
    const ext = (JSON.parse(mol.get_json()).molecules?.[0]?.extensions ?? []).find((e) => e.name === 'rdkitRepresentation');
    return ext?.aromaticBonds?.length ?? 0;
  } finally {
    mol.delete();
  }
}

/** Aromatic nitrogens tried for a hydrogen: an MCS core has a handful. */
const MAX_NH_TRIALS = 12;

/**
 * Where a bare `N` bonded by an aromatic bond stands in RDKit's SMILES of a query (`C1:N:C…`,
 * aromatic atoms written upper case with `:` bonds): preceded by `:` (or `(:`), or followed by `:`
 * after its ring-closure digits.
 */
function aromaticNitrogens(text) {
  const found = [];
  let inBracket = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '[') inBracket = true;
    else if (c === ']') inBracket = false;
    else if (c === 'N' && !inBracket && text[i + 1] !== 'a' && text[i + 1] !== 'e' && text[i + 1] !== 'i' && text[i + 1] !== 'b') {
      const after = text.slice(i + 1).replace(/^(?:\d|%\d\d)+/, '');
      if (text[i - 1] === ':' || after.startsWith(':')) found.push(i);
    }
  }
  return found;
}

/** A SMARTS written only with elements (`[#6]`, `[#7&R]`, `[#8&!R]`) and bond orders — an MCS — is a molecule. */
const PLAIN_SMARTS_ATOM = /\[#\d{1,3}(?:&!?R)?\]/g;

export function isPlainSmarts(smarts) {
  return /^[-=#:@!&()0-9%]*$/.test(smarts.replace(PLAIN_SMARTS_ATOM, ''));
}
