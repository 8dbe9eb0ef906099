import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ChemInputError, ChemSearchCancelled } from './chem-engine.ts';
import type { ChemEngine, ChemQuery, DepictOptions, DescribedQuery, EngineStatus, SearchOptions, StructureHits } from './chem-engine.ts';
import { IndexLoader } from './index-loader.ts';
import type { DescribeReply, FromWorker, ShardPayload, ToWorker } from './worker-protocol.ts';

const WORKER_URL = new URL('./chem-worker.mjs', import.meta.url);

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
  parts: Float64Array[];
  sims: Float64Array[];
  hits: number;
  searched: number;
  limit: number;
  cancelled: boolean;
  resolve: (complete: boolean) => void;
  reject: (error: Error) => void;
  onProgress?: SearchOptions['onProgress'];
}

/** One worker thread with its pending requests and jobs. */
class WorkerHandle {
  readonly worker: Worker;
  readonly ready: Promise<void>;
  private readonly requests = new Map<number, (result: unknown) => void>();
  private nextRequest = 1;

  constructor(onJobMessage: (message: FromWorker) => void, onFailure: (error: Error) => void) {
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
    this.worker.on('error', (error) => {
      for (const settle of this.requests.values()) settle({ ok: false, error: error.message });
      this.requests.clear();
      onFailure(error);
    });
  }

  request<T>(message: DistributiveOmit<Extract<ToWorker, { requestId: number }>, 'requestId'>, transfer: ArrayBuffer[] = []): Promise<T> {
    const requestId = this.nextRequest++;
    return new Promise<T>((resolve) => {
      this.requests.set(requestId, resolve as (result: unknown) => void);
      this.worker.postMessage({ ...message, requestId }, transfer);
    });
  }

