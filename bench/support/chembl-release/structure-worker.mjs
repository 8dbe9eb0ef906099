// RDKit MinimalLib worker of the release generator: enumerates analogues of real ChEMBL structures
// and canonicalises them. Plain JavaScript, as the product's own RDKit workers
// (apps/server/src/modules/knowledge-base/chem/rdkit-worker.mjs): a worker thread starts without tsx.
import { parentPort } from 'node:worker_threads';
import initRDKitModule from '@rdkit/rdkit';
import { mulberry32 } from '../../../apps/server/src/modules/knowledge-base/demo/mulberry32.mjs';
import { carbonHydrogenSites, substitute } from './hydrogen-sites.mjs';

const RD = await initRDKitModule();
// Invalid candidates (a substituent on an atom that cannot take it) are expected: no log noise.
RD.disable_logging();

function shuffle(list, next) {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

/** Stereo marks: where RDKit's canonical SMILES is known to be occasionally not a fixed point. */
const STEREO = /[@/\\]/;

/**
 * RDKit's canonical SMILES, or null when RDKit refuses the molecule. A canonical SMILES with stereo
 * marks is read back once more and kept only when that gives the same text, so the importer's own
 * canonicalisation cannot merge two of our "distinct" structures. Reading every one back found no
 * unstable SMILES in 20,000 of the subset's and cost 45 % of the enumeration's RDKit time, so only
 * those with stereo marks (where RDKit's canonical form is known to waver) are checked.
 */
function canonical(smiles) {
  const mol = RD.get_mol(smiles);
  if (!mol) return null;
  let text = null;
  try {
    if (mol.is_valid() && mol.get_num_atoms() > 0) text = mol.get_smiles();
  } finally {
    mol.delete();
  }
  if (!text || !STEREO.test(text)) return text;
  const again = RD.get_mol(text);
  if (!again) return null;
  try {
    return again.is_valid() && again.get_smiles() === text ? text : null;
  } finally {
    again.delete();
  }
}

/** The parent written with explicit hydrogens (`[H]` atoms), or null when RDKit cannot read it. */
function withHydrogens(smiles) {
  const mol = RD.get_mol(smiles);
  if (!mol) return null;
  try {
    if (!mol.is_valid() || !mol.add_hs_in_place()) return null;
    return mol.get_smiles();
  } finally {
    mol.delete();
  }
}

/**
 * Single substitutions (one C-H replaced) in a seeded order, then pairs on two different C-H: the
 * candidate SMILES of a parent's analogues, generated lazily (most parents need only singles).
 */
function* candidates(explicit, substituents, seed) {
  // Seeded, so a parent's analogues come in the same order every run.
  const next = mulberry32(seed);
  const sites = carbonHydrogenSites(explicit);
  const singles = shuffle(
    sites.flatMap(({ offset }) => substituents.map((group) => ({ offset, group }))),
    next,
  );
  for (const edit of singles) yield substitute(explicit, sites, [edit]);
  for (let i = 0; i < singles.length; i++) {
    for (let j = i + 1; j < singles.length; j++) {
      const a = singles[i];
      const b = singles[j];
      if (a.offset === b.offset) continue;
      yield substitute(explicit, sites, [a, b]);
    }
  }
}

/**
 * A parent's structures: its own canonical SMILES first, then up to `wanted` distinct analogues.
 * At most `tries` candidates are canonicalised, so a parent with few distinct sites stops early.
 */
function enumerate({ smiles, wanted, seed }, substituents) {
  const parent = canonical(smiles);
  if (!parent) return { parent: null, analogues: [], tried: 1 };
  const explicit = withHydrogens(parent);
  const seen = new Set([parent]);
  const analogues = [];
  let tried = 1;
  if (explicit && wanted > 0) {
    const tries = wanted * 8;
    for (const candidate of candidates(explicit, substituents, seed)) {
      if (analogues.length >= wanted || tried >= tries) break;
      tried++;
      const text = canonical(candidate);
      if (text && !seen.has(text)) {
        seen.add(text);
        analogues.push(text);
      }
    }
  }
  return { parent, analogues, tried };
}

/** Standard InChI and InChIKey, as a real release carries them (null when RDKit cannot make one). */
function inchiOf(smiles) {
  const mol = RD.get_mol(smiles);
  if (!mol) return [null, null];
  try {
    const inchi = mol.get_inchi();
    return inchi ? [inchi, RD.get_inchikey_for_inchi(inchi) || null] : [null, null];
  } finally {
    mol.delete();
  }
}

parentPort.on('message', (request) => {
  // This thread's CPU time, not wall time: on a busy machine only CPU time projects to idle cores.
  const cpu = process.threadCpuUsage();
  const results = request.parents.map((p) => enumerate(p, request.substituents));
  if (request.inchi) {
    for (const r of results) r.inchis = (r.parent ? [r.parent, ...r.analogues] : []).map(inchiOf);
  }
  const used = process.threadCpuUsage(cpu);
  parentPort.postMessage({ id: request.id, results, cpuMs: (used.user + used.system) / 1000 });
});
parentPort.postMessage({ ready: true });
