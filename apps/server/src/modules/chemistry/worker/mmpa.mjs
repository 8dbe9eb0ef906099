// Matched molecular pairs: the MMPA single cuts of each structure (docs/sar.md "Matched molecular pairs").
import { RD, TEST_HOOKS } from './runtime.mjs';
import { inputMol } from './sar-molecules.mjs';

/** Heavy atoms of a fragment's SMILES (the attachment point `[*:1]` and hydrogens not counted). */
function heavyAtoms(smiles) {
  let n = 0;
  for (const token of smiles.match(/\[[^\]]*\]|Br|Cl|[BCNOPSFIbcnops]/g) ?? []) {
    if (token[0] === '[' && /^\[(\*|\d*H[^a-z]|\d*H\])/.test(token)) continue;
    n += 1;
  }
  return n;
}

export function canonical(smiles) {
  const mol = RD.get_mol(smiles);
  if (!mol) return null;
  try {
    return mol.is_valid() ? mol.get_smiles() : null;
  } finally {
    mol.delete();
  }
}

/**
 * Canonical SMILES of MMPA halves, remembered: the same variable parts (methyl, chloro, …) come
 * back compound after compound. Only halves with stereo marks are read again (see `fragmentsOf`).
 */
const canonicalHalves = new Map();

/** The reference's own (`fragmentsOfReference`), so that neither way warms the other's. */
const referenceHalves = new Map();

const CANONICAL_HALVES_MAX = 200_000;

function canonicalHalf(text, cache = canonicalHalves) {
  let known = cache.get(text);
  if (known === undefined) {
    known = canonical(text);
    if (cache.size >= CANONICAL_HALVES_MAX) cache.clear();
    cache.set(text, known);
  }
  return known;
}

/** Variable parts larger than this are not a "small change" (Hussain–Rea). */
const MAX_VARIABLE_ATOMS = 13;

/** Tetrahedral (`@`) or double-bond (`/`, `\`) stereo in a SMILES. */
const STEREO_MARK = /[@/\\]/;

/** The MMPA single cuts of one input as its halves' SMILES (`a.b`), in RDKit's order; [] when it has none. */
function mmpaCuts(smiles) {
  const mol = inputMol(smiles);
  if (!mol) return [];
  let frags;
  try {
    frags = mol.get_mmpa_frags(1, 1, 20);
  } finally {
    mol.delete();
  }
  // A molecule without a cuttable bond answers no lists at all (null), not empty ones.
  if (!frags?.sidechains) {
    frags?.cores?.delete();
    return [];
  }
  const texts = [];
  try {
    for (let i = 0; i < frags.sidechains.size(); i++) {
      const side = frags.sidechains.at(i);
      if (!side) continue;
      texts.push(side.get_smiles());
      side.delete();
    }
  } finally {
    frags.cores?.delete();
    frags.sidechains.delete();
  }
  return texts;
}

/** Each half of a cut as the constant part with the other as the variable part, when that is a small change. */
function pushCut(cuts, seen, a, b, na, nb) {
  for (const [constant, variable, nc, nv] of [
    [a, b, na, nb],
    [b, a, nb, na],
  ]) {
    if (nv > MAX_VARIABLE_ATOMS || nv >= nc) continue;
    const key = `${constant}>${variable}`;
    if (seen.has(key)) continue;
    seen.add(key);
    cuts.push({ constant, variable });
  }
}

/**
 * Single cuts of acyclic single bonds (RDKit MMPA): each cut gives two halves, each taken once as
 * the constant part with the other as the variable part, when the variable part is small
 * (≤ 13 heavy atoms) and smaller than the constant part.
 *
 * The halves are taken as RDKit wrote them: MolToSmiles canonicalises each fragment of a
 * disconnected molecule on its own (SmilesWrite.cpp), so a half's text is already its canonical
 * SMILES — reading it again gave the same text for all 486,295 distinct halves of the 74,376
 * ChEMBL-subset structures and the FreeWilson series. Halves with stereo marks are still read
 * again (RDKit's stereo perception is where a round trip can move), and a cut whose halves can
 * never make a small change (both over 13 heavy atoms, or equal) is skipped before that. Heavy
 * atoms are counted on the text, the same for any SMILES of the half.
 */
function fragmentsOf(smiles) {
  const cuts = [];
  const seen = new Set();
  for (const text of mmpaCuts(smiles)) {
    const halves = text.split('.');
    if (halves.length !== 2) continue;
    let [a, b] = halves;
    const na = heavyAtoms(a);
    const nb = heavyAtoms(b);
    if (na === nb || Math.min(na, nb) > MAX_VARIABLE_ATOMS) continue;
    if (STEREO_MARK.test(a)) a = canonicalHalf(a);
    if (STEREO_MARK.test(b)) b = canonicalHalf(b);
    if (!a || !b) continue;
    pushCut(cuts, seen, a, b, na, nb);
  }
  return cuts;
}

/**
 * The cuts as they were made before (every half read again and canonicalised, remembered by text): the
 * reference of the parity test and of bench/sar-cliffs-pairs.ts (test hooks only).
 */
function fragmentsOfReference(smiles) {
  const cuts = [];
  const seen = new Set();
  for (const text of mmpaCuts(smiles)) {
    const halves = text.split('.');
    if (halves.length !== 2) continue;
    const [a, b] = halves.map((half) => canonicalHalf(half, referenceHalves));
    if (!a || !b) continue;
    pushCut(cuts, seen, a, b, heavyAtoms(a), heavyAtoms(b));
  }
  return cuts;
}

export function fragments(message) {
  if (message.reference && !TEST_HOOKS) return { ok: false, error: 'test hooks are off', internal: true };
  const cut = message.reference ? fragmentsOfReference : fragmentsOf;
  return { ok: true, cuts: message.smiles.map((s) => cut(s)) };
}
