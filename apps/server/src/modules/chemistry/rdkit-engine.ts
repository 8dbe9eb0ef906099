import fs from 'node:fs';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ChemInputError, ChemQueryRefused, ChemSearchCancelled } from './chem-engine.ts';
import type {
  ChemEngine,
  ChemQuery,
  DepictOptions,
  DescribedQuery,
  EngineProgress,
  EngineStatus,
  PairDifference,
  RGroupDecompositionResult,
  SarWorkOptions,
  SearchOptions,
  SingleCut,
  StructureHits,
} from './chem-engine.ts';
import { IndexLoader } from './index-loader.ts';
import type { LoadedShard } from './index-loader.ts';
import { IndexSnapshotWriter, indexSnapshotKey, readIndexSnapshot } from './index-snapshot.ts';
import {
  QUERY_LIMITS,
  STORED_LIMITS,
  atomsMessage,
  checkQueryLimits,
  joinedViolation,
  limitViolation,
  withLimits,
} from './query-limits.ts';
import type { QueryLimits } from './query-limits.ts';
import { BUSY_REQUEST, BUSY_STEP, WARM_JOB_ID } from './worker-protocol.ts';
import type {
  DescribeReply,
  FromWorker,
  RdkitModuleMessage,
  SarReply,
  ShardPayload,
  ShardRange,
  ToWorker,
  WorkerData,
} from './worker-protocol.ts';
import { compiledRdkit } from './wasm-compile.ts';
import {
  SAR_CHUNK,
  SAR_MAX_SMILES,
  assembleDecomposition,
  assembleRows,
  chooseStrategy,
  mcsSample,
  resolveSymmetry,
  tooManySmiles,
  usedLabels,
  zipInput,
} from './sar-work.ts';

const WORKER_URL = new URL('./chem-worker.mjs', import.meta.url);
const RESTARTED = 'The chemistry engine restarted twice during this request; please run it again.';
export const TRAP_MESSAGE = 'RDKit could not process this query (it stopped with an internal error); simplify it.';
/** How often a search waiting for the index reports the load's progress. */
const INDEX_PROGRESS_MS = 500;
/** How often the watchdog looks at what each worker is running. */
const WATCHDOG_MS = 100;
/** Molblocks per worker request (SDF export): each request stays well inside its time limit. */
const MOLBLOCK_BATCH = 100;
/** Time a molblock may take on top of the request limit (2D layout: ~1.5 ms for a drug-like molecule). */
const MOLBLOCK_MS = 20;
/**
 * Watchdog time per compound of a bulk SAR chunk (scaffolds, fragments, contains), on top of the
 * request limit: the inputs are stored structures, already bounded, and a loaded machine may take
 * several times the usual few milliseconds each; the watchdog is for a runaway query, not a queue.
 */
const SAR_ITEM_MS = 50;
/** Matched-pair cuts kept in memory, by SMILES (≈ 1–2 kB each: a few MB). */
const FRAGMENTS_CACHED = 20_000;
/** Longest RDKit time limit of one cliff pair's MCS. */
const MCS_PAIR_MAX_SECONDS = 5;
/** A shard build (addShard of 8,192 structures: ~0.3 s) is given at least this long. */
const SHARD_BUILD_MS = 120_000;
/** The warm-up's query (any drug-like molecule: only the work it makes RDKit do matters). */
const WARM_UP_SMILES = 'CC(=O)Nc1ccc(O)cc1';
/** A worker slot replaced this many times in a row without finishing its reload: the engine gives up. */
const MAX_RECOVERIES = 3;

export interface RdkitEngineOptions {
  /** Worker threads (default: every core). */
  workers?: number;
  /** Structures per shard: the unit of scheduling, progress and cancellation. */
  shardSize?: number;
  /** How often to look for structures added by another process (0 = never). */
  refreshIntervalMs?: number;
  /** Index only the first N structures by id (benchmarks of a smaller scale on one database). */
  maxStructures?: number;
  /** Limits of queries (describe, searches, highlights, depictions of typed structures); QUERY_LIMITS by default. */
  queryLimits?: Partial<QueryLimits>;
  /** Limits of stored structures (depictions by id, molblocks, the index); STORED_LIMITS by default. */
  storedLimits?: Partial<QueryLimits>;
  /** A request (describe, depict, a molblocks batch) running longer is stopped by terminating its worker (default 10 s). */
  requestTimeLimitMs?: number;
  /** One shard step of a search running longer is stopped the same way (default 30 s). */
  stepTimeLimitMs?: number;
  /** Enables `testHook()` and the workers' test messages (tests only; nothing over HTTP reaches them). */
  testHooks?: boolean;
  /**
   * Keep the exact answers of the last substructure queries, so that one asked again is read, not
   * matched (default true; benchmarks turn it off to time every query as asked the first time).
   */
  keepRecentAnswers?: boolean;
  /** The workers' threads run at this nice value (Linux; 0: the process's own): searches yield the CPU to requests. */
  workerNice?: number;
  log?: (message: string) => void;
  /**
   * Keep the index's shards in a local file between starts (index-snapshot.ts): `version` is the
   * knowledge base's version as the caller knows it (null while a load runs: no snapshot then).
   */
  snapshot?: { file: string; version: () => Promise<string | null>; onError?: (message: string, error: unknown) => void };
  /**
   * The stored structures' revision, which moves when rows change in place (fingerprints filled,
   * knowledge-base/fill-fingerprints.ts): a refresh that sees it move rebuilds the index, on this
   * server and on every other one sharing the database (their refresh timers ask too).
   */
  revision?: () => Promise<string>;
}

