import { ChemInputError, ChemQueryRefused, ChemSearchCancelled } from './chem-engine.ts';
import type { ChemQuery, SearchOptions, StructureHits } from './chem-engine.ts';
import { RESTARTED, TRAP_MESSAGE } from './engine-pool.ts';
import type { EnginePool } from './engine-pool.ts';
import type { Loss, WorkerHandle } from './engine-worker.ts';
import type { StructureIndex } from './structure-index.ts';
import type { FromWorker, ToWorker } from './worker-protocol.ts';

export type JobBody = (
  | { type: 'substructure'; query: ChemQuery; maxAtoms: number }
  | { type: 'similarity'; morgan: Uint8Array; min: number; max: number; nearest?: number }
) & { candidates?: Float64Array };

interface JobState {
  body: JobBody;
  /** Workers still searching their shards for this job. */
  pending: Set<WorkerHandle>;
  /** Worker slots being replaced: the shards this job still has to search there. */
  requeued: Map<number, number[]>;
  /** Shards whose hits arrived. */
  searchedShards: Set<number>;
  /** Workers lost while this job ran on them without a known culprit (twice: the job fails). */
  kills: number;
  allComplete: boolean;
  parts: Float64Array[];
  sims: Float64Array[];
  hits: number;
  searched: number;
  /** Substructure: rows through the screen, and those of them RDKit matched. */
  candidates: number;
  byRdkit: number;
  /** Hits wanted before the workers stop (limit + 1, to know whether there are more). */
  stopAt: number;
  resolve: (complete: boolean) => void;
  reject: (error: Error) => void;
  onProgress?: SearchOptions['onProgress'];
  test?: 'trap' | 'spin';
}

/**
 * Structure searches as jobs on every worker at once, shard by shard: hits and progress as the
 * workers report them, a first page that stops the others, cancellation, and the shards of a lost
 * worker searched once its replacement has them back (a job that was the culprit is refused).
 */
export class SearchJobs {
  private readonly jobs = new Map<number, JobState>();
  private nextJob = 1;

  constructor(
    private readonly pool: EnginePool,
    private readonly index: StructureIndex,
    private readonly stepTimeoutMessage: () => string,
  ) {}

