// Search jobs: served a few milliseconds of shards at a time, next the job that has used the least
// time so far (a long search never shuts out a short one), reported and cancelled between slices.
import { parentPort } from 'node:worker_threads';
import { BUSY_STEP, TEST_HOOKS, broken, busy, die, idle, isTrap, jobs, shards, spin } from './runtime.mjs';
import { bestOf, nextNearestPass, similarityStep } from './similarity.mjs';
import { substructureQuery, substructureStep } from './substructure.mjs';
import { scheduleWarm, subsumingFragments } from './warm-fragments.mjs';

let ticking = false;

export function startJob(message) {
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

export function finish(job, extra = {}) {
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
