// RDKit MinimalLib worker of the chemistry engine (see chem-engine.ts and README.md): the
// dispatcher. Each kind of work is a module of worker/: runtime.mjs (RDKit, heartbeat, traps, shared
// state), query.mjs, shards.mjs, substructure.mjs, similarity.mjs, known-answers.mjs,
// warm-fragments.mjs and jobs.mjs (searches), depict.mjs, and for SAR sar-molecules.mjs, rgroups.mjs,
// scaffolds.mjs, pair-differences.mjs and mmpa.mjs.
// Plain JavaScript: a worker thread starts without the tsx/vitest transforms, and a TypeScript
// worker (Node's own type stripping) was measured slower to start (README.md "Why the worker is
// JavaScript"). Message shapes are typed in worker-protocol.ts.
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
import { parentPort } from 'node:worker_threads';
import { depict, molblocks } from './worker/depict.mjs';
import { finish, startJob } from './worker/jobs.mjs';
import { fragments } from './worker/mmpa.mjs';
import { pairDifferences } from './worker/pair-differences.mjs';
import { describe } from './worker/query.mjs';
import { rgdAdd, rgdChunk, rgdCore, rgdDrop, rgdFinish, rgdLabel, rgdStart } from './worker/rgroups.mjs';
import { BUSY_REQUEST, BUSY_STEP, TEST_HOOKS, broken, busy, die, idle, isTrap, jobs, spin } from './worker/runtime.mjs';
import { contains, zip } from './worker/sar-molecules.mjs';
import { mcs, scaffolds } from './worker/scaffolds.mjs';
import { addShard, dropShards } from './worker/shards.mjs';
import { allowWarming, scheduleWarm } from './worker/warm-fragments.mjs';

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
      allowWarming();
      break;
    case 'cancel': {
      const job = jobs.find((j) => j.id === message.jobId);
      if (job) finish(job, { cancelled: true });
      break;
    }
    case 'describe':
      parentPort.postMessage({
        type: 'reply',
        requestId: message.requestId,
        result: describe(message.query, message.maxAtoms ?? 0, message.inchi === true),
      });
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