type JobBody = (
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

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type Request = DistributiveOmit<Extract<ToWorker, { requestId: number }>, 'requestId'>;

/** Why a worker went away, and what it was running then. */
interface Loss {
  reason: 'trap' | 'timeout' | 'lost';
  detail: string;
  /** The request or job that caused it (trap, timeout), or was running when it died (lost). */
  requestId?: number;
  jobId?: number;
}

/** A request that was on a worker when it went away. */
class WorkerLost extends Error {
  constructor(
    readonly loss: Loss,
    /** This request caused it (trap or timeout). */
    readonly culprit: boolean,
  ) {
    super(loss.detail);
  }
}

interface PendingRequest {
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
  timeLimitMs: number;
}

/** One worker thread with its pending requests and its heartbeat (what it is running, since when). */
class WorkerHandle {
  readonly worker: Worker;
  readonly ready: Promise<void>;
  private readonly requests = new Map<number, PendingRequest>();
  private readonly heartbeat = new SharedArrayBuffer(16);
  private readonly busyIds = new Int32Array(this.heartbeat, 0, 2);
  private readonly busySince = new Float64Array(this.heartbeat, 8, 1);
  private nextRequest = 1;
  /** How many shards this worker had when all of them held the frequent fragments' answers (chem-worker.mjs, "known answers"). */
  warmedShards = -1;
  /** Set when the watchdog stops it or it reports a trap: decides what `lost` blames. */
  private cause: Loss | null = null;
  gone = false;

  constructor(
    readonly slot: number,
    flags: Pick<WorkerData, 'testHooks' | 'keepRecentAnswers' | 'nice'>,
    onJobMessage: (handle: WorkerHandle, message: FromWorker) => void,
    onLost: (handle: WorkerHandle, loss: Loss) => void,
  ) {
    const workerData: WorkerData = { heartbeat: this.heartbeat, ...flags, sharedRdkit: true, warmFragments: true };
    this.worker = new Worker(WORKER_URL, { workerData });
    // RDKit compiled once for all workers (wasm-compile.ts); the worker waits for it before anything else.
    void compiledRdkit().then((module) => {
      if (!this.gone) this.worker.postMessage({ type: 'rdkit', module } satisfies RdkitModuleMessage);
    });
    this.ready = new Promise((resolve, reject) => {
      this.worker.once('error', reject);
      this.worker.once('exit', () => reject(new Error('The chemistry worker stopped while starting.')));
      this.worker.on('message', (message: FromWorker) => {
        if (this.gone) return;
        if (message.type === 'ready') resolve();
        else if (message.type === 'reply') {
          this.requests.get(message.requestId)?.resolve(message.result);
          this.requests.delete(message.requestId);
        } else if (message.type === 'warmed') {
          this.warmedShards = message.shards;
        } else if (message.type === 'trap') {
          this.stopFor({ reason: 'trap', detail: message.error, requestId: message.requestId, jobId: message.jobId });
        } else onJobMessage(this, message);
      });
    });
    this.ready.catch(() => undefined);
    // A worker that dies (trap, watchdog, out of memory) answers nothing more: its requests are
    // settled here (the culprit with its reason, the others to be sent again) and the engine
    // replaces it.
    const lost = (error: Error) => {
      if (this.gone) return;
      this.gone = true;
      const loss = this.cause ?? { reason: 'lost' as const, detail: error.message, ...this.running() };
      for (const [requestId, pending] of this.requests)
        pending.reject(new WorkerLost(loss, loss.reason !== 'lost' && loss.requestId === requestId));
      this.requests.clear();
      onLost(this, loss);
    };
    this.worker.on('error', lost);
    this.worker.on('exit', (code) => lost(new Error(`chemistry worker exited with code ${code}`)));
  }

  /** What the worker is running now, from its heartbeat. */
  running(): { requestId?: number; jobId?: number; ms: number } {
    const kind = Atomics.load(this.busyIds, 0);
    const id = Atomics.load(this.busyIds, 1);
    const ms = Date.now() - this.busySince[0]!;
    if (kind === BUSY_REQUEST) return { requestId: id, ms };
    if (kind === BUSY_STEP) return { jobId: id, ms };
    return { ms: 0 };
  }

  /** Time limit of what it runs now (null: idle). */
  limitOfRunning(stepLimitMs: number): { over: boolean; requestId?: number; jobId?: number; limitMs: number } | null {
    const now = this.running();
    if (now.requestId !== undefined) {
      const limitMs = this.requests.get(now.requestId)?.timeLimitMs ?? stepLimitMs;
      return { over: now.ms > limitMs, requestId: now.requestId, limitMs };
    }
    if (now.jobId !== undefined) return { over: now.ms > stepLimitMs, jobId: now.jobId, limitMs: stepLimitMs };
    return null;
  }

  /** Ends the thread, blaming `cause` (trap reported by the worker, or the watchdog). */
  stopFor(cause: Loss): void {
    if (this.gone || this.cause) return;
    this.cause = cause;
    void this.worker.terminate();
  }

  request<T>(message: Request, timeLimitMs: number, transfer: ArrayBuffer[] = []): Promise<T> {
    const requestId = this.nextRequest++;
    return new Promise<T>((resolve, reject) => {
      if (this.gone) return reject(new WorkerLost({ reason: 'lost', detail: 'worker gone' }, false));
      this.requests.set(requestId, { resolve: resolve as (result: unknown) => void, reject, timeLimitMs });
      this.worker.postMessage({ ...message, requestId }, transfer);
    });
  }

  post(message: ToWorker): void {
    if (!this.gone) this.worker.postMessage(message);
  }

  async stop(): Promise<void> {
    this.gone = true;
    for (const pending of this.requests.values()) pending.reject(new ChemSearchCancelled('The server is shutting down.'));
    this.requests.clear();
    await this.worker.terminate();
  }
}

const seconds = (ms: number) => (ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`);

/**
 * A decomposition that cannot start on the user's core is the core's fault, whatever RDKit said:
 * an unreadable core, or an exception RDKit threw while labelling it or setting up the
 * decomposition (which the worker reports as `internal`). Answered 400 with RDKit's message.
 */
function coreRefused(reply: { error?: string; internal?: boolean }): ChemInputError {
  const message = reply.error ?? 'RDKit could not read the core.';
  return new ChemInputError(reply.internal ? `RDKit could not decompose on this core: ${message.replace(/^RDKit failed: /, '')}` : message);
}

/**
 * RDKit MinimalLib in a pool of worker threads (ARCHITECTURE.md "Chemistry engine"). The index is
 * sharded across the workers: each shard holds its stored SMILES and its substructure screen (the
 * pattern fingerprints bit by bit) in its worker, plus Morgan fingerprints in SharedArrayBuffers;
 * a substructure candidate is decided in JavaScript where RDKit's rules allow, else by RDKit
 * (chem-worker.mjs, docs/architecture.md "Chemistry engine"). A search runs on
 * every worker at once, shard by shard, so it streams progress and can be cancelled.
 *
 * Queries are checked against limits before RDKit sees them (query-limits.ts). A worker whose
 * RDKit traps, or whose request or search step runs past its time (the watchdog), is replaced:
 * the culprit is answered with a 400, only that worker's shards are read again, and the other
 * requests and searches it was serving are sent again once it is back.
 */
export class RdkitChemEngine implements ChemEngine {
  private workers: WorkerHandle[] = [];
  private readonly fragmentCache = new Map<string, SingleCut[]>();
  private readonly jobs = new Map<number, JobState>();
  private readonly shardSize: number;
  /** The last load from the first structure read the local snapshot (index-snapshot.ts). */
  private snapshotUsed = false;
  /** `options.revision` as it was when the index was last read from the first structure. */
  private loadedRevision: string | null = null;
  /** The first load was followed by its warm-up (`warmUp`). */
  private warmed = false;
  private readonly loader: IndexLoader;
  private readonly queryLimits: Readonly<QueryLimits>;
  private readonly storedLimits: Readonly<QueryLimits>;
  private readonly requestLimitMs: number;
  private readonly stepLimitMs: number;
  /** Where each shard's rows are and which worker slot holds it (loaded: its build finished). */
  private readonly shardRanges = new Map<number, { range: ShardRange; slot: number; loaded: boolean }>();
  /** Worker slots being replaced → how many times in a row. */
  private readonly recovering = new Map<number, number>();
  private recoveredWaiters: (() => void)[] = [];
  private nextJob = 1;
  private turn = 0;
  private loading: Promise<void> | null = null;
  private refreshing: Promise<void> | null = null;
  private refreshTimer: NodeJS.Timeout | null = null;
  private watchdog: NodeJS.Timeout | null = null;
  private closed = false;
  private current: EngineStatus;
  /** Set when a worker was lost computing the frequent fragments: they are not computed ahead any more. */
  private fragmentsOff = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: RdkitEngineOptions = {},
  ) {
    this.shardSize = options.shardSize ?? 8192;
    this.loader = new IndexLoader(db, this.shardSize, options.maxStructures);
    this.queryLimits = withLimits(QUERY_LIMITS, options.queryLimits);
    this.storedLimits = withLimits(STORED_LIMITS, options.storedLimits);
    this.requestLimitMs = options.requestTimeLimitMs ?? 10_000;
    this.stepLimitMs = options.stepTimeLimitMs ?? 30_000;
    this.current = { state: 'idle', loaded: 0, total: 0, shards: 0, workers: 0, loadMs: null, fragmentsReady: false, error: null };
  }

  status(): EngineStatus {
    return { ...this.current, workers: this.workers.length, fragmentsReady: this.fragmentsReady() };
  }

  startupState(): 'warming' | 'ready' | 'failed' {
    if (this.current.state === 'failed') return 'failed';
    return this.current.state === 'ready' && (this.fragmentsOff || this.fragmentsReady()) ? 'ready' : 'warming';
  }

  private fragmentsReady(): boolean {
    if (this.current.state !== 'ready' || this.fragmentsOff) return false;
    const perSlot = new Map<number, number>();
    for (const { slot } of this.shardRanges.values()) perSlot.set(slot, (perSlot.get(slot) ?? 0) + 1);
    return this.workers.every((w) => w.warmedShards === (perSlot.get(w.slot) ?? 0));
  }

  private newWorker(slot: number): WorkerHandle {
    return new WorkerHandle(
      slot,
      {
        testHooks: this.options.testHooks === true,
        keepRecentAnswers: this.options.keepRecentAnswers !== false,
        nice: this.options.workerNice ?? 0,
      },
      (handle, message) => this.onJobMessage(handle, message),
      (handle, loss) => this.onWorkerLost(handle, loss),
    );
  }

  private spawn(): void {
    if (this.workers.length || this.closed) return;
    const size = Math.max(1, this.options.workers ?? os.availableParallelism());
    for (let i = 0; i < size; i++) this.workers.push(this.newWorker(i));
    // The watchdog: a request or a search step past its time is stopped from this thread (RDKit
    // cannot be interrupted from inside, and limits checked between shards come too late).
    this.watchdog ??= setInterval(() => this.watch(), WATCHDOG_MS);
    this.watchdog.unref();
  }

  private watch(): void {
    for (const handle of this.workers) {
      const running = handle.limitOfRunning(this.stepLimitMs);
      if (!running?.over) continue;
      this.options.log?.(
        `chemistry watchdog: ${running.requestId !== undefined ? `request ${running.requestId}` : `search ${running.jobId}`} ran past ${seconds(running.limitMs)}; replacing worker ${handle.slot}`,
      );
      handle.stopFor({
        reason: 'timeout',
        detail: `ran past ${seconds(running.limitMs)}`,
        requestId: running.requestId,
        jobId: running.jobId,
      });
    }
  }

  /**
   * A worker went away (trap, watchdog, crash). Its culprit is answered; the searches it was
   * serving wait for its shards to be rebuilt on a replacement and then search them there.
   */
  private onWorkerLost(handle: WorkerHandle, loss: Loss): void {
    const slot = this.workers.indexOf(handle);
    if (this.closed || slot < 0) return;
    if (loss.reason !== 'lost' && loss.jobId === WARM_JOB_ID && !this.fragmentsOff) {
      // The replacement would warm the same shard and be lost the same way, without end.
      this.fragmentsOff = true;
      this.options.log?.(
        'chemistry: the frequent fragments are no longer computed ahead (a worker was lost computing them); searches match them like any query',
      );
    }
    this.options.log?.(`chemistry worker ${slot} lost (${loss.reason}: ${loss.detail}); replacing it and reloading its shards`);
    const lostShards = [...this.shardRanges.values()].filter((s) => s.slot === slot);
    const lostLoaded = lostShards.filter((s) => s.loaded).reduce((n, s) => n + s.range.count, 0);
    for (const shard of lostShards) shard.loaded = false;
    for (const [jobId, state] of this.jobs) {
      if (!state.pending.delete(handle)) continue;
      if (loss.reason !== 'lost' && loss.jobId === jobId) {
        this.cancelJob(jobId);
        state.reject(new ChemQueryRefused(loss.reason === 'trap' ? TRAP_MESSAGE : this.stepTimeoutMessage()));
        continue;
      }
      if (loss.reason === 'lost' && loss.jobId === jobId) state.kills += 1;
      if (state.kills >= 2) {
        this.cancelJob(jobId);
        state.reject(new Error(RESTARTED));
        continue;
      }
      const rest = lostShards.map((s) => s.range.shardId).filter((id) => !state.searchedShards.has(id));
      if (rest.length) state.requeued.set(slot, rest);
      else this.settleIfDone(state);
    }
    const replacement = this.newWorker(slot);
    this.workers[slot] = replacement;
    const attempts = (this.recovering.get(slot) ?? 0) + 1;
    this.recovering.set(slot, attempts);
    this.current = {
      ...this.current,
      loaded: this.current.loaded - lostLoaded,
      state: this.current.state === 'ready' || this.current.state === 'recovering' ? 'recovering' : this.current.state,
    };
    if (attempts > MAX_RECOVERIES) {
      // Its shards keep killing workers (a stored structure RDKit cannot take).
      this.giveUpRecovery(slot, `A chemistry worker was lost ${attempts} times in a row while its shards were reloaded.`);
      return;
    }
    void this.recover(
      slot,
      replacement,
      lostShards.map((s) => s.range),
    ).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      this.options.log?.(`chemistry worker ${slot} could not be rebuilt: ${message}`);
      // A later loss of this worker took over its recovery; otherwise nobody else will end it.
      if (this.closed || this.workers[slot] !== replacement) return;
      this.giveUpRecovery(slot, `A chemistry worker could not reload its shards (${message}).`);
    });
  }

  /** Rebuilds a replaced worker's shards from their str_id ranges, then resumes the searches waiting for them. */
  private async recover(slot: number, handle: WorkerHandle, ranges: ShardRange[]): Promise<void> {
    const started = performance.now();
    await handle.ready;
    for (const range of ranges) {
      if (handle.gone || this.closed) return;
      // Dropped by a rebuild (refresh after deletions) meanwhile: nothing to restore.
      if (!this.shardRanges.has(range.shardId)) continue;
      await this.addShard(handle, { ...(await this.loader.reread(range)), range });
    }
    if (handle.gone || this.closed || this.workers[slot] !== handle) return;
    this.recovering.delete(slot);
    this.options.log?.(
      `chemistry worker ${slot} replaced: ${ranges.length} shards reloaded in ${Math.round(performance.now() - started)} ms`,
    );
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
      handle.post({ ...state.body, jobId, limit, shardIds } as ToWorker);
    }
    if (this.recovering.size === 0 && this.current.state === 'recovering') {
      this.current = { ...this.current, state: 'ready' };
      this.allowFragments();
    }
    this.wakeIfRecovered();
  }

  /**
   * The workers may compute the frequent fragments' answers for their shards while idle (once the
   * index is in: not during a load, whose shard builds they would delay).
   */
  private allowFragments(): void {
    if (this.fragmentsOff) return;
    for (const worker of this.workers) worker.post({ type: 'warmFragments' });
  }

  /**
   * Stops waiting for a slot's shards: the engine says `failed` (searches are refused with the reason
   * rather than answered without those shards) until the next refresh rebuilds the whole index.
   */
  private giveUpRecovery(slot: number, reason: string): void {
    this.recovering.delete(slot);
    this.current = { ...this.current, state: 'failed', error: reason };
    for (const state of this.jobs.values()) if (state.requeued.has(slot)) state.reject(new Error(RESTARTED));
    this.wakeIfRecovered();
  }

  private wakeIfRecovered(): void {
    if (this.recovering.size > 0) return;
    const waiters = this.recoveredWaiters;
    this.recoveredWaiters = [];
    for (const wake of waiters) wake();
  }

  private stepTimeoutMessage(): string {
    return `The structure search was stopped on one part of the index: RDKit spent more than ${seconds(this.stepLimitMs)} on ${this.shardSize.toLocaleString('en-US')} structures for this query. The query is too generic or too complex: add atoms or ring detail to the query, or use a similarity search.`;
  }

  private reset(): void {
    this.loader.reset();
    this.shardRanges.clear();
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

  /** Resolves when no worker is being replaced. */
  private recovered(): Promise<void> {
    if (this.recovering.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.recoveredWaiters.push(resolve));
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
        // A replaced worker's shards are back before a new search starts: it would miss them.
        loading
          .then(() => this.recovered())
          .then(() => {
            if (this.current.state === 'failed') throw new Error(this.current.error ?? 'The structure index failed.');
          })
          .then(resolve, reject)
          .finally(() => signal?.removeEventListener('abort', abort));
      });
    } finally {
      if (timer) clearInterval(timer);
    }
  }

  /** Loads structures with ids above those already indexed; the first call loads everything. */
  private async loadNew(): Promise<void> {
    const started = performance.now();
    // Read before the rows: a change in place during the load moves it again, so a refresh sees it.
    if (this.loader.fromStart && this.options.revision) this.loadedRevision = await this.options.revision();
    await Promise.all(this.workers.map((w) => w.ready));
    const total = this.current.loaded + (await this.loader.countAbove(this.loader.lastId));
    this.current = {
      ...this.current,
      state: this.current.state === 'ready' || this.current.state === 'recovering' ? this.current.state : 'loading',
      total,
      error: null,
    };
    // Two shards in flight per worker: the database read of the next overlaps the shard build.
    const inFlight = new Set<Promise<void>>();
    for await (const shard of this.shardSource()) {
      const slot = this.current.shards % this.workers.length;
      const worker = this.workers[slot];
      if (!worker) throw new Error('The chemistry workers stopped.');
      this.current = { ...this.current, shards: this.current.shards + 1 };
      this.shardRanges.set(shard.range.shardId, { range: shard.range, slot, loaded: false });
      const added = this.addShard(worker, shard).finally(() => inFlight.delete(added));
      inFlight.add(added);
      if (inFlight.size >= this.workers.length * 2) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    await this.recovered();
    const recovering = this.recovering.size > 0;
    this.current = {
      ...this.current,
      state: recovering ? 'recovering' : 'ready',
      total: this.current.loaded,
      loadMs: Math.round(performance.now() - started),
      error: null,
    };
    this.options.log?.(
      `structure index: ${this.current.loaded} structures in ${this.current.shards} shards, ${this.current.loadMs} ms${this.snapshotUsed ? ' (from the local snapshot)' : ''}`,
    );
    if (!recovering) this.allowFragments();
    this.warmUp();
  }

  /**
   * Work nobody waits for, once the index is first in: each worker reads and fingerprints a query,
   * then similarity scans (four thresholds and the k nearest) and short substructure searches run over the shards. The first
   * searches after start-up were measured slower than the next ones (≈ 100 ms more at L; at 74,000
   * ChEMBL structures 161 ms against a 10 ms median with one similarity scan as the only warm-up):
   * in each worker V8 compiles RDKit's WebAssembly functions on their first call and optimises the
   * busy ones later. A chemist's first search should not pay for that.
   */
  private warmUp(): void {
    if (this.warmed || this.current.loaded === 0) return;
    this.warmed = true;
    const query: ChemQuery = { kind: 'smiles', text: WARM_UP_SMILES, desalt: true };
    void (async () => {
      await Promise.all(this.workers.map(() => this.describe(query)));
      // Scans at several thresholds, and the k nearest: the scan's loop is optimised by V8 only
      // after some calls (the first probes of a similarity bench at 745,000 structures: 13–36 ms,
      // against a steady 3–12 ms).
      for (const min of [0.5, 0.7, 0.8, 0.9]) await this.similarity(query, { min, max: 1 });
      await this.similarity(query, { min: 0, max: 1 }, { nearest: 100 });
      // The substructure screen and the JavaScript matchers over every shard (a selective search
      // in full), matching with many candidates, and a SMARTS outline with RDKit's verification:
      // measured 200 ms → 6 ms for the first selective search after start at 73,598 structures.
      await this.substructure({ kind: 'smiles', text: 'c1ccc2[nH]ccc2c1', desalt: false });
      await this.substructure(query, { limit: 2_000 });
      await this.substructure({ kind: 'smarts', text: '[#6;R]-[#7]', desalt: false }, { limit: 500 });
    })().catch(() => undefined);
  }

  /**
   * The shards to load: on a load from the first structure, those of the local snapshot when its
   * key holds (index-snapshot.ts), then the database's from where they end; a whole read from the
   * database is written to the snapshot as it passes. Snapshot trouble is logged, never fatal.
   */
  private async *shardSource(): AsyncGenerator<LoadedShard> {
    const snapshot = this.options.snapshot;
    if (this.loader.fromStart) this.snapshotUsed = false;
    const key = snapshot && this.loader.fromStart ? await this.snapshotKey() : null;
    const warn = (message: string, error: unknown) => snapshot?.onError?.(message, error);
    const stored = key
      ? await readIndexSnapshot(snapshot!.file, key).catch(
          (error: unknown) => (warn('The structure index snapshot was not used; reading the database', error), null),
        )
      : null;
    if (stored) {
      this.snapshotUsed = true;
      let last: LoadedShard | null = null;
      let read = 0;
      try {
        for await (const shard of stored.shards) {
          last = shard;
          read += shard.count;
          yield shard;
        }
      } catch (error) {
        // Damaged past its footer: the database gives the rest, and the next start reads it all.
        warn('The structure index snapshot is damaged; the rest of the index comes from the database', error);
        await fs.promises.rm(snapshot!.file, { force: true }).catch(() => undefined);
      }
      if (last) this.loader.continueAfter(last.range, read);
    }
    const writer = key && !stored ? new IndexSnapshotWriter(snapshot!.file, key) : null;
    let complete = false;
    try {
      for await (const shard of this.loader.shards()) {
        writer?.add(shard);
        yield shard;
      }
      complete = true;
    } finally {
      // In the background: a failed write only costs the next start its speed.
      if (writer)
        (complete ? writer.finish() : writer.abort()).catch((error: unknown) =>
          warn('The structure index snapshot was not written', error),
        );
    }
  }

  private async snapshotKey(): Promise<string | null> {
    const version = await this.options.snapshot!.version().catch(() => null);
    return version === null ? null : indexSnapshotKey(this.db, version, this.shardSize);
  }

  private async addShard(worker: WorkerHandle, shard: LoadedShard): Promise<void> {
    const { range, ...payload } = shard;
    let reply: { added?: number; ok?: boolean; error?: string };
    try {
      reply = await worker.request<typeof reply>(
        { type: 'addShard', ...(payload as ShardPayload) },
        Math.max(SHARD_BUILD_MS, this.requestLimitMs),
        [payload.pattern.buffer as ArrayBuffer],
      );
    } catch (error) {
      // The worker went away: its replacement reads this shard again from its range.
      if (error instanceof WorkerLost) return;
      throw error;
    }
    if (reply.ok === false) throw new Error(reply.error ?? 'A shard of the structure index could not be built.');
    const record = this.shardRanges.get(range.shardId);
    if (!record || record.loaded) return;
    record.loaded = true;
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
    await this.recovered();
    // A failed load, or a worker that could not be rebuilt: start over.
    const failed =
      (await this.loading.then(
        () => false,
        () => true,
      )) || this.current.state === 'failed';
    const changed = failed || (await this.revised()) ? 'shrunk' : await this.loader.changed(this.current.loaded);
    if (changed === 'none') return;
    if (changed === 'shrunk') {
      // Structures were deleted or changed in place, or the last load failed: rebuild from scratch.
      // Searches running meanwhile report themselves incomplete (their missing shards are counted).
      await Promise.all(this.workers.map((w) => w.request({ type: 'dropShards' }, SHARD_BUILD_MS).catch(() => undefined)));
      this.reset();
    }
    this.loading = this.track(this.loadNew());
    await this.loading;
  }

  /** The stored structures changed in place since the index read them (`options.revision`). */
  private async revised(): Promise<boolean> {
    if (!this.options.revision || this.loadedRevision === null) return false;
    return (await this.options.revision()) !== this.loadedRevision;
  }

  /** Round-robin; a worker still reloading its shards is skipped while another can answer. */
  private nextWorker(): WorkerHandle {
    this.spawn();
    const n = this.workers.length;
    for (let tried = 0; tried < n; tried++) {
      const worker = this.workers[this.turn++ % n];
      if (worker && !this.recovering.has(worker.slot)) return worker;
    }
    const worker = this.workers[this.turn++ % n];
    if (!worker) throw new Error('The chemistry engine is shut down.');
    return worker;
  }

  /**
   * One request on the next worker. When its worker goes away, the culprit is refused (trap,
   * watchdog) and any other request is sent again to another worker — once: a request on two
   * workers that died fails (never a loop of dying workers).
   */
  private call<T>(message: Request, timeLimitMs = this.requestLimitMs): Promise<T> {
    return this.onOneWorker((send) => send<T>(message, timeLimitMs));
  }

  /**
   * Runs `run` with requests to one worker (a decomposition lives in one worker's memory). When
   * that worker goes away, the culprit request is refused (trap, watchdog) and otherwise `run`
   * starts again from the beginning on another worker — once.
   */
  private async onOneWorker<T>(run: (send: <R>(message: Request, timeLimitMs?: number) => Promise<R>) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const worker = this.nextWorker();
      let lastLimitMs = this.requestLimitMs;
      const send = <R>(message: Request, timeLimitMs = this.requestLimitMs) => {
        lastLimitMs = timeLimitMs;
        return worker.request<R>(message, timeLimitMs);
      };
      try {
        await worker.ready;
        return await run(send);
      } catch (error) {
        if (!(error instanceof WorkerLost) && !(worker.gone && !this.closed)) throw error;
        if (error instanceof WorkerLost && error.culprit) {
          throw new ChemQueryRefused(
            error.loss.reason === 'trap'
              ? TRAP_MESSAGE
              : `RDKit took longer than ${seconds(lastLimitMs)} on this query and was stopped; simplify it.`,
          );
        }
        if (this.closed) throw new ChemSearchCancelled('The server is shutting down.');
        if (attempt >= 2) throw new Error(RESTARTED);
      }
    }
  }

  async describe(query: ChemQuery): Promise<DescribedQuery> {
    checkQueryLimits(query.kind, query.text, this.queryLimits);
    const reply = await this.call<DescribeReply>({ type: 'describe', query, maxAtoms: this.queryLimits.atoms });
    if (!reply.ok) {
      if (reply.tooManyAtoms) throw new ChemQueryRefused(atomsMessage(reply.tooManyAtoms, this.queryLimits.atoms));
      if (reply.internal) throw new Error(reply.error ?? 'RDKit failed.');
      throw new ChemInputError(reply.error ?? 'RDKit could not read the query.');
    }
    return { smiles: reply.smiles, smarts: reply.smarts, atoms: reply.atoms ?? 0, morgan: reply.morgan };
  }

  async depict(input: { kind: 'smiles' | 'smarts' | 'molfile'; text: string }, options: DepictOptions): Promise<string> {
    const limits = options.stored ? this.storedLimits : this.queryLimits;
    checkQueryLimits(input.kind, input.text, limits, options.stored ? 'drawn structure' : 'structure query');
    if (options.highlight) checkQueryLimits(options.highlight.kind, options.highlight.text, this.queryLimits, 'highlight');
    const reply = await this.call<{ ok: boolean; svg?: string; error?: string; internal?: boolean; tooManyAtoms?: number }>({
      type: 'depict',
      kind: input.kind,
      text: input.text,
      width: options.width,
      height: options.height,
      highlight: options.highlight
        ? { kind: options.highlight.kind, text: options.highlight.text, mode: options.highlight.mode ?? 'match' }
        : null,
      maxAtoms: limits.atoms,
    });
    if (!reply.ok || !reply.svg) {
      if (reply.tooManyAtoms)
        throw new ChemQueryRefused(atomsMessage(reply.tooManyAtoms, limits.atoms, options.stored ? 'drawn structure' : 'structure query'));
      if (reply.internal) throw new Error(reply.error ?? 'RDKit failed.');
      throw new ChemInputError(reply.error ?? 'RDKit could not draw the structure.');
    }
    return reply.svg;
  }

  async molblocks(smiles: readonly string[]): Promise<(string | null)[]> {
    if (!smiles.length) return [];
    // Batches across the workers: RDKit's 2D layout is the slow part of an SDF (about 1.5 ms a
    // molecule), and each batch is short enough for the watchdog's limit. A stored SMILES over the
    // stored-structure limits gets no molblock.
    this.spawn();
    const safe = smiles.map((s) => (s && s.length > this.storedLimits.atoms && limitViolation('smiles', s, this.storedLimits) ? '' : s));
    const batches = Array.from({ length: Math.ceil(safe.length / MOLBLOCK_BATCH) }, (_, i) =>
      safe.slice(i * MOLBLOCK_BATCH, (i + 1) * MOLBLOCK_BATCH),
    );
    const replies: (string | null)[][] = new Array(batches.length);
    // As many batches in flight as workers: the queue order stays fair to other requests.
    let next = 0;
    const lane = async () => {
      for (let at = next++; at < batches.length; at = next++) {
        const batch = batches[at]!;
        let reply: { ok: boolean; blocks?: (string | null)[]; error?: string };
        try {
          reply = await this.call({ type: 'molblocks', smiles: batch }, this.requestLimitMs + MOLBLOCK_MS * batch.length);
        } catch (error) {
          if (error instanceof ChemQueryRefused)
            throw new Error(
              `RDKit could not write molblocks for structures ${at * MOLBLOCK_BATCH + 1}–${at * MOLBLOCK_BATCH + batch.length}: ${error.message}`,
            );
          throw error;
        }
        if (!reply.ok || !reply.blocks) throw new Error(reply.error ?? 'RDKit failed to write molblocks.');
        replies[at] = reply.blocks;
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.workers.length, batches.length) }, lane));
    return replies.flat();
  }

  // ---------------------------------------------------------------- SAR work (docs/sar.md)

  /** Stored SMILES for SAR work: at most SAR_MAX_SMILES; one over the stored-structure limits is treated as unreadable (''). */
  private sarInputs(smiles: readonly string[]): string[] {
    if (smiles.length > SAR_MAX_SMILES) throw new ChemInputError(tooManySmiles(smiles.length));
    return smiles.map((s) => (s && limitViolation('smiles', s, this.storedLimits) ? '' : s));
  }

  /**
   * One core without query features (SMILES, molfile): labelled once, decomposed in chunks on every
   * worker with `NoSymmetrization`, symmetric positions resolved over the whole set on the main
   * thread (docs/sar.md "Decomposition"). Several cores, or a SMARTS core: one decomposition on
   * one worker (decomposeOnOneWorker).
   */
  async decompose(cores: ChemQuery[], smiles: readonly string[], options: SarWorkOptions = {}): Promise<RGroupDecompositionResult> {
    if (!cores.length) throw new ChemInputError('Give a core.');
    for (const core of cores) checkQueryLimits(core.kind, core.text, this.queryLimits, 'core');
    const inputs = this.sarInputs(smiles);
    if (cores.length === 1 && cores[0]!.kind !== 'smarts') {
      const labelled = await this.call<SarReply>({ type: 'rgdLabel', core: cores[0]! });
      if (!labelled.ok) throw coreRefused(labelled);
      if (labelled.plain && labelled.core) return this.decomposeInParallel(labelled, inputs, options);
    }
    return this.decomposeOnOneWorker(cores, inputs, chooseStrategy(inputs.length), options);
  }

  private async decomposeInParallel(labelled: SarReply, inputs: string[], options: SarWorkOptions): Promise<RGroupDecompositionResult> {
    const core: ChemQuery = { kind: 'smiles', text: labelled.core!, desalt: false };
    // Every open position of the core is labelled, so R-groups are only looked for at labels
    // (onlyMatchAtRGroups: the same decomposition, ~30 % faster).
    const chunks = await this.inChunks(
      inputs,
      (batch) => ({ type: 'rgdChunk', core, smiles: batch, params: { matchingStrategy: 'NoSymmetrization', onlyMatchAtRGroups: true } }),
      (reply) => reply.groups,
      options,
    );
    const permutations = labelled.permutations ?? [];
    const labels = new Set<number>(permutations.flatMap((pairs) => pairs.map(([from]) => from)));
    for (const row of chunks) if (row) for (const label of Object.keys(row)) labels.add(Number(label.slice(1)));
    const placed = resolveSymmetry(
      chunks,
      [...labels].sort((a, b) => a - b),
      permutations,
    );
    const rename = usedLabels(placed, labelled.given ?? []);
    const { labels: names, rows } = assembleRows(placed, rename);
    if (!rows.some(Boolean)) return { cores: [], labels: [], rows, strategy: 'Greedy' };
    const trimmed = await this.call<SarReply>({ type: 'rgdCore', core: labelled.core!, rename: Object.fromEntries(rename) });
    if (!trimmed.ok || !trimmed.smiles) throw new Error(trimmed.error ?? 'RDKit failed to write the core.');
    return { cores: [trimmed.smiles], labels: names, rows, strategy: 'Greedy' };
  }

  /**
   * One RDKit decomposition of the whole set on one worker (several cores, SMARTS cores; the
   * reference of bench/sar.ts): RDKit's `strategy` resolves symmetry itself.
   */
  async decomposeOnOneWorker(
    cores: ChemQuery[],
    inputs: string[],
    strategy: 'Greedy' | 'NoSymmetrization',
    options: SarWorkOptions = {},
  ): Promise<RGroupDecompositionResult> {
    const { signal, onProgress } = options;
    return this.onOneWorker(async (send) => {
      const started = await send<SarReply>({ type: 'rgdStart', cores, params: { matchingStrategy: strategy } });
      if (!started.ok || started.handle === undefined) throw coreRefused(started);
      const handle = started.handle;
      let open = true;
      try {
        const fits = new Uint8Array(inputs.length);
        // One decomposition for the whole set (symmetry is resolved across it), fed in chunks so
        // progress is reported and a cancel is heard between them.
        for (let at = 0; at < inputs.length; at += SAR_CHUNK) {
          if (signal?.aborted) throw new ChemSearchCancelled('The R-group decomposition was cancelled.');
          const reply = await send<SarReply>(
            { type: 'rgdAdd', handle, smiles: inputs.slice(at, at + SAR_CHUNK) },
            this.requestLimitMs + SAR_ITEM_MS * SAR_CHUNK,
          );
          if (!reply.ok || !reply.fits) throw new Error(reply.error ?? 'RDKit failed during the R-group decomposition.');
          fits.set(reply.fits, at);
          onProgress?.(Math.min(at + SAR_CHUNK, inputs.length), inputs.length);
        }
        if (signal?.aborted) throw new ChemSearchCancelled('The R-group decomposition was cancelled.');
        open = false;
        const finished = await send<SarReply>({ type: 'rgdFinish', handle, anyFit: fits.includes(1) });
        if (!finished.ok || !finished.rows) throw new Error(finished.error ?? 'RDKit failed to finish the R-group decomposition.');
        return { ...assembleDecomposition(fits, finished.rows), strategy };
      } finally {
        if (open) void send({ type: 'rgdDrop', handle }).catch(() => undefined);
      }
    });
  }

  /**
   * List work spread over the workers in chunks (as many in flight as workers, so other requests
   * keep their turn): progress after each chunk, a cancel heard before the next.
   */
  private async inChunks<R>(
    inputs: string[],
    request: (batch: string[]) => Request,
    pick: (reply: SarReply) => R[] | undefined,
    options: SarWorkOptions,
  ): Promise<R[]> {
    if (!inputs.length) return [];
    this.spawn();
    const { signal, onProgress } = options;
    const batches = Array.from({ length: Math.ceil(inputs.length / SAR_CHUNK) }, (_, i) =>
      inputs.slice(i * SAR_CHUNK, (i + 1) * SAR_CHUNK),
    );
    const replies: R[][] = new Array(batches.length);
    let next = 0;
    let done = 0;
    const lane = async () => {
      for (let at = next++; at < batches.length; at = next++) {
        if (signal?.aborted) throw new ChemSearchCancelled('The SAR work was cancelled.');
        const batch = batches[at]!;
        const reply = await this.call<SarReply>(request(batch), this.requestLimitMs + SAR_ITEM_MS * batch.length);
        const part = pick(reply);
        if (!reply.ok || !part) {
          if (reply.tooManyAtoms) throw new ChemQueryRefused(atomsMessage(reply.tooManyAtoms, this.queryLimits.atoms));
          if (reply.internal || reply.ok) throw new Error(reply.error ?? 'RDKit failed.');
          throw new ChemInputError(reply.error ?? 'RDKit could not read the query.');
        }
        replies[at] = part;
        done += batch.length;
        // After a cancel, a chunk still in flight on another worker is not reported.
        if (!signal?.aborted) onProgress?.(done, inputs.length);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.workers.length, batches.length) }, lane));
    if (signal?.aborted) throw new ChemSearchCancelled('The SAR work was cancelled.');
    return replies.flat();
  }

  async scaffolds(smiles: readonly string[], options: SarWorkOptions = {}): Promise<(string | null)[]> {
    return this.inChunks(
      this.sarInputs(smiles),
      (batch) => ({ type: 'scaffolds', smiles: batch }),
      (reply) => reply.scaffolds,
      options,
    );
  }

  async contains(query: ChemQuery, smiles: readonly string[], options: SarWorkOptions = {}): Promise<boolean[]> {
    checkQueryLimits(query.kind, query.text, this.queryLimits);
    const inputs = this.sarInputs(smiles);
    const hits = await this.inChunks(
      inputs,
      (batch) => ({ type: 'contains', query, smiles: batch, maxAtoms: this.queryLimits.atoms }),
      (reply) => (reply.hits ? Array.from(reply.hits) : undefined),
      options,
    );
    return hits.map((hit) => hit === 1);
  }

  /**
   * Cuts are a pure function of the SMILES: the ones known are answered from memory (FRAGMENTS_CACHED
   * SMILES, least recently used out first), only the others are cut (docs/sar.md "Matched molecular pairs").
   */
  async fragments(smiles: readonly string[], options: SarWorkOptions = {}): Promise<SingleCut[][]> {
    const inputs = this.sarInputs(smiles);
    const answers: (SingleCut[] | undefined)[] = inputs.map((s) => {
      const known = this.fragmentCache.get(s);
      if (known) {
        this.fragmentCache.delete(s);
        this.fragmentCache.set(s, known);
      }
      return known;
    });
    const missing = [...new Set(inputs.filter((_, i) => answers[i] === undefined))];
    const cut = await this.inChunks(
      missing,
      (batch) => ({ type: 'fragments', smiles: batch }),
      (reply) => reply.cuts,
      {
        ...options,
        onProgress: options.onProgress && ((done) => options.onProgress!(inputs.length - missing.length + done, inputs.length)),
      },
    );
    const fresh = new Map(missing.map((s, i) => [s, cut[i] ?? []]));
    for (const [s, cuts] of fresh) {
      this.fragmentCache.set(s, cuts);
      if (this.fragmentCache.size > FRAGMENTS_CACHED) this.fragmentCache.delete(this.fragmentCache.keys().next().value as string);
    }
    options.onProgress?.(inputs.length, inputs.length);
    return inputs.map((s, i) => answers[i] ?? fresh.get(s) ?? []);
  }

  /**
   * Test hooks only: the cuts as the worker made them before (every half read again and
   * canonicalised), without the cut cache: the reference of the parity test and the bench.
   */
  async referenceFragments(smiles: readonly string[], options: SarWorkOptions = {}): Promise<SingleCut[][]> {
    if (!this.options.testHooks) throw new Error('test hooks are off');
    return this.inChunks(
      this.sarInputs(smiles),
      (batch) => ({ type: 'fragments', smiles: batch, reference: true }),
      (reply) => reply.cuts,
      options,
    );
  }

  async pairDifferences(
    pairs: readonly (readonly [string, string])[],
    options: SarWorkOptions & { core?: string | null; timeoutSeconds?: number; budgetMs?: number } = {},
  ): Promise<(PairDifference | null)[]> {
    const inputs = this.sarInputs(pairs.flat());
    if (options.core) checkQueryLimits('smiles', options.core, this.queryLimits, 'core');
    this.spawn();
    const timeoutSeconds = Math.min(MCS_PAIR_MAX_SECONDS, Math.max(1, Math.round(options.timeoutSeconds ?? 1)));
    const deadline = Date.now() + (options.budgetMs ?? 4_000);
    const answers: (PairDifference | null)[] = pairs.map(() => null);
    const tried = new Uint8Array(pairs.length);
    const pairAt = (i: number): [string, string] => [inputs[2 * i]!, inputs[2 * i + 1]!];
    let next = 0;
    // One pair a call, as many at once as workers: FMCS until the budget is spent…
    const lane = async () => {
      while (next < pairs.length && Date.now() < deadline) {
        if (options.signal?.aborted) throw new ChemSearchCancelled('The SAR work was cancelled.');
        const at = next++;
        // FMCS rounds on the remainders (after the pair's own) end by the budget plus one RDKit limit, as the page does.
        const extraMs = Math.max(0, deadline - Date.now()) + timeoutSeconds * 1000;
        const reply = await this.call<SarReply>(
          { type: 'pairDifferences', pairs: [pairAt(at)], core: options.core ?? null, timeoutSeconds, mcs: true, extraMs },
          this.requestLimitMs + extraMs,
        );
        if (reply.ok && reply.differences) answers[at] = reply.differences[0] ?? null;
        tried[at] = 1;
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, this.workers.length) }, lane));
    // …then the fast fallbacks (milliseconds a pair) for the pairs not reached.
    const rest = pairs.flatMap((_, i) => (tried[i] ? [] : [i]));
    for (let at = 0; at < rest.length; at += SAR_CHUNK) {
      const chunk = rest.slice(at, at + SAR_CHUNK);
      const reply = await this.call<SarReply>(
        { type: 'pairDifferences', pairs: chunk.map(pairAt), core: options.core ?? null, timeoutSeconds, mcs: false },
        this.requestLimitMs + SAR_ITEM_MS * chunk.length,
      );
      if (reply.ok && reply.differences) chunk.forEach((i, k) => (answers[i] = reply.differences![k] ?? null));
    }
    options.onProgress?.(pairs.length, pairs.length);
    return answers;
  }

  async mcs(
    smiles: readonly string[],
    options: SarWorkOptions & { timeoutSeconds?: number; completeRings?: boolean } = {},
  ): Promise<{ smarts: string; smiles: string | null; timedOut: boolean } | null> {
    const { sample, timeoutSeconds } = mcsSample(this.sarInputs(smiles), options.timeoutSeconds);
    if (sample.length < 2) return null;
    if (options.signal?.aborted) throw new ChemSearchCancelled('The SAR work was cancelled.');
    const reply = await this.call<SarReply>(
      { type: 'mcs', smiles: sample, timeoutSeconds, completeRings: options.completeRings ?? true },
      this.requestLimitMs + timeoutSeconds * 1000,
    );
    if (!reply.ok) throw new Error(reply.error ?? 'RDKit failed to find the maximum common substructure.');
    options.onProgress?.(smiles.length, smiles.length);
    return reply.smarts ? { smarts: reply.smarts, smiles: reply.smiles ?? null, timedOut: reply.timedOut === true } : null;
  }

  async zip(core: string, rgroups: Record<string, string | null>): Promise<string> {
    const input = zipInput(core, rgroups);
    checkQueryLimits('smiles', core, this.queryLimits, 'core');
    for (const group of input.groups) checkQueryLimits('smiles', group, this.queryLimits, 'R-group');
    const joined = joinedViolation([core, ...input.groups], this.storedLimits);
    if (joined) throw new ChemQueryRefused(joined);
    const reply = await this.call<SarReply>({ type: 'zip', core, rgroups: input.groups.join('.') });
    if (!reply.ok || !reply.smiles) {
      if (reply.internal) throw new Error(reply.error ?? 'RDKit failed.');
      throw new ChemInputError(reply.error ?? 'RDKit could not join the R-groups to the core.');
    }
    return reply.smiles;
  }

  async substructure(query: ChemQuery, options: SearchOptions = {}): Promise<StructureHits> {
    // Checked first on one worker: a bad query is a 400 before any work, not N worker failures.
    const described = await this.describe(query);
    return {
      ...(await this.runJob({ type: 'substructure', query, maxAtoms: this.queryLimits.atoms, ...candidatesOf(options) }, options)),
      query: described,
    };
  }

  async similarity(query: ChemQuery, range: { min: number; max: number }, options: SearchOptions = {}): Promise<StructureHits> {
    if (query.kind === 'smarts')
      throw new ChemInputError('Similarity compares whole molecules: enter a SMILES or a molfile, not a SMARTS pattern.');
    const described = await this.describe(query);
    if (!described.morgan) throw new ChemInputError('RDKit could not compute a fingerprint for the query.');
    // Every hit is needed to know the most similar ones: a first page is cut after sorting.
    const nearest = options.nearest && options.nearest > 0 ? { nearest: options.nearest } : {};
    const found = sortBySimilarity(
      await this.runJob(
        { type: 'similarity', morgan: described.morgan, min: range.min, max: range.max, ...nearest, ...candidatesOf(options) },
        { ...options, limit: 0 },
      ),
    );
    // Each worker sends what passed its own k-th best: the nearest of all are the first k.
    const hits = { ...(nearest.nearest ? firstOf(found, nearest.nearest) : found), query: described };
    const limit = options.limit ?? 0;
    return limit > 0 ? { ...firstOf(hits, limit), total: hits.total } : hits;
  }

  /**
   * Test hooks (constructor option `testHooks`; nothing over HTTP reaches them): make one worker
   * trap or spin past its time limit, in a request of its own (`request`) or in the steps of a
   * substructure search of `query` on the first worker (`search`).
   */
  async testHook(mode: 'trap' | 'spin', where: 'request' | 'search', query?: ChemQuery): Promise<unknown> {
    if (!this.options.testHooks) throw new Error('test hooks are off');
    if (where === 'request') return this.call({ type: 'test', mode });
    const q = query ?? { kind: 'smiles', text: 'C', desalt: true };
    return this.runJob({ type: 'substructure', query: q, maxAtoms: this.queryLimits.atoms }, {}, mode);
  }

  private async runJob(body: JobBody, options: SearchOptions, test?: 'trap' | 'spin'): Promise<StructureHits> {
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
      body,
      pending: new Set(this.workers),
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
      this.cancelJob(jobId);
      state.reject(new ChemSearchCancelled('The structure search was cancelled.'));
    };
    signal?.addEventListener('abort', cancel, { once: true });
    // A test job traps or spins on the first worker only: the others are the bystanders.
    this.workers.forEach((worker, i) => worker.post({ ...body, jobId, limit: stopAt, ...(test && i === 0 ? { test } : {}) } as ToWorker));
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

  private cancelJob(jobId: number): void {
    for (const worker of this.workers) worker.post({ type: 'cancel', jobId });
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

  private onJobMessage(handle: WorkerHandle, message: FromWorker): void {
    if (message.type !== 'hits' && message.type !== 'done' && message.type !== 'failed') return;
    const state = this.jobs.get(message.jobId);
    if (!state) return;
    if (message.type === 'failed') {
      this.cancelJob(message.jobId);
      state.reject(new ChemInputError(message.error));
      return;
    }
    if (message.type === 'hits') {
      this.addHits(state, message);
      state.onProgress?.({ phase: 'search', searched: state.searched, total: this.current.total || this.current.loaded, hits: state.hits });
      // A first page: enough hits, stop the other shards.
      if (state.stopAt > 0 && state.hits >= state.stopAt) this.cancelJob(message.jobId);
      return;
    }
    if (message.error) {
      this.cancelJob(message.jobId);
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

  async close(): Promise<void> {
    this.closed = true;
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    this.refreshTimer = null;
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
    for (const state of this.jobs.values()) state.reject(new ChemSearchCancelled('The server is shutting down.'));
    const workers = this.workers;
    this.workers = [];
    for (const wake of this.recoveredWaiters) wake();
    this.recoveredWaiters = [];
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

/** The first `n` hits of sorted ones (`total` is then theirs). */
function firstOf(hits: StructureHits, n: number): StructureHits {
  if (hits.ids.length <= n) return hits;
  return { ...hits, ids: hits.ids.subarray(0, n), similarities: hits.similarities?.subarray(0, n), total: hits.total === null ? null : n };
}

/** A search's candidate restriction as sent to the workers (ascending, as they binary-search it). */
function candidatesOf(options: SearchOptions): { candidates?: Float64Array } {
  const { candidates } = options;
  if (!candidates) return {};
  for (let i = 1; i < candidates.length; i++) {
    if (candidates[i - 1]! >= candidates[i]!) return { candidates: Float64Array.from(new Set(candidates)).sort() };
  }
  return { candidates };
}
