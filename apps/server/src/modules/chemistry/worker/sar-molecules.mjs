// SAR inputs (stored SMILES, cores, RDKit's JSON graphs) and the one-molecule operations: contains, zip.
import { largestFragment, queryMol } from './query.mjs';
import { LOG, RD, captured } from './runtime.mjs';

/** An input SMILES (stored, already checked by the engine) as a molecule, desalted; null when unreadable. */
export function inputMol(smiles) {
  if (!smiles) return null;
  const mol = RD.get_mol(smiles);
  if (!mol || !mol.is_valid()) {
    mol?.delete();
    return null;
  }
  if (!smiles.includes('.')) return mol;
  const parent = largestFragment(mol);
  if (!parent) return mol;
  mol.delete();
  return parent;
}

/**
 * A core as RDKit reads it: molfile R# atoms (RGP) become labelled dummies once explicit
 * hydrogens are removed (`R#` → `[1*]`), SMILES `[*:n]` stay as they are.
 */
export function coreMol(core) {
  LOG.clear_buffer();
  const mol = core.kind === 'smarts' ? RD.get_qmol(core.text) : RD.get_mol(core.text);
  if (!mol || !mol.is_valid()) {
    mol?.delete();
    return { error: captured() || 'RDKit could not read the core' };
  }
  if (mol.get_num_atoms() === 0) {
    mol.delete();
    return { error: 'the core has no atoms' };
  }
  if (core.kind === 'molfile') mol.remove_hs_in_place();
  return { mol };
}

/**
 * A molecule's graph from RDKit's JSON (atoms and bonds with the document's defaults filled in);
 * the Mol is deleted here, whatever happens.
 */
export function graphOf(mol) {
  let doc;
  try {
    doc = JSON.parse(mol.get_json());
  } finally {
    mol.delete();
  }
  const molecule = doc.molecules[0];
  const atoms = molecule.atoms.map((a) => ({ ...doc.defaults.atom, ...a }));
  const bonds = (molecule.bonds ?? []).map((b) => ({ ...doc.defaults.bond, ...b }));
  return { doc, molecule, atoms, bonds };
}

export function contains(message) {
  const built = queryMol(message.query, message.maxAtoms ?? 0);
  if (built.error) return { ok: false, error: built.error, tooManyAtoms: built.tooManyAtoms };
  try {
    const hits = new Uint8Array(message.smiles.length);
    message.smiles.forEach((smiles, i) => {
      const mol = inputMol(smiles);
      if (!mol) return;
      try {
        hits[i] = mol.get_substruct_match(built.mol) !== '{}' ? 1 : 0;
      } finally {
        mol.delete();
      }
    });
    return { ok: true, hits };
  } finally {
    built.mol.delete();
  }
}

/** The core with its R-groups joined on (molzip), hydrogens made implicit: canonical SMILES. */
export function zip(message) {
  LOG.clear_buffer();
  const core = RD.get_mol(message.core);
  if (!core || !core.is_valid()) {
    core?.delete();
    return { ok: false, error: captured() || 'RDKit could not read the core' };
  }
  const groups = RD.get_mol(message.rgroups);
  if (!groups || !groups.is_valid()) {
    core.delete();
    groups?.delete();
    return { ok: false, error: captured() || 'RDKit could not read the R-groups' };
  }
  let joined = null;
  try {
    joined = RD.molzip(core, groups, JSON.stringify({}));
    if (!joined || !joined.is_valid()) return { ok: false, error: captured() || 'RDKit could not join the R-groups to the core' };
    joined.remove_hs_in_place();
    return { ok: true, smiles: joined.get_smiles() };
  } finally {
    joined?.delete();
    core.delete();
    groups.delete();
  }
}
