// The frequent fragments' answers, computed for every shard while the worker is idle (known-answers.mjs
// keeps them); a molecule query inside one of them takes its rows as hits.
import { parentPort } from 'node:worker_threads';
import { fragmentKeys } from './known-answers.mjs';
import { BUSY_STEP, WARM_FRAGMENTS, WARM_JOB_ID, broken, busy, die, idle, isTrap, jobs, shards } from './runtime.mjs';
import { matcher, utf8 } from './scratch.mjs';
import { substructureQuery, substructureStep } from './substructure.mjs';
import { SmilesGraph } from '../smiles-graph.mjs';

/** The commonest fragments of real queries (issue 39): benzene, pyridine, amide, carboxylic acid or ester. */
const FREQUENT_FRAGMENTS = ['c1ccccc1', 'c1ccncc1', 'NC=O', 'OC=O'];

/** [{ key, graph (as a stored structure), job (to compute its answers) }], built on first use. */
let frequent = null;

let warming = false;

/** Set by the engine once its index is in (warming during a load would delay the shard builds). */
let warmAllowed = false;

/** Whether every shard holds the fragments' answers (reported to the engine when it changes). */
let warmReported = false;

/** The fragments of which an exact molecule query is a substructure. */
export function subsumingFragments(jsQuery) {
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
    fragmentKeys.add(compiled.key);
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

export function scheduleWarm() {
  if (!WARM_FRAGMENTS || !warmAllowed || warming || jobs.length > 0) return;
  warming = true;
  setImmediate(warm);
}

/** The engine's index is in: warm while idle from now on. */
export function allowWarming() {
  warmAllowed = true;
  scheduleWarm();
}

/** The shards are dropped for a rebuild: no warming until the engine says its load is in. */
export function stopWarming() {
  warmAllowed = false;
  warmReported = false;
}
