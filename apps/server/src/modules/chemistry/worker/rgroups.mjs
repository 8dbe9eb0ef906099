// R-group decomposition: one RDKit decomposition fed in chunks, or the parallel one on a labelled core (docs/sar.md).
import { LOG, RD, captured } from './runtime.mjs';
import { coreMol, graphOf, inputMol } from './sar-molecules.mjs';

/** Open decompositions of this worker: handle → RDKit RGroupDecomposition (one per SAR table being built). */
const decompositions = new Map();

let nextDecomposition = 1;

export function rgdStart(message) {
  const mols = [];
  let list = null;
  try {
    for (const [i, core] of message.cores.entries()) {
      const built = coreMol(core);
      if (built.error) return { ok: false, error: message.cores.length > 1 ? `Core ${i + 1}: ${built.error}` : built.error };
      mols.push(built.mol);
    }
    let source = mols[0];
    if (mols.length > 1) {
      list = new RD.MolList();
      for (const mol of mols) list.append(mol);
      source = list;
    }
    LOG.clear_buffer();
    const rgd = RD.get_rgd(source, JSON.stringify(message.params ?? {}));
    if (!rgd) return { ok: false, error: captured() || 'RDKit could not use the core for an R-group decomposition' };
    const handle = nextDecomposition++;
    decompositions.set(handle, { rgd, added: [] });
    return { ok: true, handle };
  } finally {
    // Also when RDKit throws: wasm objects are not garbage-collected.
    list?.delete();
    for (const mol of mols) mol.delete();
  }
}

/** Adds a chunk of molecules; per SMILES whether it fits a core. */
export function rgdAdd(message) {
  const open = decompositions.get(message.handle);
  if (!open) return { ok: false, error: 'the decomposition is gone', internal: true };
  const fits = new Uint8Array(message.smiles.length);
  message.smiles.forEach((smiles, i) => {
    const mol = inputMol(smiles);
    if (!mol) return;
    try {
      fits[i] = open.rgd.add(mol) >= 0 ? 1 : 0;
    } finally {
      mol.delete();
    }
  });
  return { ok: true, fits };
}

/** `[H][*:n]` (and its other spellings): the position carries hydrogen. */
const HYDROGEN_GROUP = /^(\[H\]\[\*:\d+\]|\[\*:\d+\]\[H\])$/;

/** Processes the decomposition (symmetry, labels) and returns its rows in the order the fitting molecules were added. */
export function rgdFinish(message) {
  const open = decompositions.get(message.handle);
  if (!open) return { ok: false, error: 'the decomposition is gone', internal: true };
  decompositions.delete(message.handle);
  try {
    if (message.anyFit) open.rgd.process();
    const rows = message.anyFit ? open.rgd.get_rgroups_as_rows() : [];
    return {
      ok: true,
      rows: rows.map((row) => {
        const out = {};
        // Every Mol of every row is deleted even if reading one throws (the trap handler ends the worker then anyway).
        for (const [label, mol] of Object.entries(row)) {
          try {
            const smiles = mol.get_smiles();
            out[label] = label === 'Core' || !HYDROGEN_GROUP.test(smiles) ? smiles : null;
          } finally {
            mol.delete();
          }
        }
        return out;
      }),
    };
  } finally {
    open.rgd.delete();
  }
}

export function rgdDrop(message) {
  decompositions.get(message.handle)?.rgd.delete();
  decompositions.delete(message.handle);
  return { ok: true };
}

// ---- the parallel decomposition (docs/sar.md "Decomposition"): explicitly labelled cores, chunks on every worker

/** Most automorphisms of a core looked at (a benzene core has 12; the FreeWilson core 2). */
const MAX_AUTOMORPHISMS = 1000;

/**
 * The core with every open position labelled, so every chunk of a parallel decomposition labels
 * the same way (RDKit numbers unlabelled positions per run). The core's own labels (molfile R#,
 * SMILES `[*:n]` or `[n*]`) are kept; each implicit hydrogen of a core atom becomes a dummy with
 * the next free label. Labels are written as isotopes (`[n*]`), which RDKit's decomposition reads
 * as R-group labels and RDKit JSON keeps. Also answers the label permutations of the core's
 * automorphisms (symmetric positions), for the symmetry pass on the main thread. `plain: false`:
 * the core has query features a rebuilt molecule would lose — the caller decomposes it as it is.
 */
