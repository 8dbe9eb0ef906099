// RDKit MinimalLib worker: canonicalises SMILES and computes the stored properties of a structure.
// Plain JavaScript on purpose: a worker thread starts without tsx/vitest transforms, so a .ts file
// would not load there. The message shapes are typed in chem-pool.ts.
import { parentPort } from 'node:worker_threads';
import initRDKitModule from '@rdkit/rdkit';
import { MORGAN_SETTINGS, PATTERN_SETTINGS } from '../../chemistry/fingerprint.mjs';

const RD = await initRDKitModule();
// Parse errors of bad SMILES are reported to the caller as null results, not printed.
RD.disable_logging();

/** Hill formula from the InChI formula layer ("InChI=1S/C9H8O4/c..." -> "C9H8O4"). */
function formulaFromInchi(inchi) {
  const layer = inchi.split('/')[1];
  return layer && /^[A-Z]/.test(layer) ? layer : null;
}

function compute(smiles, options) {
  if (typeof smiles !== 'string' || smiles.trim() === '') return null;
  const mol = RD.get_mol(smiles);
  if (!mol) return null;
  try {
    if (!mol.is_valid() || mol.get_num_atoms() === 0) return null;
    const d = JSON.parse(mol.get_descriptors());
    const inchi = options.inchi === false ? '' : mol.get_inchi();
    return {
      canonical_smiles: mol.get_smiles(),
      inchi: inchi || null,
      inchikey: inchi ? RD.get_inchikey_for_inchi(inchi) || null : null,
      mol_formula: inchi ? formulaFromInchi(inchi) : null,
      mol_weight: d.amw,
      exact_mass: d.exactmw,
      logp_calc: d.CrippenClogP,
      psa: d.tpsa,
      hb_donors: d.NumHBD,
      hb_acceptor: d.NumHBA,
      rot_bonds: d.NumRotatableBonds,
      heavy_atoms: d.NumHeavyAtoms,
      pattern_fp: options.fingerprints === false ? null : new Uint8Array(mol.get_pattern_fp_as_uint8array(PATTERN_SETTINGS)),
      morgan_fp: options.fingerprints === false ? null : new Uint8Array(mol.get_morgan_fp_as_uint8array(MORGAN_SETTINGS)),
    };
  } catch {
    return null;
  } finally {
    mol.delete();
  }
}

parentPort.on('message', (request) => {
  const results = request.smiles.map((s) => compute(s, request.options ?? {}));
  const transfer = [];
  for (const r of results) {
    if (r?.pattern_fp) transfer.push(r.pattern_fp.buffer);
    if (r?.morgan_fp) transfer.push(r.morgan_fp.buffer);
  }
  parentPort.postMessage({ id: request.id, results }, transfer);
});
parentPort.postMessage({ ready: true });
