// Kept answers: exact per-shard answers of the last queries and of the frequent fragments.
import { workerData } from 'node:worker_threads';
import { shards } from './runtime.mjs';
import { candidateRowsOut, screenAcc } from './scratch.mjs';
import { rowsOf } from '../substructure-screen.mjs';

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

const recentKeys = new Map();
/** The frequent fragments' keys (warm-fragments.mjs): their answers are kept whatever the recent queries. */
export const fragmentKeys = new Set();

/**
 * The key of a query whose answer depends on nothing else: a SMARTS by its text; a molecule query
 * decided here by RDKit's canonical SMILES (the query matched is read from it). Else null.
 */
export function knownKeyOf(query, mol, jsQuery) {
  if (query.kind === 'smarts') return `smarts:${query.text}`;
  if (query.kind === 'smiles' && jsQuery?.exact) return `smiles:${mol.get_smiles()}`;
  return null;
}

export function useKey(key) {
  if (!recentKeys.has(key)) return;
  recentKeys.delete(key);
  recentKeys.set(key, true);
}

export function remember(key, shard, rows) {
  if (!fragmentKeys.has(key)) {
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
export function knownStep(job, shard, known, within) {
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
export function sureRows(job, shard) {
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
