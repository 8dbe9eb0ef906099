// RDKit MinimalLib worker of the chemistry engine (see chem-engine.ts and README.md).
// Plain JavaScript on purpose: a worker thread starts without tsx/vitest transforms, so a .ts file
// would not load here. Message shapes are typed in worker-protocol.ts.
//
// Each worker owns some shards of the structure index. A shard holds an RDKit SubstructLibrary
// (trusted canonical SMILES + pattern fingerprints: RDKit's own screen-then-match in C++) and, in
// SharedArrayBuffers written by the main thread, the Morgan fingerprints sorted by bit count for
// Tanimoto search with popcount bounds. Jobs are processed one shard at a time, next the job that
// has used the least time so far, so a long search never shuts out a short one (a short one
// finishes almost as if alone) and can be cancelled between shards.
import { parentPort, workerData } from 'node:worker_threads';
import initRDKitModule from '@rdkit/rdkit';
import { FP_BYTES, MORGAN_SETTINGS } from './fingerprint.mjs';

// What this worker is running, for the engine's watchdog (rdkit-engine.ts): [kind, id] as Int32
// (kind 0 idle, 1 request, 2 job step) and the start time (Date.now()) as Float64 at byte 8.
const HEARTBEAT = workerData?.heartbeat ? new Int32Array(workerData.heartbeat, 0, 2) : null;
const STARTED = workerData?.heartbeat ? new Float64Array(workerData.heartbeat, 8, 1) : null;
/** Test-only messages (engine option testHooks; never reachable over HTTP). */
const TEST_HOOKS = workerData?.testHooks === true;
const BUSY_REQUEST = 1; // worker-protocol.ts BUSY_REQUEST
const BUSY_STEP = 2; // worker-protocol.ts BUSY_STEP

function busy(kind, id) {
  if (!HEARTBEAT) return;
  STARTED[0] = Date.now();
  Atomics.store(HEARTBEAT, 1, id);
  Atomics.store(HEARTBEAT, 0, kind);
}

function idle() {
  if (HEARTBEAT) Atomics.store(HEARTBEAT, 0, 0);
}

/**
 * A trap (WebAssembly.RuntimeError: out-of-bounds access, null function, unreachable), a stack
 * overflow, a C++ exception that escaped the bindings or an abort leaves RDKit's memory in an
 * unknown state: nothing more may run in this module. An ordinary JavaScript error does not.
 */
