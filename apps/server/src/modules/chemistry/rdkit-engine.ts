import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ChemInputError, ChemSearchCancelled } from './chem-engine.ts';
import type { ChemEngine, ChemQuery, DepictOptions, DescribedQuery, EngineProgress, EngineStatus, SearchOptions, StructureHits } from './chem-engine.ts';
import { IndexLoader } from './index-loader.ts';
import type { DescribeReply, FromWorker, ShardPayload, ToWorker } from './worker-protocol.ts';

const WORKER_URL = new URL('./chem-worker.mjs', import.meta.url);
const RESTARTED = 'The chemistry engine restarted during the search; please run it again.';
/** How often a search waiting for the index reports the load's progress. */
const INDEX_PROGRESS_MS = 500;

export interface RdkitEngineOptions {
  /** Worker threads (default: every core). */
  workers?: number;
  /** Structures per shard: the unit of scheduling, progress and cancellation. */
  shardSize?: number;
  /** How often to look for structures added by another process (0 = never). */
  refreshIntervalMs?: number;
  /** Index only the first N structures by id (benchmarks of a smaller scale on one database). */
  maxStructures?: number;
  log?: (message: string) => void;
}

interface JobState {
  pendingWorkers: number;
  allComplete: boolean;
  parts: Float64Array[];
  sims: Float64Array[];
  hits: number;
  searched: number;
  /** Hits wanted before the workers stop (limit + 1, to know whether there are more). */
  stopAt: number;
  resolve: (complete: boolean) => void;
  reject: (error: Error) => void;
  onProgress?: SearchOptions['onProgress'];
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type Request = DistributiveOmit<Extract<ToWorker, { requestId: number }>, 'requestId'>;

/** One worker thread with its pending requests. */
class WorkerHandle {
  readonly worker: Worker;
  readonly ready: Promise<void>;
  private readonly requests = new Map<number, (result: unknown) => void>();
  private nextRequest = 1;
  private stopping = false;

  constructor(onJobMessage: (message: FromWorker) => void, onLost: (handle: WorkerHandle, error: Error) => void) {
    this.worker = new Worker(WORKER_URL);
    this.ready = new Promise((resolve, reject) => {
      this.worker.once('error', reject);
      this.worker.on('message', (message: FromWorker) => {
        if (message.type === 'ready') resolve();
        else if (message.type === 'reply') {
          this.requests.get(message.requestId)?.(message.result);
          this.requests.delete(message.requestId);
        } else onJobMessage(message);
      });
    });
    // A worker that dies (WASM abort, out of memory) answers nothing more: everything waiting on
    // it is settled here and the engine rebuilds.
    const lost = (error: Error) => {
      if (this.stopping) return;
      this.stopping = true;
      for (const settle of this.requests.values()) settle({ ok: false, error: RESTARTED, internal: true });
      this.requests.clear();
      onLost(this, error);
    };
    this.worker.on('error', lost);
    this.worker.on('exit', (code) => lost(new Error(`chemistry worker exited with code ${code}`)));
  }

  request<T>(message: Request, transfer: ArrayBuffer[] = []): Promise<T> {
    const requestId = this.nextRequest++;
    return new Promise<T>((resolve) => {
      if (this.stopping) return resolve({ ok: false, error: RESTARTED, internal: true } as T);
      this.requests.set(requestId, resolve as (result: unknown) => void);
      this.worker.postMessage({ ...message, requestId }, transfer);
    });
  }

  post(message: ToWorker): void {
    if (!this.stopping) this.worker.postMessage(message);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.worker.terminate();
  }
}

/**
 * RDKit MinimalLib in a pool of worker threads (ARCHITECTURE.md "Chemistry engine"). The index is
 * sharded across the workers: each shard is an RDKit SubstructLibrary (pattern-fingerprint screen
 * and atom-by-atom match in C++) plus Morgan fingerprints in SharedArrayBuffers. A search runs on
 * every worker at once, shard by shard, so it streams progress and can be cancelled.
 */
export class RdkitChemEngine implements ChemEngine {
  private workers: WorkerHandle[] = [];
  private readonly jobs = new Map<number, JobState>();
  private readonly shardSize: number;
  private readonly loader: IndexLoader;
  private nextJob = 1;
  private turn = 0;
  private loading: Promise<void> | null = null;
  private refreshing: Promise<void> | null = null;
  private refreshTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private current: EngineStatus;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: RdkitEngineOptions = {},
  ) {
    this.shardSize = options.shardSize ?? 8192;
    this.loader = new IndexLoader(db, this.shardSize, options.maxStructures);
    this.current = { state: 'idle', loaded: 0, total: 0, shards: 0, workers: 0, loadMs: null, error: null };
  }

