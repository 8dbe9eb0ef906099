// Similarity search steps: Tanimoto windows over a shard's Morgan bit arrays, and the k nearest.
import { shards } from './runtime.mjs';
import { lowerBound, similarRows } from '../similarity-slices.mjs';

function isCandidate(job, id) {
  const at = lowerBound(job.candidates, id, 0, job.candidates.length);
  return at < job.candidates.length && job.candidates[at] === id;
}

/**
 * The shard's rows with a Tanimoto to the query in [min, max] (similarity-slices.mjs); a search for
 * the k nearest narrows that range as it goes (nearestFrom).
 */
export function similarityStep(job, shard) {
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
export function nextNearestPass(job) {
  const near = job.near;
  if (!near || near.pass === 2 || near.guess <= job.min || near.reached >= near.best.k) return;
  near.pass = 2;
  job.next = 1;
}

/** The k best values seen, as a min-heap (values[0] is the k-th best once it is full). */
export function bestOf(k) {
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
