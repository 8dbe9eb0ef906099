// Query parsing: a query as RDKit's molecule (desalted, atoms counted), and `describe`.
import { LOG, RD, captured } from './runtime.mjs';
import { MORGAN_SETTINGS } from '../fingerprint.mjs';

/** The largest fragment by heavy atoms: counter-ions and solvents are dropped ("desalted"). */
export function largestFragment(mol) {
  const smiles = mol.get_smiles();
  if (!smiles.includes('.')) return null;
  let best = null;
  let bestAtoms = -1;
  for (const part of smiles.split('.')) {
    const frag = RD.get_mol(part);
    if (!frag) continue;
    const atoms = JSON.parse(frag.get_descriptors()).NumHeavyAtoms;
    if (atoms > bestAtoms) {
      best?.delete();
      best = frag;
      bestAtoms = atoms;
    } else frag.delete();
  }
  return best;
}

/**
 * Builds the RDKit query molecule: SMILES and molfiles are molecules used as queries (as
 * `Chem.MolFromSmiles` + `HasSubstructMatch`), SMARTS are query patterns (`Chem.MolFromSmarts`).
 * Returns { mol } or { error }.
 */
export function queryMol(query, maxAtoms = 0) {
  LOG.clear_buffer();
  let mol = null;
  if (query.kind === 'smarts') mol = RD.get_qmol(query.text);
  else mol = RD.get_mol(query.text);
  if (!mol || !mol.is_valid()) {
    mol?.delete();
    return { error: captured() || 'RDKit could not read it' };
  }
  // The engine checked an estimate from the text; this is the exact count, before any more work.
  if (maxAtoms > 0 && mol.get_num_atoms() > maxAtoms) {
    const atoms = mol.get_num_atoms();
    mol.delete();
    return { error: 'too many atoms', tooManyAtoms: atoms };
  }
  if (query.kind !== 'smarts' && query.desalt) {
    const parent = largestFragment(mol);
    if (parent) {
      mol.delete();
      mol = parent;
    }
  }
  if (mol.get_num_atoms() === 0) {
    mol.delete();
    return { error: 'the query has no atoms' };
  }
  return { mol };
}

export function describe(query, maxAtoms, withInchi = false) {
  const built = queryMol(query, maxAtoms);
  if (built.error) return { ok: false, error: built.error, tooManyAtoms: built.tooManyAtoms };
  const { mol } = built;
  try {
    const result = { ok: true, atoms: mol.get_num_atoms() };
    if (query.kind === 'smarts') {
      result.smarts = mol.get_smarts();
    } else {
      result.smiles = mol.get_smiles();
      result.morgan = new Uint8Array(mol.get_morgan_fp_as_uint8array(MORGAN_SETTINGS));
      // Standard InChI (target prediction's parent key); empty when RDKit cannot write one.
      if (withInchi) result.inchi = mol.get_inchi() || undefined;
    }
    return result;
  } finally {
    mol.delete();
  }
}
