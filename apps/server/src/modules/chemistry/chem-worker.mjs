// RDKit MinimalLib worker of the chemistry engine (see chem-engine.ts and README.md).
// Plain JavaScript on purpose: a worker thread starts without tsx/vitest transforms, so a .ts file
// would not load here. Message shapes are typed in worker-protocol.ts.
//
// Each worker owns some shards of the structure index. A shard holds its stored SMILES, its
// substructure screen (the pattern fingerprints bit by bit: substructure-screen.mjs) and, in
// SharedArrayBuffers written by the main thread, the Morgan fingerprints bit by bit, rows sorted by
// bit count, for Tanimoto search with bit-count bounds (similarity-slices.mjs). A substructure
// candidate is matched here when the query is a molecule (smiles-graph.mjs, substructure-match.mjs:
// RDKit's rules, a few µs) and by RDKit otherwise (SMARTS, molfiles: verifyWithRdkit). Jobs are
// processed a few milliseconds of shards at a time, next the job that has used the least time so
// far, so a long search never shuts out a short one (a short one finishes almost as if alone) and
// can be cancelled between slices.
import fs from 'node:fs';
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import initRDKitModule from '@rdkit/rdkit';
import { MORGAN_SETTINGS } from './fingerprint.mjs';
import { bitCounts, bitsOf, sliceWords } from './bit-slices.mjs';
import { lowerBound, similarRows } from './similarity-slices.mjs';
import { withRingPerception } from './smarts-rings.mjs';
import { SmilesGraph } from './smiles-graph.mjs';
import { buildScreen, rowsOf, screenRows } from './substructure-screen.mjs';
import { smartsOutlineOf } from './smarts-outline.mjs';
import { Matcher, moleculeQueryOf } from './substructure-match.mjs';

// What this worker is running, for the engine's watchdog (rdkit-engine.ts): [kind, id] as Int32
// (kind 0 idle, 1 request, 2 job step) and the start time (Date.now()) as Float64 at byte 8.
const HEARTBEAT = workerData?.heartbeat ? new Int32Array(workerData.heartbeat, 0, 2) : null;
const STARTED = workerData?.heartbeat ? new Float64Array(workerData.heartbeat, 8, 1) : null;
/** Test-only messages (engine option testHooks; never reachable over HTTP). */
const TEST_HOOKS = workerData?.testHooks === true;
/** Compute the frequent fragments' answers while idle (the engine's workers; not measure-limits.ts). */
const WARM_FRAGMENTS = workerData?.warmFragments === true;
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
  return /\bAborted\(|\babort\(|RuntimeError|memory access out of bounds|table index is out of bounds|function signature mismatch|unreachable/i.test(
    text,
  );
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

/**
 * RDKit instantiated from the module the engine compiled once for every worker (wasm-compile.ts
 * `compiledRdkit`), which it sends as its first message; without one, compiled here.
 */
async function rdkitOptions() {
  if (workerData?.sharedRdkit !== true) return undefined;
  const message = await new Promise((resolve) => parentPort.once('message', resolve));
  const module = message?.type === 'rdkit' ? message.module : null;
  if (!module) return undefined;
  return {
    instantiateWasm(imports, receive) {
      WebAssembly.instantiate(module, imports).then(receive, (error) => {
        // Nothing can run without RDKit: the engine sees the worker fail to start and reports it.
        setImmediate(() => {
          throw error;
        });
      });
      return {};
    },
  };
}

/**
 * Runs this thread at a higher nice value: when requests (a login, a page, the database) and
 * searches wait for the CPU together, the requests go first. Linux sets nice per thread; the
 * thread's id is the last part of /proc/thread-self. Elsewhere, or when refused, nothing changes.
 */
function lowerPriority(nice) {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, nice);
  } catch {
    // Not Linux, or not allowed: the thread keeps the process's priority.
  }
}
if (workerData?.nice > 0) lowerPriority(workerData.nice);

const RD = await initRDKitModule(await rdkitOptions());
RD.disable_logging();
// Parse errors are captured and sent back as the message a chemist sees.
const LOG = RD.set_log_capture('rdApp.*');

/** shardId → shard. */
const shards = new Map();
/** Active jobs, served one shard at a time, least time used first. */
const jobs = [];
let ticking = false;

// ------------------------------------------------------------------ query parsing