  async run(body: JobBody, options: SearchOptions, test?: 'trap' | 'spin'): Promise<StructureHits> {
    const { signal, onProgress } = options;
    await this.index.ready(signal, onProgress);
    if (signal?.aborted) throw new ChemSearchCancelled('The structure search was cancelled.');
    if (this.pool.workers.length === 0) throw new Error('The chemistry engine is shut down.');
    const jobId = this.nextJob++;
    const limit = options.limit ?? 0;
    // One hit more than asked for tells whether there are more than `limit`.
    const stopAt = limit > 0 ? limit + 1 : 0;
    let settle!: { resolve: (complete: boolean) => void; reject: (error: Error) => void };
    const finished = new Promise<boolean>((resolve, reject) => {
      settle = { resolve, reject };
    });
    const state: JobState = {
      body,
      pending: new Set(this.pool.workers),
      requeued: new Map(),
      searchedShards: new Set(),
      kills: 0,
      allComplete: true,
      parts: [],
      sims: [],
      hits: 0,
      searched: 0,
      candidates: 0,
      byRdkit: 0,
      stopAt,
      onProgress,
      test,
      // Settled once: whatever comes later from the workers finds no job and is dropped.
      resolve: (complete) => {
        this.jobs.delete(jobId);
        settle.resolve(complete);
      },
      reject: (error) => {
        this.jobs.delete(jobId);
        settle.reject(error);
      },
    };
    this.jobs.set(jobId, state);
    // Cancelling answers at once; the workers stop at their next shard boundary.
    const cancel = () => {
      this.cancel(jobId);
      state.reject(new ChemSearchCancelled('The structure search was cancelled.'));
    };
    signal?.addEventListener('abort', cancel, { once: true });
    // A test job traps or spins on the first worker only: the others are the bystanders.
    this.pool.workers.forEach((worker, i) =>
      worker.post({ ...body, jobId, limit: stopAt, ...(test && i === 0 ? { test } : {}) } as ToWorker as Extract<
        ToWorker,
        { jobId: number }
      >),
    );
    try {
      const complete = await finished;
      const ids = concat(state.parts);
      const similarities = body.type === 'similarity' ? concat(state.sims) : undefined;
      const more = limit > 0 && ids.length > limit;
      return {
        ids: more ? ids.subarray(0, limit) : ids,
        similarities: similarities && more ? similarities.subarray(0, limit) : similarities,
        complete: complete && !more,
        total: complete && !more ? ids.length : null,
        searched: state.searched,
        ...(body.type === 'substructure' ? { screen: { candidates: state.candidates, byRdkit: state.byRdkit } } : {}),
      };
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  }

  private cancel(jobId: number): void {
    for (const worker of this.pool.workers) worker.post({ type: 'cancel', jobId });
  }

  private settleIfDone(state: JobState): void {
    if (state.pending.size === 0 && state.requeued.size === 0) state.resolve(state.allComplete);
  }

  /** A worker's report of some shards. A shard already searched (reported just before its worker was lost) is not counted twice. */
  private addHits(state: JobState, message: Extract<FromWorker, { type: 'hits' }>): void {
    let at = 0;
    message.shardIds.forEach((shardId, i) => {
      const size = message.sizes[i]!;
      if (!state.searchedShards.has(shardId)) {
        state.searchedShards.add(shardId);
        state.parts.push(message.ids.subarray(at, at + size));
        if (message.sims) state.sims.push(message.sims.subarray(at, at + size));
        state.hits += size;
        state.searched += message.searched[i]!;
      }
      at += size;
    });
    state.candidates += message.candidates ?? 0;
    state.byRdkit += message.byRdkit ?? 0;
  }

  onMessage(handle: WorkerHandle, message: FromWorker): void {
    if (message.type !== 'hits' && message.type !== 'done' && message.type !== 'failed') return;
    const state = this.jobs.get(message.jobId);
    if (!state) return;
    if (message.type === 'failed') {
      this.cancel(message.jobId);
      state.reject(new ChemInputError(message.error));
      return;
    }
    if (message.type === 'hits') {
      this.addHits(state, message);
      const { total, loaded } = this.index.current;
      state.onProgress?.({ phase: 'search', searched: state.searched, total: total || loaded, hits: state.hits });
      // A first page: enough hits, stop the other shards.
      if (state.stopAt > 0 && state.hits >= state.stopAt) this.cancel(message.jobId);
      return;
    }
    if (message.error) {
      this.cancel(message.jobId);
      state.reject(new Error(message.error));
      return;
    }
    if (!state.pending.delete(handle)) return;
    if (!message.complete) state.allComplete = false;
    // A first page that has its hits does not wait for a replaced worker's shards.
    if (state.stopAt > 0 && state.hits >= state.stopAt) {
      state.requeued.clear();
      state.allComplete = false;
    }
    this.settleIfDone(state);
  }

  /**
   * A worker went away: the job that caused it is refused; the others wait for the shards they had
   * not searched there (`lostShards`) until its replacement has them back (`resume`).
   */
  onWorkerLost(handle: WorkerHandle, slot: number, loss: Loss, lostShards: number[]): void {
    for (const [jobId, state] of this.jobs) {
      if (!state.pending.delete(handle)) continue;
      if (loss.reason !== 'lost' && loss.jobId === jobId) {
        this.cancel(jobId);
        state.reject(new ChemQueryRefused(loss.reason === 'trap' ? TRAP_MESSAGE : this.stepTimeoutMessage()));
        continue;
      }
      if (loss.reason === 'lost' && loss.jobId === jobId) state.kills += 1;
      if (state.kills >= 2) {
        this.cancel(jobId);
        state.reject(new Error(RESTARTED));
        continue;
      }
      const rest = lostShards.filter((id) => !state.searchedShards.has(id));
      if (rest.length) state.requeued.set(slot, rest);
      else this.settleIfDone(state);
    }
  }

  /** A replaced worker has its shards back: the jobs waiting for them search them there. */
  resume(slot: number, handle: WorkerHandle): void {
    for (const [jobId, state] of this.jobs) {
      const shardIds = state.requeued.get(slot);
      if (!shardIds) continue;
      state.requeued.delete(slot);
      if (shardIds.length === 0) {
        this.settleIfDone(state);
        continue;
      }
      state.pending.add(handle);
      const limit = state.stopAt > 0 ? Math.max(1, state.stopAt - state.hits) : 0;
      handle.post({ ...state.body, jobId, limit, shardIds } as ToWorker as Extract<ToWorker, { jobId: number }>);
    }
  }

  /** A slot's shards will not come back (the engine gave up on it): the jobs waiting for them fail. */
  failSlot(slot: number): void {
    for (const state of this.jobs.values()) if (state.requeued.has(slot)) state.reject(new Error(RESTARTED));
  }

  closeAll(): void {
    for (const state of this.jobs.values()) state.reject(new ChemSearchCancelled('The server is shutting down.'));
  }
}

function concat(parts: Float64Array[]): Float64Array {
  const out = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Most similar first; ties by str_id so the order is stable. */
export function sortBySimilarity(hits: StructureHits): StructureHits {
  const sims = hits.similarities ?? new Float64Array(hits.ids.length);
  const order = Array.from(hits.ids.keys()).sort((a, b) => sims[b]! - sims[a]! || hits.ids[a]! - hits.ids[b]!);
  return { ...hits, ids: Float64Array.from(order, (i) => hits.ids[i]!), similarities: Float64Array.from(order, (i) => sims[i]!) };
}

/** The first `n` hits of sorted ones (`total` is then theirs). */
export function firstOf(hits: StructureHits, n: number): StructureHits {
  if (hits.ids.length <= n) return hits;
  return { ...hits, ids: hits.ids.subarray(0, n), similarities: hits.similarities?.subarray(0, n), total: hits.total === null ? null : n };
}

/** A search's candidate restriction as sent to the workers (ascending, as they binary-search it). */
export function candidatesOf(options: SearchOptions): { candidates?: Float64Array } {
  const { candidates } = options;
  if (!candidates) return {};
  for (let i = 1; i < candidates.length; i++) {
    if (candidates[i - 1]! >= candidates[i]!) return { candidates: Float64Array.from(new Set(candidates)).sort() };
  }
  return { candidates };
}