  post(message: ToWorker): void {
    this.worker.postMessage(message);
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * RDKit MinimalLib in a pool of worker threads (ARCHITECTURE.md "Chemistry engine"). The index is
 * sharded across the workers: each shard is an RDKit SubstructLibrary (pattern-fingerprint screen
 * and atom-by-atom match in C++) plus Morgan fingerprints in SharedArrayBuffers. A search runs on
 * every worker at once, shard by shard, so it streams progress and can be cancelled.
 */
export class RdkitChemEngine implements ChemEngine {
  private readonly workers: WorkerHandle[] = [];
  private readonly jobs = new Map<number, JobState>();
  private readonly shardSize: number;
  private readonly loader: IndexLoader;
  private nextJob = 1;
  private turn = 0;
  private loading: Promise<void> | null = null;
  private refreshTimer: NodeJS.Timeout | null = null;
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
    if (this.workers.length) return;
    const size = Math.max(1, this.options.workers ?? os.availableParallelism());
    for (let i = 0; i < size; i++) {
      this.workers.push(
        new WorkerHandle(
          (message) => this.onJobMessage(message),
          (error) => this.options.log?.(`chemistry worker failed: ${error.message}`),
        ),
      );
    }
  }

  start(): void {
    if (this.loading) return;
    this.spawn();
    this.loading = this.loadNew().catch((error: unknown) => {
      this.current = { ...this.current, state: 'failed', error: error instanceof Error ? error.message : String(error) };
      this.loading = null;
      throw error;
    });
    // A failed load is reported by status() and by the next search; never an unhandled rejection.
    this.loading.catch(() => undefined);
    const every = this.options.refreshIntervalMs ?? 0;
    if (every > 0 && !this.refreshTimer) {
      this.refreshTimer = setInterval(() => void this.refresh().catch(() => undefined), every);
      this.refreshTimer.unref();
    }
  }

  async ready(signal?: AbortSignal): Promise<void> {
    this.start();
    const loading = this.loading;
    if (!loading) throw new Error(this.current.error ?? 'The structure index is not loaded.');
    if (!signal) return loading;
    if (signal.aborted) throw new ChemSearchCancelled('The structure search was cancelled.');
    await new Promise<void>((resolve, reject) => {
      const abort = () => reject(new ChemSearchCancelled('The structure search was cancelled.'));
      signal.addEventListener('abort', abort, { once: true });
      loading.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
    });
  }

  /** Loads structures with ids above those already indexed; the first call loads everything. */
  private async loadNew(): Promise<void> {
    const started = performance.now();
    await Promise.all(this.workers.map((w) => w.ready));
    const total = this.current.loaded + (await this.loader.countAbove(this.loader.lastId));
    this.current = { ...this.current, state: this.current.state === 'ready' ? 'ready' : 'loading', total };
    // Two shards in flight per worker: the database read of the next overlaps the library build.
    const inFlight = new Set<Promise<void>>();
    for await (const shard of this.loader.shards()) {
      const worker = this.workers[this.current.shards % this.workers.length]!;
      this.current = { ...this.current, shards: this.current.shards + 1 };
      const added = this.addShard(worker, shard).then(() => {
        inFlight.delete(added);
      });
      inFlight.add(added);
      if (inFlight.size >= this.workers.length * 2) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    this.current = { ...this.current, state: 'ready', total: this.current.loaded, loadMs: Math.round(performance.now() - started), error: null };
    this.options.log?.(`structure index: ${this.current.loaded} structures in ${this.current.shards} shards, ${this.current.loadMs} ms`);
  }

  private async addShard(worker: WorkerHandle, shard: ShardPayload): Promise<void> {
    await worker.request({ type: 'addShard', ...shard }, [shard.pattern.buffer as ArrayBuffer]);
    this.current = { ...this.current, loaded: this.current.loaded + shard.count };
  }

  async refresh(): Promise<void> {
    if (!this.loading) return this.start();
    await this.loading.catch(() => undefined);
    const changed = await this.loader.changed(this.current.loaded);
    if (changed === 'none') return;
    if (changed === 'shrunk') {
      // Structures were deleted (a test or an admin reload): rebuild from scratch.
      await Promise.all(this.workers.map((w) => w.request({ type: 'dropShards' })));
      this.loader.reset();
      this.current = { ...this.current, loaded: 0, shards: 0, total: 0 };
    }
    this.loading = this.loadNew();
    await this.loading;
  }

  private nextWorker(): WorkerHandle {
    this.spawn();
    return this.workers[this.turn++ % this.workers.length]!;
  }

  async describe(query: ChemQuery): Promise<DescribedQuery> {
    const worker = this.nextWorker();
    await worker.ready;
    const reply = await worker.request<DescribeReply>({ type: 'describe', query });
    if (!reply.ok) throw new ChemInputError(reply.error ?? 'RDKit could not read the query.');
    return { smiles: reply.smiles, smarts: reply.smarts, atoms: reply.atoms ?? 0, morgan: reply.morgan };
  }

  async depict(input: { kind: 'smiles' | 'smarts' | 'molfile'; text: string }, options: DepictOptions): Promise<string> {
    const worker = this.nextWorker();
    await worker.ready;
    const reply = await worker.request<{ ok: boolean; svg?: string; error?: string }>({
      type: 'depict',
      kind: input.kind,
      text: input.text,
      width: options.width,
      height: options.height,
      highlight: options.highlight ?? null,
    });
    if (!reply.ok || !reply.svg) throw new ChemInputError(reply.error ?? 'RDKit could not draw the structure.');
    return reply.svg;
  }

  async substructure(query: ChemQuery, options: SearchOptions = {}): Promise<StructureHits> {
    // Checked first on one worker: a bad query is a 400 before any work, not N worker failures.
    await this.describe(query);
    return this.runJob({ type: 'substructure', query }, options);
  }

  async similarity(query: ChemQuery, range: { min: number; max: number }, options: SearchOptions = {}): Promise<StructureHits> {
    if (query.kind === 'smarts') throw new ChemInputError('Similarity compares whole molecules: enter a SMILES or a molfile, not a SMARTS pattern.');
    const described = await this.describe(query);
    if (!described.morgan) throw new ChemInputError('RDKit could not compute a fingerprint for the query.');
    // Every hit is needed to know the most similar ones: a first page is cut after sorting.
    const hits = sortBySimilarity(await this.runJob({ type: 'similarity', morgan: described.morgan, min: range.min, max: range.max }, { ...options, limit: 0 }));
    const limit = options.limit ?? 0;
    if (limit <= 0 || hits.ids.length <= limit) return hits;
    return { ...hits, ids: hits.ids.subarray(0, limit), similarities: hits.similarities?.subarray(0, limit), total: hits.ids.length };
  }

  private async runJob(
    body: { type: 'substructure'; query: ChemQuery } | { type: 'similarity'; morgan: Uint8Array; min: number; max: number },
    options: SearchOptions,
  ): Promise<StructureHits> {
    const { signal, onProgress } = options;
    onProgress?.({ phase: 'index', searched: this.current.loaded, total: this.current.total, hits: 0 });
    await this.ready(signal);
    if (signal?.aborted) throw new ChemSearchCancelled('The structure search was cancelled.');
    const jobId = this.nextJob++;
    const limit = options.limit ?? 0;
    const state: JobState = {
      pendingWorkers: this.workers.length,
      parts: [],
      sims: [],
      hits: 0,
      searched: 0,
      limit,
      cancelled: false,
      resolve: () => undefined,
      reject: () => undefined,
      onProgress,
    };
    const finished = new Promise<boolean>((resolve, reject) => {
      state.resolve = resolve;
      state.reject = reject;
    });
    this.jobs.set(jobId, state);
    const cancel = () => this.cancelJob(jobId);
    signal?.addEventListener('abort', cancel, { once: true });
    for (const worker of this.workers) worker.post({ ...body, jobId, limit } as ToWorker);
    try {
      const complete = await finished;
      if (signal?.aborted) throw new ChemSearchCancelled('The structure search was cancelled.');
      const ids = concat(state.parts);
      const similarities = body.type === 'similarity' ? concat(state.sims) : undefined;
      // With a limit, a complete search that filled it may have been cut inside its last shard.
      const total = complete && (limit === 0 || ids.length < limit) ? ids.length : null;
      return {
        ids: limit > 0 ? ids.subarray(0, limit) : ids,
        similarities: similarities && limit > 0 ? similarities.subarray(0, limit) : similarities,
        complete,
        total,
        searched: state.searched,
      };
    } finally {
      signal?.removeEventListener('abort', cancel);
      this.jobs.delete(jobId);
    }
  }

  private cancelJob(jobId: number): void {
    const state = this.jobs.get(jobId);
    if (!state || state.cancelled) return;
    state.cancelled = true;
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
      if (state.limit > 0 && state.hits >= state.limit) this.cancelJob(message.jobId);
      return;
    }
    if (message.error) {
      this.cancelJob(message.jobId);
      state.reject(new Error(message.error));
      return;
    }
    state.pendingWorkers -= 1;
    if (state.pendingWorkers === 0) state.resolve(state.searched >= this.current.loaded);
  }

  async close(): Promise<void> {
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    this.refreshTimer = null;
    for (const state of this.jobs.values()) state.reject(new ChemSearchCancelled('The server is shutting down.'));
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
    this.workers.length = 0;
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