  status(): EngineStatus {
    return { ...this.current, workers: this.workers.length };
  }

  private spawn(): void {
    if (this.workers.length || this.closed) return;
    const size = Math.max(1, this.options.workers ?? os.availableParallelism());
    for (let i = 0; i < size; i++) {
      this.workers.push(new WorkerHandle((message) => this.onJobMessage(message), (handle, error) => this.onWorkerLost(handle, error)));
    }
  }

  /** A worker died: its shards are gone, so every search fails and the whole index is rebuilt. */
  private onWorkerLost(handle: WorkerHandle, error: Error): void {
    if (this.closed || !this.workers.includes(handle)) return;
    this.options.log?.(`chemistry worker lost (${error.message}); rebuilding the structure index`);
    for (const state of this.jobs.values()) state.reject(new Error(RESTARTED));
    this.jobs.clear();
    const old = this.workers;
    this.workers = [];
    void Promise.all(old.map((w) => w.stop())).catch(() => undefined);
    this.reset();
    this.loading = null;
    this.start();
  }

  private reset(): void {
    this.loader.reset();
    this.current = { ...this.current, state: 'idle', loaded: 0, total: 0, shards: 0 };
  }

  start(): void {
    if (this.loading || this.closed) return;
    this.spawn();
    this.loading = this.track(this.loadNew());
    const every = this.options.refreshIntervalMs ?? 0;
    if (every > 0 && !this.refreshTimer) {
      this.refreshTimer = setInterval(() => void this.refresh().catch(() => undefined), every);
      this.refreshTimer.unref();
    }
  }

  /** A failed load is reported by status() and by the next search, and the next refresh starts over. */
  private track(load: Promise<void>): Promise<void> {
    const tracked = load.catch((error: unknown) => {
      this.current = { ...this.current, state: 'failed', error: error instanceof Error ? error.message : String(error) };
      throw error;
    });
    tracked.catch(() => undefined);
    return tracked;
  }

  async ready(signal?: AbortSignal, onWait?: (progress: EngineProgress) => void): Promise<void> {
    this.start();
    const loading = this.loading;
    if (!loading) throw new Error(this.current.error ?? 'The structure index is not loaded.');
    if (signal?.aborted) throw new ChemSearchCancelled('The structure search was cancelled.');
    const report = () => onWait?.({ phase: 'index', searched: this.current.loaded, total: this.current.total, hits: 0 });
    const timer = onWait && this.current.state !== 'ready' ? setInterval(report, INDEX_PROGRESS_MS) : null;
    if (timer) report();
    try {
      await new Promise<void>((resolve, reject) => {
        const abort = () => reject(new ChemSearchCancelled('The structure search was cancelled.'));
        signal?.addEventListener('abort', abort, { once: true });
        loading.then(resolve, reject).finally(() => signal?.removeEventListener('abort', abort));
      });
    } finally {
      if (timer) clearInterval(timer);
    }
  }