export function rgdLabel(message) {
  const core =
    message.core.kind === 'smiles' ? { ...message.core, text: message.core.text.replace(/\[\*:(\d+)\]/g, '[$1*]') } : message.core;
  const built = coreMol(core);
  if (built.error) return { ok: false, error: built.error };
  let doc;
  try {
    doc = JSON.parse(built.mol.get_json());
  } finally {
    built.mol.delete();
  }
  const molecule = doc.molecules[0];
  const queries = (molecule.extensions ?? []).find((e) => e.name === 'rdkitQueries');
  const plainQueries =
    !queries ||
    ((queries.atomQueries ?? []).every((q) => !q.descr || q.descr === 'AtomNull') &&
      !(queries.bondQueries ?? []).some((q) => q && q.descr));
  if (!plainQueries) return { ok: true, plain: false };
  const atoms = molecule.atoms.map((a) => ({ ...doc.defaults.atom, ...a }));
  const bonds = (molecule.bonds ?? []).map((b) => ({ ...doc.defaults.bond, ...b }));
  let next = 1;
  for (const a of atoms) if (a.z === 0 && a.isotope > 0) next = Math.max(next, a.isotope + 1);
  const given = atoms.filter((a) => a.z === 0 && a.isotope > 0).map((a) => a.isotope);
  if (atoms.some((a) => a.z === 0 && !(a.isotope > 0))) return { ok: true, plain: false };
  const count = atoms.length;
  for (let a = 0; a < count; a++) {
    const atom = atoms[a];
    if (atom.z === 0) continue;
    for (let h = 0; h < atom.impHs; h++) {
      bonds.push({ bo: 1, stereo: 'unspecified', atoms: [a, atoms.length] });
      atoms.push({ ...doc.defaults.atom, z: 0, isotope: next++, impHs: 0 });
    }
    atom.impHs = 0;
  }
  const asJson = (list) =>
    JSON.stringify({
      rdkitjson: doc.rdkitjson,
      defaults: doc.defaults,
      molecules: [{ atoms: list.map(({ stereo: _atomStereo, ...a }) => a), bonds: bonds.map(({ stereo: _bondStereo, ...b }) => b) }],
    });
  const mol = RD.get_mol(asJson(atoms));
  // The same core with its dummies unlabelled (same atom order): labels would keep an automorphism
  // from mapping one R position onto another.
  const bare = RD.get_mol(asJson(atoms.map((a) => (a.z === 0 ? { ...a, isotope: 0 } : a))));
  if (!mol || !mol.is_valid() || !bare || !bare.is_valid()) {
    mol?.delete();
    bare?.delete();
    return { ok: true, plain: false };
  }
  try {
    const labelOf = atoms.map((a) => (a.z === 0 ? a.isotope : 0));
    const seen = new Set();
    const permutations = [];
    const matches = JSON.parse(
      bare.get_substruct_matches(bare, JSON.stringify({ uniquify: false, maxMatches: MAX_AUTOMORPHISMS })) || '[]',
    );
    for (const match of matches) {
      const pairs = [];
      let valid = true;
      match.atoms.forEach((target, source) => {
        if (!labelOf[source]) return;
        if (!labelOf[target]) valid = false;
        else pairs.push([labelOf[source], labelOf[target]]);
      });
      const key = JSON.stringify(pairs);
      if (!valid || seen.has(key)) continue;
      seen.add(key);
      permutations.push(pairs);
    }
    return { ok: true, plain: true, core: mol.get_smiles(), given, permutations };
  } finally {
    mol.delete();
    bare.delete();
  }
}

/**
 * One chunk of a parallel decomposition: the labelled core (rgdLabel), `NoSymmetrization` (the
 * symmetry pass runs over the whole set afterwards); per SMILES its R-groups by label, or null.
 */
export function rgdChunk(message) {
  const started = rgdStart({ cores: [message.core], params: message.params });
  if (!started.ok) return started;
  const fits = rgdAdd({ handle: started.handle, smiles: message.smiles }).fits;
  const finished = rgdFinish({ handle: started.handle, anyFit: fits.includes(1) });
  if (!finished.ok) return finished;
  let next = 0;
  const rows = Array.from(fits, (fit) => {
    if (!fit) return null;
    const { Core: _core, ...groups } = finished.rows[next++];
    return groups;
  });
  return { ok: true, groups: rows };
}

/** The labelled core (`[n*]`) with only the labels used, renamed (`rename`: old → new), as `[*:n]` SMILES. */
export function rgdCore(message) {
  const mol = RD.get_mol(message.core);
  if (!mol || !mol.is_valid()) {
    mol?.delete();
    return { ok: false, error: 'the labelled core is unreadable', internal: true };
  }
  const { doc, atoms, bonds } = graphOf(mol);
  const keep = atoms.map((a) => a.z !== 0 || message.rename[a.isotope] !== undefined);
  const index = [];
  const outAtoms = [];
  atoms.forEach((a, i) => {
    if (!keep[i]) return;
    index[i] = outAtoms.length;
    outAtoms.push({ z: a.z, chg: a.chg, impHs: a.impHs, nRad: a.nRad, isotope: a.z === 0 ? message.rename[a.isotope] : a.isotope });
  });
  const outBonds = [];
  for (const b of bonds) {
    const [x, y] = b.atoms;
    if (keep[x] && keep[y]) outBonds.push({ atoms: [index[x], index[y]], bo: b.bo });
    else if (keep[x] || keep[y]) outAtoms[index[keep[x] ? x : y]].impHs += b.bo;
  }
  const out = RD.get_mol(
    JSON.stringify({ rdkitjson: doc.rdkitjson, defaults: doc.defaults, molecules: [{ atoms: outAtoms, bonds: outBonds }] }),
  );
  if (!out || !out.is_valid()) {
    out?.delete();
    return { ok: false, error: 'RDKit could not write the labelled core', internal: true };
  }
  try {
    return { ok: true, smiles: out.get_smiles().replace(/\[(\d+)\*\]/g, '[*:$1]') };
  } finally {
    out.delete();
  }
}