function isTrap(error) {
  if (error instanceof WebAssembly.RuntimeError) return true;
  if (typeof WebAssembly.Exception === 'function' && error instanceof WebAssembly.Exception) return true;
  if (error instanceof RangeError && /call stack/i.test(error.message)) return true;
  const text = String(error?.message ?? error);
  return /\bAborted\(|\babort\(|RuntimeError|memory access out of bounds|table index is out of bounds|function signature mismatch|unreachable/i.test(text);
}

/** Set once a trap was seen: the worker answers nothing more and ends itself. */
let broken = false;

/** Reports the trap and the request or job that caused it, then ends the thread; the engine replaces it. */
function die(culprit, error) {
  broken = true;
  jobs.length = 0;
  parentPort.postMessage({ type: 'trap', ...culprit, error: String(error?.message ?? error).slice(0, 300) });
  // After the message is on its way: process.exit in a worker ends only this thread.
  setImmediate(() => process.exit(70));
}

const RD = await initRDKitModule();
RD.disable_logging();
// Parse errors are captured and sent back as the message a chemist sees.
const LOG = RD.set_log_capture('rdApp.*');


/** Bits set in each byte value. */
const POP8 = new Uint8Array(256);
for (let i = 1; i < 256; i++) POP8[i] = (i & 1) + POP8[i >> 1];

/** shardId → shard. */
const shards = new Map();
/** Active jobs, served one shard at a time, least time used first. */
const jobs = [];
let ticking = false;

// ------------------------------------------------------------------ fingerprints

/**
 * RDKit's ExplicitBitVect pickle (what SubstructLibrary takes) from raw fingerprint bytes: a
 * header (version -32, size, on-bit count), then the runs of zeroes before each on bit and after
 * the last one, as RDKit's packed integers (< 128: n << 1; else ((n - 128) << 2) | 1, two bytes).
 * Wrong pickles would screen out true hits: the parity tests compare every hit set with RDKit.
 */
function ebvPickle(bytes, offset, length) {
  const nbits = length * 8;
  const out = new Uint8Array(12 + 2 * (nbits + 1));
  let at = 12;
  let on = 0;
  let prev = -1;
  const put = (gap) => {
    if (gap < 128) out[at++] = gap << 1;
    else {
      const v = ((gap - 128) << 2) | 1;
      out[at++] = v & 255;
      out[at++] = (v >> 8) & 255;
    }
  };
  for (let b = 0; b < length; b++) {
    let byte = bytes[offset + b];
    while (byte) {
      const bit = 31 - Math.clz32(byte & -byte);
      byte &= byte - 1;
      const index = b * 8 + bit;
      put(index - prev - 1);
      prev = index;
      on++;
    }
  }
  put(nbits - prev - 1);
  const view = new DataView(out.buffer);
  view.setInt32(0, -32, true);
  view.setUint32(4, nbits, true);
  view.setUint32(8, on, true);
  return out.subarray(0, at);
}

// ------------------------------------------------------------------ query parsing

function captured() {
  const text = LOG.get_buffer();
  LOG.clear_buffer();
  // Drop RDKit's "[hh:mm:ss] " prefixes and repeated lines.
  const lines = [...new Set(text.split('\n').map((l) => l.replace(/^\[\d\d:\d\d:\d\d\]\s?/, '').trimEnd()).filter(Boolean))];
  return lines.join('\n');
}

/** The largest fragment by heavy atoms: counter-ions and solvents are dropped ("desalted"). */
function largestFragment(mol) {
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
function queryMol(query, maxAtoms = 0) {
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

function describe(query, maxAtoms) {
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
    }
    return result;
  } finally {
    mol.delete();
  }
}

// ------------------------------------------------------------------ shards

function addShard(message) {
  const { shardId, count, smiles } = message;
  const pattern = message.pattern;
  const lib = new RD.SubstructLibrary();
  // Library index → row index (rows whose SMILES RDKit refuses are left out of substructure search).
  const libRows = new Int32Array(count);
  let size = 0;
  for (let i = 0; i < count; i++) {
    // Empty: a stored SMILES over the stored-structure limits (index-loader.ts), left out.
    if (!smiles[i]) continue;
    try {
      const hasPattern = pattern && message.hasPattern[i];
      const index = hasPattern ? lib.add_trusted_smiles_and_pattern_fp(smiles[i], ebvPickle(pattern, i * FP_BYTES, FP_BYTES)) : lib.add_trusted_smiles(smiles[i]);
      if (index >= 0) libRows[size++] = i;
    } catch (error) {
      if (isTrap(error)) throw error;
      // An unreadable stored SMILES: this one structure is not searchable by substructure.
    }
  }
  shards.set(shardId, {
    lib,
    libRows: libRows.subarray(0, size),
    ids: message.ids,
    pop: message.pop,
    morgan: message.morgan,
    count,
  });
  return size;
}

function dropShards() {
  for (const shard of shards.values()) shard.lib.delete();
  shards.clear();
}

// ------------------------------------------------------------------ jobs

function substructureStep(job, shard) {
  const max = job.limit > 0 ? Math.max(1, job.limit - job.found) : shard.libRows.length || 1;
  const matches = shard.lib.get_matches_as_uint32array(job.qmol, false, 1, max);
  const ids = new Float64Array(matches.length);
  for (let i = 0; i < matches.length; i++) ids[i] = shard.ids[shard.libRows[matches[i]]];
  job.found += ids.length;
  return { ids };
}

function lowerBound(pop, value, from, to) {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (pop[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Tanimoto over the rows whose bit count can reach the threshold, reading only the query's
 * non-zero bytes through per-byte tables (popcount(x & q) for each x), and leaving a row as soon as
 * the bits still to come cannot lift it to the threshold.
 */
function similarityStep(job, shard) {
  const { qIndex, table, rest, qPop, min, max } = job;
  const from = lowerBound(shard.pop, job.popLo, 0, shard.count);
  const to = lowerBound(shard.pop, job.popHi + 1, from, shard.count);
  const ids = [];
  const sims = [];
  const fp = shard.morgan;
  const n = qIndex.length;
  // common / (qPop + pop - common) >= min  <=>  common >= min * (qPop + pop) / (1 + min)
  const ratio = min / (1 + min);
  for (let row = from; row < to; row++) {
    const pop = shard.pop[row];
    // No stored Morgan fingerprint (bit count 0): such a structure is never similar to anything.
    if (pop === 0) continue;
    const need = ratio * (qPop + pop) - 1e-9;
    const base = row * FP_BYTES;
    let common = 0;
    let k = 0;
    for (; k < n; k++) {
      common += table[(k << 8) | fp[base + qIndex[k]]];
      if (common + rest[k + 1] < need) break;
    }
    if (k < n) continue;
    const union = qPop + pop - common;
    const sim = union === 0 ? 1 : common / union;
    if (sim >= min && sim <= max) {
      ids.push(shard.ids[row]);
      sims.push(sim);
    }
  }
  return { ids: Float64Array.from(ids), sims: Float64Array.from(sims) };
}

/** Per query byte k (in reading order): table[k * 256 + x] = popcount(x & q[k]); rest[k] = bits of the query from byte k on. */
function similarityTables(q) {
  const index = [];
  for (let i = 0; i < q.length; i++) if (q[i]) index.push(i);
  // Bytes with the most query bits first: a dissimilar row loses enough bits to be left sooner.
  index.sort((a, b) => POP8[q[b]] - POP8[q[a]] || a - b);
  const table = new Uint8Array(index.length * 256);
  const rest = new Int32Array(index.length + 1);
  index.forEach((at, k) => {
    for (let x = 0; x < 256; x++) table[k * 256 + x] = POP8[x & q[at]];
  });
  for (let k = index.length - 1; k >= 0; k--) rest[k] = rest[k + 1] + POP8[q[index[k]]];
  return { qIndex: Int32Array.from(index), table, rest, qPop: rest[0] };
}

function startJob(message) {
  // A job re-queued after a worker was replaced runs only the shards it had not searched.
  const shardIds = message.shardIds ?? [...shards.keys()];
  const job = { id: message.jobId, type: message.type, shardIds, next: 0, found: 0, limit: message.limit ?? 0, usedMs: 0, missing: 0, test: TEST_HOOKS ? message.test : undefined };
  if (message.type === 'substructure') {
    const built = queryMol(message.query, message.maxAtoms ?? 0);
    if (built.error) {
      parentPort.postMessage({ type: 'failed', jobId: job.id, error: built.error });
      return;
    }
    job.qmol = built.mol;
  } else {
    Object.assign(job, similarityTables(message.morgan), { min: message.min, max: message.max });
    const pop = job.qPop;
    // Tanimoto ≤ min(a, b) / max(a, b): rows outside this bit-count window cannot reach `min`.
    job.popLo = message.min > 0 ? Math.ceil(message.min * pop - 1e-9) : 0;
    job.popHi = message.min > 0 ? Math.floor(pop / message.min + 1e-9) : FP_BYTES * 8;
  }
  jobs.push(job);
  schedule();
}

function finish(job, extra = {}) {
  const at = jobs.indexOf(job);
  if (at >= 0) jobs.splice(at, 1);
  job.qmol?.delete();
  job.qmol = null;
  parentPort.postMessage({ type: 'done', jobId: job.id, ...extra });
}

function tick() {
  ticking = false;
  if (broken || jobs.length === 0) return;
  let job = jobs[0];
  for (const candidate of jobs) if (candidate.usedMs < job.usedMs) job = candidate;
  const shardId = job.shardIds[job.next++];
  const shard = shards.get(shardId);
  const started = performance.now();
  // A shard dropped by a rebuild while this job ran: the answer is then not complete.
  if (!shard) job.missing += 1;
  if (shard) {
    busy(BUSY_STEP, job.id);
    try {
      if (job.test === 'trap') throw new WebAssembly.RuntimeError('test hook: trap in a search step');
      if (job.test === 'spin') spin();
      const part = job.type === 'substructure' ? substructureStep(job, shard) : similarityStep(job, shard);
      const transfer = [part.ids.buffer];
      if (part.sims) transfer.push(part.sims.buffer);
      parentPort.postMessage({ type: 'hits', jobId: job.id, shardId, searched: shard.count, ...part }, transfer);
    } catch (error) {
      idle();
      if (isTrap(error)) return die({ jobId: job.id }, error);
      finish(job, { error: String(error?.message ?? error) });
      schedule();
      return;
    }
    idle();
  }
  job.usedMs += performance.now() - started;
  const limitReached = job.limit > 0 && job.found >= job.limit;
  const allSearched = job.next >= job.shardIds.length;
  if (allSearched || limitReached) finish(job, { complete: allSearched && !limitReached && job.missing === 0 });
  schedule();
}

/** Next shard after pending messages (cancels, short requests) have been handled. */
function schedule() {
  if (ticking || jobs.length === 0) return;
  ticking = true;
  setImmediate(tick);
}

// ------------------------------------------------------------------ depictions

function highlightOf(mol, highlight) {
  if (!highlight) return null;
  const q = highlight.kind === 'smarts' ? RD.get_qmol(highlight.text) : RD.get_mol(highlight.text);
  if (!q) return null;
  try {
    const matches = JSON.parse(mol.get_substruct_matches(q));
    const atoms = new Set();
    const bonds = new Set();
    for (const match of Array.isArray(matches) ? matches : [matches]) {
      for (const a of match.atoms ?? []) atoms.add(a);
      for (const b of match.bonds ?? []) bonds.add(b);
    }
    return atoms.size ? { atoms: [...atoms], bonds: [...bonds] } : null;
  } finally {
    q.delete();
  }
}

function depict(message) {
  LOG.clear_buffer();
  const mol = message.kind === 'smarts' ? RD.get_qmol(message.text) : RD.get_mol(message.text);
  if (!mol || !mol.is_valid()) {
    mol?.delete();
    return { ok: false, error: captured() || 'RDKit could not read it' };
  }
  if (message.maxAtoms > 0 && mol.get_num_atoms() > message.maxAtoms) {
    const atoms = mol.get_num_atoms();
    mol.delete();
    return { ok: false, error: 'too many atoms', tooManyAtoms: atoms };
  }
  try {
    const details = { width: message.width, height: message.height, clearBackground: false, addStereoAnnotation: true };
    const marks = highlightOf(mol, message.highlight);
    if (marks) Object.assign(details, marks, { highlightColour: [1, 0.55, 0.1] });
    return { ok: true, svg: mol.get_svg_with_highlights(JSON.stringify(details)) };
  } finally {
    mol.delete();
  }
}

// ------------------------------------------------------------------ molblocks (SDF export)

/** V2000 molblocks; MinimalLib lays out 2D coordinates when the molecule has none. */
function molblocks(message) {
  LOG.clear_buffer();
  const blocks = message.smiles.map((smiles) => {
    const mol = smiles ? RD.get_mol(smiles) : null;
    if (!mol) return null;
    try {
      return mol.is_valid() ? mol.get_molblock() : null;
    } finally {
      mol.delete();
    }
  });
  return { ok: true, blocks };
}

// ------------------------------------------------------------------ messages

/**
 * Requests answer; an ordinary exception becomes an error reply. A trap ends the worker (die):
 * its reply names the culprit, the engine answers the others elsewhere.
 */
parentPort.on('message', (message) => {
  if (broken) return;
  const culprit = message.requestId !== undefined ? { requestId: message.requestId } : message.jobId !== undefined ? { jobId: message.jobId } : {};
  if (message.requestId !== undefined) busy(BUSY_REQUEST, message.requestId);
  // Starting a job parses its query: that counts as one of its steps.
  else if (message.type === 'substructure' || message.type === 'similarity') busy(BUSY_STEP, message.jobId);
  try {
    handle(message);
  } catch (error) {
    if (isTrap(error)) return die(culprit, error);
    const text = `RDKit failed: ${String(error?.message ?? error)}`;
    if (message.requestId !== undefined) parentPort.postMessage({ type: 'reply', requestId: message.requestId, result: { ok: false, error: text, internal: true } });
    else if (message.jobId !== undefined) parentPort.postMessage({ type: 'done', jobId: message.jobId, error: text });
  } finally {
    if (!broken) idle();
  }
});

/** Test hook: busy for a while, as an RDKit call that does not return would be. */
function spin() {
  const until = Date.now() + 600_000;
  while (Date.now() < until) {
    // The watchdog terminates the thread long before.
  }
}

function handle(message) {
  switch (message.type) {
    case 'addShard': {
      const added = addShard(message);
      parentPort.postMessage({ type: 'reply', requestId: message.requestId, result: { added } });
      break;
    }
    case 'dropShards':
      dropShards();
      parentPort.postMessage({ type: 'reply', requestId: message.requestId, result: {} });
      break;
    case 'substructure':
    case 'similarity':
      startJob(message);
      break;
    case 'cancel': {
      const job = jobs.find((j) => j.id === message.jobId);
      if (job) finish(job, { cancelled: true });
      break;
    }
    case 'describe':
      parentPort.postMessage({ type: 'reply', requestId: message.requestId, result: describe(message.query, message.maxAtoms ?? 0) });
      break;
    case 'molblocks':
      parentPort.postMessage({ type: 'reply', requestId: message.requestId, result: molblocks(message) });
      break;
    case 'depict':
      parentPort.postMessage({ type: 'reply', requestId: message.requestId, result: depict(message) });
      break;
    case 'test':
      if (!TEST_HOOKS) throw new Error('test hooks are off');
      if (message.mode === 'trap') throw new WebAssembly.RuntimeError('test hook: trap in a request');
      spin();
      break;
    default:
      parentPort.postMessage({ type: 'reply', requestId: message.requestId, result: { ok: false, error: `unknown message ${message.type}`, internal: true } });
  }
}

parentPort.postMessage({ type: 'ready' });