  /** Loads structures with ids above those already indexed; the first call loads everything. */
  private async loadNew(): Promise<void> {
    const started = performance.now();
    await Promise.all(this.workers.map((w) => w.ready));
    const total = this.current.loaded + (await this.loader.countAbove(this.loader.lastId));
    this.current = { ...this.current, state: this.current.state === 'ready' ? 'ready' : 'loading', total, error: null };
    // Two shards in flight per worker: the database read of the next overlaps the library build.
    const inFlight = new Set<Promise<void>>();
    for await (const shard of this.loader.shards()) {
      const worker = this.workers[this.current.shards % this.workers.length];
      if (!worker) throw new Error('The chemistry workers stopped.');
      this.current = { ...this.current, shards: this.current.shards + 1 };
      const added = this.addShard(worker, shard).finally(() => inFlight.delete(added));
      inFlight.add(added);
      if (inFlight.size >= this.workers.length * 2) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    this.current = { ...this.current, state: 'ready', total: this.current.loaded, loadMs: Math.round(performance.now() - started), error: null };
    this.options.log?.(`structure index: ${this.current.loaded} structures in ${this.current.shards} shards, ${this.current.loadMs} ms`);
  }

  private async addShard(worker: WorkerHandle, shard: ShardPayload): Promise<void> {
    const reply = await worker.request<{ added?: number; ok?: boolean; error?: string }>({ type: 'addShard', ...shard }, [shard.pattern.buffer as ArrayBuffer]);
    if (reply.ok === false) throw new Error(reply.error ?? 'A shard of the structure index could not be built.');
    this.current = { ...this.current, loaded: this.current.loaded + shard.count };
  }

  /** Single-flight: concurrent callers (timer, seed, import) share one refresh. */
  refresh(): Promise<void> {
    this.refreshing ??= this.refreshOnce().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async refreshOnce(): Promise<void> {
    if (!this.loading) return this.start();
    const failed = await this.loading.then(
      () => false,
      () => true,
    );
    const changed = failed ? 'shrunk' : await this.loader.changed(this.current.loaded);
    if (changed === 'none') return;
    if (changed === 'shrunk') {
      // Structures were deleted, or the last load failed: rebuild from scratch. Searches running
      // meanwhile report themselves incomplete (their missing shards are counted).
      await Promise.all(this.workers.map((w) => w.request({ type: 'dropShards' })));
      this.reset();
    }
    this.loading = this.track(this.loadNew());
    await this.loading;
  }

  private nextWorker(): WorkerHandle {
    this.spawn();
    const worker = this.workers[this.turn++ % this.workers.length];
    if (!worker) throw new Error('The chemistry engine is shut down.');
    return worker;
  }

  async describe(query: ChemQuery): Promise<DescribedQuery> {
    const worker = this.nextWorker();
    await worker.ready;
    const reply = await worker.request<DescribeReply>({ type: 'describe', query });
    if (!reply.ok) {
      if (reply.internal) throw new Error(reply.error ?? 'RDKit failed.');
      throw new ChemInputError(reply.error ?? 'RDKit could not read the query.');
    }
    return { smiles: reply.smiles, smarts: reply.smarts, atoms: reply.atoms ?? 0, morgan: reply.morgan };
  }

  async depict(input: { kind: 'smiles' | 'smarts' | 'molfile'; text: string }, options: DepictOptions): Promise<string> {
    const worker = this.nextWorker();
    await worker.ready;
    const reply = await worker.request<{ ok: boolean; svg?: string; error?: string; internal?: boolean }>({
      type: 'depict',
      kind: input.kind,
      text: input.text,
      width: options.width,
      height: options.height,
      highlight: options.highlight ?? null,
    });
    if (!reply.ok || !reply.svg) {
      if (reply.internal) throw new Error(reply.error ?? 'RDKit failed.');
      throw new ChemInputError(reply.error ?? 'RDKit could not draw the structure.');
    }
    return reply.svg;
  }

  async molblocks(smiles: readonly string[]): Promise<(string | null)[]> {
    if (!smiles.length) return [];
    // Slices across the workers: RDKit's 2D layout is the slow part of an SDF (about 1.5 ms a molecule).
    this.spawn();
    const parts = Math.max(1, Math.min(this.workers.length, Math.ceil(smiles.length / 50)));
    const size = Math.ceil(smiles.length / parts);
    const replies = await Promise.all(
      Array.from({ length: parts }, async (_, index) => {
        const worker = this.nextWorker();
        await worker.ready;
        const reply = await worker.request<{ ok: boolean; blocks?: (string | null)[]; error?: string }>({ type: 'molblocks', smiles: smiles.slice(index * size, (index + 1) * size) });
        if (!reply.ok || !reply.blocks) throw new Error(reply.error ?? 'RDKit failed to write molblocks.');
        return reply.blocks;
      }),
    );
    return replies.flat();
  }

  async substructure(query: ChemQuery, options: SearchOptions = {}): Promise<StructureHits> {
    // Checked first on one worker: a bad query is a 400 before any work, not N worker failures.
    const described = await this.describe(query);
    return { ...(await this.runJob({ type: 'substructure', query }, options)), query: described };
  }

  async similarity(query: ChemQuery, range: { min: number; max: number }, options: SearchOptions = {}): Promise<StructureHits> {
    if (query.kind === 'smarts') throw new ChemInputError('Similarity compares whole molecules: enter a SMILES or a molfile, not a SMARTS pattern.');
    const described = await this.describe(query);
    if (!described.morgan) throw new ChemInputError('RDKit could not compute a fingerprint for the query.');
    // Every hit is needed to know the most similar ones: a first page is cut after sorting.
    const hits = { ...sortBySimilarity(await this.runJob({ type: 'similarity', morgan: described.morgan, min: range.min, max: range.max }, { ...options, limit: 0 })), query: described };
    const limit = options.limit ?? 0;
    if (limit <= 0 || hits.ids.length <= limit) return hits;
    return { ...hits, ids: hits.ids.subarray(0, limit), similarities: hits.similarities?.subarray(0, limit) };
  }

  private async runJob(
    body: { type: 'substructure'; query: ChemQuery } | { type: 'similarity'; morgan: Uint8Array; min: number; max: number },
    options: SearchOptions,
  ): Promise<StructureHits> {
    const { signal, onProgress } = options;
    await this.ready(signal, onProgress);
    if (signal?.aborted) throw new ChemSearchCancelled('The structure search was cancelled.');
    if (this.workers.length === 0) throw new Error('The chemistry engine is shut down.');
    const jobId = this.nextJob++;
    const limit = options.limit ?? 0;
    // One hit more than asked for tells whether there are more than `limit`.
    const stopAt = limit > 0 ? limit + 1 : 0;
    let settle!: { resolve: (complete: boolean) => void; reject: (error: Error) => void };
    const finished = new Promise<boolean>((resolve, reject) => {
      settle = { resolve, reject };
    });
    const state: JobState = {
      pendingWorkers: this.workers.length,
      allComplete: true,
      parts: [],
      sims: [],
      hits: 0,
      searched: 0,
      stopAt,
      onProgress,
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
      this.cancelJob(jobId);
      state.reject(new ChemSearchCancelled('The structure search was cancelled.'));
    };
    signal?.addEventListener('abort', cancel, { once: true });
    for (const worker of this.workers) worker.post({ ...body, jobId, limit: stopAt } as ToWorker);
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
      };
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  }

  private cancelJob(jobId: number): void {
    for (const worker of this.workers) worker.post({ type: 'cancel', jobId });
  }

  private onJobMessage(message: FromWorker): void {
    if (message.type !== 'hits' && message.type !== 'done' && message.type !== 'failed') return;
    const state = this.jobs.get(message.jobId);
    if (!state) return;
    if (message.type === 'failed') {
      this.cancelJob(message.jobId);
      state.reject(new ChemInputError(message.error));
      return;
    }
    if (message.type === 'hits') {
      state.parts.push(message.ids);
      if (message.sims) state.sims.push(message.sims);
      state.hits += message.ids.length;
      state.searched += message.searched;
      state.onProgress?.({ phase: 'search', searched: state.searched, total: this.current.loaded, hits: state.hits });
      // A first page: enough hits, stop the other shards.
      if (state.stopAt > 0 && state.hits >= state.stopAt) this.cancelJob(message.jobId);
      return;
    }
    if (message.error) {
      this.cancelJob(message.jobId);
      state.reject(new Error(message.error));
      return;
    }
    if (!message.complete) state.allComplete = false;
    state.pendingWorkers -= 1;
    if (state.pendingWorkers === 0) state.resolve(state.allComplete);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    this.refreshTimer = null;
    for (const state of this.jobs.values()) state.reject(new ChemSearchCancelled('The server is shutting down.'));
    const workers = this.workers;
    this.workers = [];
    await Promise.all(workers.map((w) => w.stop()));
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
function sortBySimilarity(hits: StructureHits): StructureHits {
  const sims = hits.similarities ?? new Float64Array(hits.ids.length);
  const order = Array.from(hits.ids.keys()).sort((a, b) => sims[b]! - sims[a]! || hits.ids[a]! - hits.ids[b]!);
  return { ...hits, ids: Float64Array.from(order, (i) => hits.ids[i]!), similarities: Float64Array.from(order, (i) => sims[i]!) };
}