function captured() {
  const text = LOG.get_buffer();
  LOG.clear_buffer();
  // Drop RDKit's "[hh:mm:ss] " prefixes and repeated lines.
  const lines = [
    ...new Set(
      text
        .split('\n')
        .map((l) => l.replace(/^\[\d\d:\d\d:\d\d\]\s?/, '').trimEnd())
        .filter(Boolean),
    ),
  ];
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

const utf8 = new TextEncoder();

/**
 * A shard: its stored SMILES as UTF-8 in one buffer (row r from smilesAt[r] to smilesAt[r + 1];
 * empty: over the stored-structure limits, index-loader.ts, and not searched by substructure),
 * its substructure screen (substructure-screen.mjs) and, shared with the main thread, the Morgan
 * fingerprints for similarity. RDKit holds nothing of it: a candidate is read and matched here
 * (smiles-graph.mjs, substructure-match.mjs) or handed to RDKit with others (verifyWithRdkit).
 */
function addShard(message) {
  const { shardId, count, smiles } = message;
  const encoded = smiles.map((text) => (text ? utf8.encode(text) : null));
  const smilesAt = new Int32Array(count + 1);
  for (let i = 0; i < count; i++) smilesAt[i + 1] = smilesAt[i] + (encoded[i]?.length ?? 0);
  const smilesBytes = new Uint8Array(smilesAt[count]);
  encoded.forEach((bytes, i) => bytes && smilesBytes.set(bytes, smilesAt[i]));
  const hasPattern = message.pattern ? message.hasPattern : new Uint8Array(count);
  const screen = buildScreen(count, message.pattern ?? new Uint8Array(0), hasPattern, (row) => smilesAt[row + 1] > smilesAt[row]);
  // Morgan bit arrays shared with the main thread; how many rows hold each bit is this worker's.
  const words = sliceWords(count);
  const morgan = { count, pop: message.pop, slices: message.morgan, words, bitCount: bitCounts(message.morgan, words) };
  shards.set(shardId, { smilesBytes, smilesAt, screen, ids: message.ids, pop: message.pop, morgan, count });
  let size = 0;
  for (let i = 0; i < count; i++) if (smilesAt[i + 1] > smilesAt[i]) size++;
  return size;
}

function dropShards() {
  shards.clear();
  // A rebuild follows: warming waits until the engine says its load is in.
  warmAllowed = false;
  warmReported = false;
}

// ------------------------------------------------------------------ jobs

/** Scratch for the screen and the candidates (sized for the largest shard seen). */
let screenAcc = new Uint32Array(0);
let withinRows = new Uint32Array(0);
let candidateRowsOut = new Int32Array(0);
const graph = new SmilesGraph(1024, 2048);
const matcher = new Matcher(1024);

function scratch(shard) {
  const { words } = shard.screen;
  if (screenAcc.length < words) {
    screenAcc = new Uint32Array(words);
    withinRows = new Uint32Array(words);
  }
  if (candidateRowsOut.length < shard.count) candidateRowsOut = new Int32Array(shard.count);
}

/**
 * One shard of a substructure search: the screen's candidates, each decided here where RDKit's
 * rules allow, the rest matched by RDKit. Hits in row order. With a limit (a first page), the
 * rows are read until enough hits are decided here, and RDKit matches only the undecided rows met
 * so far: the hits are true hits, not necessarily the shard's first rows.
 */
function substructureStep(job, shard) {
  scratch(shard);
  const within = job.candidates ? candidateMask(job, shard) : null;
  if (within === false) return noHits();
  const known = job.key ? shard.known?.get(job.key) : undefined;
  if (known) {
    useKey(job.key);
    return knownStep(job, shard, known, within);
  }
  if (!screenRows(shard.screen, job.screenBits, screenAcc, within)) {
    // No candidate: the shard's whole answer is empty (kept too, or a fragment would be warmed forever).
    if (job.key && job.limit === 0 && !within) remember(job.key, shard, []);
    return noHits();
  }
  const n = rowsOf(screenAcc, shard.screen.words, candidateRowsOut);
  const wanted = job.limit > 0 ? Math.max(1, job.limit - job.found) : Infinity;
  const sure = sureRows(job, shard);
  const hits = [];
  const toRdkit = [];
  const { smilesBytes, smilesAt } = shard;
  const query = job.jsQuery;
  for (let i = 0; i < n && hits.length < wanted; i++) {
    const row = candidateRowsOut[i];
    if (sure && (sure[row >> 5] >>> (row & 31)) & 1) hits.push(row);
    else if (query && graph.read(smilesBytes, smilesAt[row], smilesAt[row + 1])) {
      // True or false: RDKit's answer; null (a SMARTS that may match): RDKit's to give.
      const answer = matcher.decide(query, graph);
      if (answer === true) hits.push(row);
      else if (answer === null) toRdkit.push(row);
    } else toRdkit.push(row);
  }
  if (toRdkit.length > 0 && hits.length < wanted) {
    for (const row of verifyWithRdkit(job, shard, toRdkit, Math.min(wanted - hits.length, toRdkit.length))) hits.push(row);
    hits.sort((a, b) => a - b);
  }
  // Every candidate decided, none left out: this is the shard's whole answer to the query.
  if (job.key && wanted === Infinity && !within) remember(job.key, shard, hits);
  const ids = Float64Array.from(hits, (row) => shard.ids[row]);
  job.found += ids.length;
  return { ids, candidates: n, byRdkit: toRdkit.length };
}

// ------------------------------------------------------------------ known answers

// Exact answers kept per shard, as a bit array of its hit rows: those of the last queries asked
// (a query asked again is answered without matching: twenty chemists of one company search the
// same scaffolds), and those of a few fragments found in most structures, computed for every shard
// while the worker has nothing else to do. A molecule query that is itself a substructure of such a
// fragment (`C=O`, `CN` in an amide) takes every structure holding the fragment as a hit without
// matching it: a molecule query's atoms and bonds match by equality (atomic number, bond type; a
// charge or isotope only where the query sets one), so a match of Q in F and of F in T is one of Q
// in T. The generic queries that took seconds (benzene: 93 % of the structures) then take
// milliseconds (docs/benchmarks.md, issue 39).
/** Recent queries whose answers are kept, besides the fragments (≈ 1 KB a shard each: 0.3 MB at L). */
const KNOWN_RECENT = workerData?.keepRecentAnswers === false ? 0 : 32;
/** The commonest fragments of real queries (issue 39): benzene, pyridine, amide, carboxylic acid or ester. */
const FREQUENT_FRAGMENTS = ['c1ccccc1', 'c1ccncc1', 'NC=O', 'OC=O'];
const recentKeys = new Map();
/** The job id of warm steps in the heartbeat and a trap report: the engine then stops asking for them. */
const WARM_JOB_ID = -1; // worker-protocol.ts WARM_JOB_ID
/** [{ key, graph (as a stored structure), job (to compute its answers) }], built on first use. */
let frequent = null;
let warming = false;
/** Set by the engine once its index is in (warming during a load would delay the shard builds). */
let warmAllowed = false;
/** Whether every shard holds the fragments' answers (reported to the engine when it changes). */
let warmReported = false;

/**
 * The key of a query whose answer depends on nothing else: a SMARTS by its text; a molecule query
 * decided here by RDKit's canonical SMILES (the query matched is read from it). Else null.
 */
function knownKeyOf(query, mol, jsQuery) {
  if (query.kind === 'smarts') return `smarts:${query.text}`;
  if (query.kind === 'smiles' && jsQuery?.exact) return `smiles:${mol.get_smiles()}`;
  return null;
}

function useKey(key) {
  if (!recentKeys.has(key)) return;
  recentKeys.delete(key);
  recentKeys.set(key, true);
}

function remember(key, shard, rows) {
  if (!frequent?.some((f) => f.key === key)) {
    if (KNOWN_RECENT === 0) return;
    // The newest key is never the one evicted (KNOWN_RECENT ≥ 1).
    useKey(key);
    recentKeys.set(key, true);
    while (recentKeys.size > KNOWN_RECENT) {
      const oldest = recentKeys.keys().next().value;
      recentKeys.delete(oldest);
      for (const other of shards.values()) other.known?.delete(oldest);
    }
  }
  const bits = new Uint32Array(shard.screen.words);
  for (const row of rows) bits[row >> 5] |= 1 << (row & 31);
  (shard.known ??= new Map()).set(key, bits);
}

/** A shard's kept answer (ANDed with the search's candidates): no screen, no matching. */
function knownStep(job, shard, known, within) {
  const { words } = shard.screen;
  for (let w = 0; w < words; w++) screenAcc[w] = within ? known[w] & within[w] : known[w];
  const n = rowsOf(screenAcc, words, candidateRowsOut);
  const take = job.limit > 0 ? Math.min(n, Math.max(1, job.limit - job.found)) : n;
  const ids = new Float64Array(take);
  for (let i = 0; i < take; i++) ids[i] = shard.ids[candidateRowsOut[i]];
  job.found += take;
  return { ids, candidates: take, byRdkit: 0 };
}

/** Scratch for sureRows (sized for the largest shard seen). */
let sureAcc = new Uint32Array(0);

/** The rows certainly hit because they hold a fragment the query is part of (null: none known). */
function sureRows(job, shard) {
  if (job.subsumed.length === 0 || !shard.known) return null;
  const { words } = shard.screen;
  let any = false;
  for (const key of job.subsumed) {
    const bits = shard.known.get(key);
    if (!bits) continue;
    if (sureAcc.length < words) sureAcc = new Uint32Array(words);
    if (!any) sureAcc.set(bits);
    else for (let w = 0; w < words; w++) sureAcc[w] |= bits[w];
    any = true;
  }
  return any ? sureAcc : null;
}

/** The fragments of which an exact molecule query is a substructure. */
function subsumingFragments(jsQuery) {
  if (!jsQuery?.exact) return [];
  return frequentFragments()
    .filter((f) => matcher.decide(jsQuery, f.graph) === true)
    .map((f) => f.key);
}

function frequentFragments() {
  if (frequent) return frequent;
  frequent = [];
  for (const text of FREQUENT_FRAGMENTS) {
    const compiled = substructureQuery({ kind: 'smiles', text, desalt: false }, 0);
    if (compiled.error) continue;
    // The fragment as a stored structure, to match queries against (subsumingFragments).
    const fragmentGraph = new SmilesGraph(64, 128);
    const bytes = utf8.encode(compiled.qmol.get_smiles());
    if (!compiled.key || !fragmentGraph.read(bytes, 0, bytes.length)) {
      compiled.qmol.delete();
      continue;
    }
    const job = { ...compiled, limit: 0, found: 0, candidates: null, subsumed: [] };
    frequent.push({ key: compiled.key, graph: fragmentGraph, job });
  }
  return frequent;
}

/** The next shard without a fragment's answer, as [fragment, shard], or null. */
function nextToWarm() {
  for (const fragment of frequentFragments()) {
    for (const shard of shards.values()) if (!shard.known?.has(fragment.key)) return [fragment, shard];
  }
  return null;
}

/** One shard's answer to one fragment, when no search is waiting; then the next. */
function warm() {
  warming = false;
  if (broken || jobs.length > 0) return;
  const next = nextToWarm();
  if (!next) {
    if (!warmReported) parentPort.postMessage({ type: 'warmed', shards: shards.size });
    warmReported = true;
    return;
  }
  warmReported = false;
  const [fragment, shard] = next;
  busy(BUSY_STEP, WARM_JOB_ID);
  try {
    fragment.job.found = 0;
    substructureStep(fragment.job, shard);
  } catch (error) {
    idle();
    if (isTrap(error)) return die({ jobId: WARM_JOB_ID }, error);
    // Not kept (false): searches then match this fragment in this shard as any query.
    (shard.known ??= new Map()).set(fragment.key, false);
    scheduleWarm();
    return;
  }
  idle();
  scheduleWarm();
}

function scheduleWarm() {
  if (!WARM_FRAGMENTS || !warmAllowed || warming || jobs.length > 0) return;
  warming = true;
  setImmediate(warm);
}

function noHits() {
  return { ids: new Float64Array(0), candidates: 0, byRdkit: 0 };
}

/**
 * What the worker matches itself: a SMILES query exactly (substructure-match.mjs), else the outline
 * of the SMARTS RDKit reads (smarts-outline.mjs: decides where certain, rules candidates out, RDKit
 * matches the rest); a SMILES query left to RDKit (a radical, a dummy) is outlined from RDKit's
 * SMARTS of it, only to rule structures out. Molfiles
 * may hold query features RDKit's SMARTS cannot write exactly: RDKit matches every candidate.
 */
function jsQueryOf(query, mol) {
  if (query.kind === 'smarts') return smartsOutlineOf(query.text);
  if (query.kind !== 'smiles') return null;
  // RDKit's SMARTS of a molecule leaves out radicals: its outline may only rule structures out.
  return moleculeQueryOf(mol.get_smiles(), mol.get_json(), graph) ?? smartsOutlineOf(mol.get_smarts(), false);
}

/**
 * The pickle of a 1-bit ExplicitBitVect with its bit set. The rows given to RDKit have passed the
 * screen already: a library with 1-bit pattern fingerprints lets every one through to RDKit's own
 * match, and adding a row costs no parse (add_trusted_smiles would parse it twice).
 */
const PASS_ALL_PICKLE = (() => {
  const bytes = new Uint8Array(14);
  const view = new DataView(bytes.buffer);
  view.setInt32(0, -32, true);
  view.setUint32(4, 1, true);
  view.setUint32(8, 1, true);
  return bytes;
})();

/** The rows among `rows` that RDKit's SubstructLibrary matches (its trusted-SMILES reading), at most `max`. */
function verifyWithRdkit(job, shard, rows, max) {
  const lib = new RD.SubstructLibrary(1);
  try {
    const entries = [];
    for (const row of rows) {
      const index = lib.add_trusted_smiles_and_pattern_fp(
        shard.smilesBytes.subarray(shard.smilesAt[row], shard.smilesAt[row + 1]),
        PASS_ALL_PICKLE,
      );
      if (index >= 0) entries[index] = row;
    }
    const matches = lib.get_matches_as_uint32array(job.qmol, false, 1, max);
    return Array.from(matches, (index) => entries[index]);
  } finally {
    lib.delete();
  }
}

/**
 * A shard's rows are in fingerprint bit-count order (the similarity windows), not str_id order:
 * its rows by id, made once when a candidate search first needs them.
 */
function idOrder(shard) {
  if (!shard.sortedIds) {
    const rows = Array.from({ length: shard.count }, (_, row) => row).sort((a, b) => shard.ids[a] - shard.ids[b]);
    shard.sortedIds = Float64Array.from(rows, (row) => shard.ids[row]);
    shard.sortedRows = Int32Array.from(rows);
  }
  return shard;
}

/** The shard's rows among a search's candidates as a bit array (false: none). */
function candidateMask(job, shard) {
  const { candidates } = job;
  if (shard.count === 0) return false;
  const { sortedIds, sortedRows } = idOrder(shard);
  withinRows.fill(0, 0, shard.screen.words);
  let c = lowerBound(candidates, sortedIds[0], 0, candidates.length);
  const end = lowerBound(candidates, sortedIds[shard.count - 1] + 1, c, candidates.length);
  let at = 0;
  let any = false;
  for (; c < end; c++) {
    at = lowerBound(sortedIds, candidates[c], at, shard.count);
    if (at < shard.count && sortedIds[at] === candidates[c]) {
      const row = sortedRows[at];
      withinRows[row >> 5] |= 1 << (row & 31);
      any = true;
    }
  }
  return any ? withinRows : false;
}

function isCandidate(job, id) {
  const at = lowerBound(job.candidates, id, 0, job.candidates.length);
  return at < job.candidates.length && job.candidates[at] === id;
}

/**
 * The shard's rows with a Tanimoto to the query in [min, max] (similarity-slices.mjs); a search for
 * the k nearest narrows that range as it goes (nearestFrom).
 */
function similarityStep(job, shard) {
  const accept = job.candidates ? (row) => isCandidate(job, shard.ids[row]) : null;
  const near = job.near;
  const from = near ? nearestFrom(job) : job.min;
  const to = near?.pass === 2 ? Math.min(job.max, near.guess - SIM_STEP) : job.max;
  const { rows, sims } = similarRows(shard.morgan, job.morgan, from, to, accept);
  if (near) seenNearest(job, shard, sims);
  return { ids: Float64Array.from(rows, (row) => shard.ids[row]), sims: Float64Array.from(sims) };
}

// Two different Tanimoto values c/d (d ≤ 2 × 2,048) differ by at least 1/4,096² ≈ 6e-8: a value just
// below a guess by this much leaves out exactly the rows at the guess.
const SIM_STEP = 1e-9;

/**
 * The k nearest, exactly, reading little. The first shard is read whole from the search's minimum;
 * from its values the worker guesses its own k-th best (the value that the k·rows/total-th best of
 * that shard would be, taken twice as deep for a margin) and reads its other shards from there, or
 * from the k-th best seen so far once that is higher. When fewer than k rows reached the guess,
 * a second pass reads the other shards again strictly below it. What falls below the worker's
 * k-th best cannot be among the k nearest of all (the engine keeps the first k of what arrives).
 */
function nearestFrom(job) {
  const { best, guess } = job.near;
  const kth = best.size === best.k ? best.values[0] : -1;
  return Math.max(job.min, kth, job.near.pass === 1 ? guess : -1);
}

function seenNearest(job, shard, sims) {
  const near = job.near;
  for (const sim of sims) {
    keepBest(near.best, sim);
    if (sim >= near.guess) near.reached++;
  }
  if (near.pass === 1 && job.next === 1 && job.shardIds.length > 1) {
    let rows = 0;
    for (const id of job.shardIds) rows += shards.get(id)?.count ?? 0;
    const deep = Math.ceil((2 * near.best.k * shard.count) / Math.max(1, rows));
    const sorted = Float64Array.from(sims).sort().reverse();
    near.guess = deep >= 1 && deep <= sorted.length ? sorted[deep - 1] : -1;
    near.reached = 0;
    for (const sim of sorted) if (sim >= near.guess) near.reached++;
  }
}

/** After the last shard of a pass: a second pass when the guess proved too high. */
function nextNearestPass(job) {
  const near = job.near;
  if (!near || near.pass === 2 || near.guess <= job.min || near.reached >= near.best.k) return;
  near.pass = 2;
  job.next = 1;
}

/** The k best values seen, as a min-heap (values[0] is the k-th best once it is full). */
function bestOf(k) {
  return { k, size: 0, values: new Float64Array(k) };
}

function keepBest(best, value) {
  const { values } = best;
  if (best.size < best.k) {
    let at = best.size++;
    while (at > 0 && values[(at - 1) >> 1] > value) {
      values[at] = values[(at - 1) >> 1];
      at = (at - 1) >> 1;
    }
    values[at] = value;
    return;
  }
  if (value <= values[0]) return;
  // Replace the smallest and sift it down.
  let at = 0;
  for (;;) {
    const left = 2 * at + 1;
    if (left >= best.k) break;
    const child = left + 1 < best.k && values[left + 1] < values[left] ? left + 1 : left;
    if (values[child] >= value) break;
    values[at] = values[child];
    at = child;
  }
  values[at] = value;
}

/**
 * What a substructure step needs of a query: RDKit's query molecule, its screen bits, what is
 * matched here (jsQueryOf) and the key of its kept answers; or { error }. Matched as written,
 * except that rings are perceived whenever a recursive SMARTS needs them (smarts-rings.mjs).
 */
function substructureQuery(given, maxAtoms) {
  const query = given.kind === 'smarts' ? { ...given, text: withRingPerception(given.text) } : given;
  const built = queryMol(query, maxAtoms);
  if (built.error) return { error: built.error };
  const jsQuery = jsQueryOf(query, built.mol);
  return {
    qmol: built.mol,
    screenBits: bitsOf(new Uint8Array(built.mol.get_pattern_fp_as_uint8array())),
    jsQuery,
    key: knownKeyOf(query, built.mol, jsQuery),
  };
}

function startJob(message) {
  // A job re-queued after a worker was replaced runs only the shards it had not searched.
  const shardIds = message.shardIds ?? [...shards.keys()];
  // A worker without shards (an index smaller than one shard per worker) has searched all of its
  // part: it must not count as a shard missing, or every answer would read as incomplete.
  if (shardIds.length === 0) {
    parentPort.postMessage({ type: 'done', jobId: message.jobId, complete: true });
    return;
  }
  const job = {
    id: message.jobId,
    type: message.type,
    shardIds,
    next: 0,
    found: 0,
    limit: message.limit ?? 0,
    usedMs: 0,
    missing: 0,
    candidates: message.candidates ?? null,
    out: new Map(),
    near: null,
    test: TEST_HOOKS ? message.test : undefined,
  };
  if (message.type === 'substructure') {
    const compiled = substructureQuery(message.query, message.maxAtoms ?? 0);
    if (compiled.error) {
      parentPort.postMessage({ type: 'failed', jobId: job.id, error: compiled.error });
      return;
    }
    Object.assign(job, compiled, { subsumed: subsumingFragments(compiled.jsQuery) });
  } else {
    Object.assign(job, { morgan: message.morgan, min: message.min, max: message.max });
    if (message.nearest > 0) job.near = { best: bestOf(message.nearest), guess: -1, reached: 0, pass: 1 };
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
  // The last job ended (done, cancelled or failed): back to the fragments.
  scheduleWarm();
}

// A tick searches shards of one job for about this long, then reports them in one message and lets
// pending messages (a cancel, a short request) in: a message per shard cost ≈ 50 µs each, most of a
// selective search's time at 300 shards.
const SLICE_MS = 4;

function tick() {
  ticking = false;
  if (broken) return;
  if (jobs.length === 0) return scheduleWarm();
  let job = jobs[0];
  for (const candidate of jobs) if (candidate.usedMs < job.usedMs) job = candidate;
  const started = performance.now();
  busy(BUSY_STEP, job.id);
  try {
    do {
      const shardId = job.shardIds[job.next++];
      const shard = shards.get(shardId);
      // A shard dropped by a rebuild while this job ran: the answer is then not complete.
      if (!shard) job.missing += 1;
      else {
        if (job.test === 'trap') throw new WebAssembly.RuntimeError('test hook: trap in a search step');
        if (job.test === 'spin') spin();
        keep(job, shardId, shard.count, job.type === 'substructure' ? substructureStep(job, shard) : similarityStep(job, shard));
      }
      if (job.next >= job.shardIds.length) nextNearestPass(job);
    } while (job.next < job.shardIds.length && !limitReached(job) && performance.now() - started < SLICE_MS);
  } catch (error) {
    idle();
    if (isTrap(error)) return die({ jobId: job.id }, error);
    finish(job, { error: String(error?.message ?? error) });
    schedule();
    return;
  }
  idle();
  job.usedMs += performance.now() - started;
  const allSearched = job.next >= job.shardIds.length;
  // The k nearest are known only at the end: reported then, so that a worker lost midway leaves
  // every one of its shards to search again.
  if (job.near && allSearched) keepNearest(job);
  if (!job.near || allSearched) report(job);
  if (allSearched || limitReached(job)) finish(job, { complete: allSearched && !limitReached(job) && job.missing === 0 });
  schedule();
}

function limitReached(job) {
  return job.limit > 0 && job.found >= job.limit;
}

/** Only the rows at the worker's k-th best or above are sent: the engine sorts what arrives. */
function keepNearest(job) {
  const { best } = job.near;
  if (best.size < best.k) return;
  const kth = best.values[0];
  for (const kept of job.out.values()) {
    kept.parts = kept.parts.map((part) => {
      const rows = [];
      part.sims.forEach((sim, i) => sim >= kth && rows.push(i));
      return rows.length === part.ids.length
        ? part
        : { ids: Float64Array.from(rows, (i) => part.ids[i]), sims: Float64Array.from(rows, (i) => part.sims[i]) };
    });
  }
}

/** A shard's part, kept until the job reports (a second pass adds to a shard's part). */
function keep(job, shardId, searched, part) {
  const kept = job.out.get(shardId);
  if (!kept) {
    job.out.set(shardId, { searched, parts: [part] });
    return;
  }
  kept.parts.push(part);
}

/** The shards searched since the last report, in one message. */
function report(job) {
  if (job.out.size === 0) return;
  const shardIds = [...job.out.keys()];
  const sizes = [];
  const searched = [];
  let total = 0;
  let candidates = 0;
  let byRdkit = 0;
  for (const kept of job.out.values()) {
    let size = 0;
    for (const part of kept.parts) {
      size += part.ids.length;
      candidates += part.candidates ?? 0;
      byRdkit += part.byRdkit ?? 0;
    }
    sizes.push(size);
    searched.push(kept.searched);
    total += size;
  }
  const ids = new Float64Array(total);
  const sims = job.type === 'similarity' ? new Float64Array(total) : null;
  let at = 0;
  for (const kept of job.out.values()) {
    for (const part of kept.parts) {
      ids.set(part.ids, at);
      sims?.set(part.sims, at);
      at += part.ids.length;
    }
  }
  job.out.clear();
  const message = { type: 'hits', jobId: job.id, shardIds, sizes, searched, ids, ...(sims ? { sims } : { candidates, byRdkit }) };
  parentPort.postMessage(message, sims ? [ids.buffer, sims.buffer] : [ids.buffer]);
}

/** Next shard after pending messages (cancels, short requests) have been handled. */
function schedule() {
  if (ticking || jobs.length === 0) return;
  ticking = true;
  setImmediate(tick);
}

// ------------------------------------------------------------------ depictions

/**
 * Atoms and bonds to colour. mode 'match': those of every match of the highlight query; 'rest':
 * the complement (atoms in no match; bonds in no match, which includes every bond with an atom
 * outside) — the part of the molecule that differs from the query, e.g. from a pair's MCS.
 */
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
    // No match: nothing is coloured in either mode (colouring all of it would claim it all differs).
    if (!atoms.size) return null;
    if (highlight.mode !== 'rest') return { atoms: [...atoms], bonds: [...bonds] };
    const rest = { atoms: [], bonds: [] };
    for (let i = 0; i < mol.get_num_atoms(); i += 1) if (!atoms.has(i)) rest.atoms.push(i);
    for (let i = 0; i < mol.get_num_bonds(); i += 1) if (!bonds.has(i)) rest.bonds.push(i);
    return rest.atoms.length || rest.bonds.length ? rest : null;
  } finally {
    q.delete();
  }
}

function depict(message) {
  LOG.clear_buffer();
  // An MCS (elements and bond orders only) is drawn as the molecule it describes, not as a query of grey atoms.
  const plain = message.kind === 'smarts' && isPlainSmarts(message.text) ? moleculeOfSmarts(message.text) : null;
  const mol = plain ? RD.get_mol(plain) : message.kind === 'smarts' ? RD.get_qmol(message.text) : RD.get_mol(message.text);
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

// ------------------------------------------------------------------ SAR (R-group decomposition, scaffolds, MCS, pairs)

/** An input SMILES (stored, already checked by the engine) as a molecule, desalted; null when unreadable. */
function inputMol(smiles) {
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
function coreMol(core) {
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
function graphOf(mol) {
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

/** Open decompositions of this worker: handle → RDKit RGroupDecomposition (one per SAR table being built). */
const decompositions = new Map();
let nextDecomposition = 1;

function rgdStart(message) {
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
function rgdAdd(message) {
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
function rgdFinish(message) {
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

function rgdDrop(message) {
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
function rgdLabel(message) {
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
function rgdChunk(message) {
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
function rgdCore(message) {
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

function scaffolds(message) {
  return { ok: true, scaffolds: message.smiles.map((s) => murcko(s)) };
}

/** MCS of the molecules (rings match rings; completeRings: only whole rings, so the MCS is a usable core). */
function mcs(message) {
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
 * aromatic ring, a query feature).
 */
function moleculeOfSmarts(smarts) {
  const q = RD.get_qmol(smarts);
  if (!q) return null;
  let text;
  try {
    text = q.get_smiles();
  } finally {
    q.delete();
  }
  if (!text || text.includes('*')) return null;
  return canonical(text);
}

/** A SMARTS written only with elements (`[#6]`, `[#7&R]`, `[#8&!R]`) and bond orders — an MCS — is a molecule. */
const PLAIN_SMARTS_ATOM = /\[#\d{1,3}(?:&!?R)?\]/g;
function isPlainSmarts(smarts) {
  return /^[-=#:@!&()0-9%]*$/.test(smarts.replace(PLAIN_SMARTS_ATOM, ''));
}

// ------------------------------------------------------------------ activity cliffs: what differs in a pair

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
function pairDifferences(message) {
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

function contains(message) {
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

/** Heavy atoms of a fragment's SMILES (the attachment point `[*:1]` and hydrogens not counted). */
function heavyAtoms(smiles) {
  let n = 0;
  for (const token of smiles.match(/\[[^\]]*\]|Br|Cl|[BCNOPSFIbcnops]/g) ?? []) {
    if (token[0] === '[' && /^\[(\*|\d*H[^a-z]|\d*H\])/.test(token)) continue;
    n += 1;
  }
  return n;
}

function canonical(smiles) {
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

function fragments(message) {
  if (message.reference && !TEST_HOOKS) return { ok: false, error: 'test hooks are off', internal: true };
  const cut = message.reference ? fragmentsOfReference : fragmentsOf;
  return { ok: true, cuts: message.smiles.map((s) => cut(s)) };
}

/** The core with its R-groups joined on (molzip), hydrogens made implicit: canonical SMILES. */
function zip(message) {
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

// ------------------------------------------------------------------ messages

/**
 * Requests answer; an ordinary exception becomes an error reply. A trap ends the worker (die):
 * its reply names the culprit, the engine answers the others elsewhere.
 */
parentPort.on('message', (message) => {
  if (broken) return;
  const culprit =
    message.requestId !== undefined ? { requestId: message.requestId } : message.jobId !== undefined ? { jobId: message.jobId } : {};
  if (message.requestId !== undefined) busy(BUSY_REQUEST, message.requestId);
  // Starting a job parses its query: that counts as one of its steps.
  else if (message.type === 'substructure' || message.type === 'similarity') busy(BUSY_STEP, message.jobId);
  try {
    handle(message);
  } catch (error) {
    if (isTrap(error)) return die(culprit, error);
    const text = `RDKit failed: ${String(error?.message ?? error)}`;
    if (message.requestId !== undefined)
      parentPort.postMessage({ type: 'reply', requestId: message.requestId, result: { ok: false, error: text, internal: true } });
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

const SAR_HANDLERS = {
  rgdStart,
  rgdAdd,
  rgdFinish,
  rgdDrop,
  rgdLabel,
  rgdChunk,
  rgdCore,
  scaffolds,
  mcs,
  pairDifferences,
  contains,
  fragments,
  zip,
};

function handle(message) {
  switch (message.type) {
    case 'addShard': {
      const added = addShard(message);
      parentPort.postMessage({ type: 'reply', requestId: message.requestId, result: { added } });
      scheduleWarm();
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
    case 'warmFragments':
      warmAllowed = true;
      scheduleWarm();
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
    case 'rgdStart':
    case 'rgdAdd':
    case 'rgdFinish':
    case 'rgdDrop':
    case 'rgdLabel':
    case 'rgdChunk':
    case 'rgdCore':
    case 'scaffolds':
    case 'mcs':
    case 'pairDifferences':
    case 'contains':
    case 'fragments':
    case 'zip':
      parentPort.postMessage({ type: 'reply', requestId: message.requestId, result: SAR_HANDLERS[message.type](message) });
      break;
    case 'test':
      if (!TEST_HOOKS) throw new Error('test hooks are off');
      if (message.mode === 'trap') throw new WebAssembly.RuntimeError('test hook: trap in a request');
      spin();
      break;
    default:
      parentPort.postMessage({
        type: 'reply',
        requestId: message.requestId,
        result: { ok: false, error: `unknown message ${message.type}`, internal: true },
      });
  }
}

parentPort.postMessage({ type: 'ready' });
