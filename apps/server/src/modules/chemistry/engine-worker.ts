import type { Worker } from 'node:worker_threads';
import { WorkerThread } from '../../workers/worker-thread.ts';
import { ChemSearchCancelled } from './chem-engine.ts';
import { compiledRdkit } from './wasm-compile.ts';
import { BUSY_REQUEST, BUSY_STEP } from './worker-protocol.ts';
import type { FromWorker, RdkitModuleMessage, ReplyTo, ToWorker, WorkerData, WorkerRequest } from './worker-protocol.ts';

/** The chemistry worker's entry: the dispatcher of worker/ (README.md, its file table). */
const WORKER_URL = new URL('./chem-worker.mjs', import.meta.url);

/** Why a worker went away, and what it was running then. */
export interface Loss {
  reason: 'trap' | 'timeout' | 'lost';
  detail: string;
  /** The request or job that caused it (trap, timeout), or was running when it died (lost). */
  requestId?: number;
  jobId?: number;
}

/** A request that was on a worker when it went away. */
export class WorkerLost extends Error {
  constructor(
    readonly loss: Loss,
    /** This request caused it (trap or timeout). */
    readonly culprit: boolean,
  ) {
    super(loss.detail);
  }
}

export const seconds = (ms: number) => (ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`);

type ToThread = WorkerRequest | Exclude<ToWorker, { requestId: number }> | RdkitModuleMessage;

/**
 * One worker thread of the engine (workers/worker-thread.ts: request ids, replies, pending requests
 * rejected when it goes away) with its heartbeat: what it is running, since when, for the watchdog.
 */
export class WorkerHandle {
  private readonly thread: WorkerThread<ToThread, FromWorker>;
  readonly ready: Promise<void>;
  private readonly heartbeat = new SharedArrayBuffer(16);
  private readonly busyIds = new Int32Array(this.heartbeat, 0, 2);
  private readonly busySince = new Float64Array(this.heartbeat, 8, 1);
  /** How many shards this worker had when all of them held the frequent fragments' answers (worker/known-answers.mjs). */
  warmedShards = -1;
  /** Set when the watchdog stops it or it reports a trap: decides what `lost` blames. */
  private cause: Loss | null = null;
  /** What the loss is blamed on, fixed when the thread went away. */
  private loss: Loss | null = null;

  constructor(
    readonly slot: number,
    flags: Pick<WorkerData, 'testHooks' | 'keepRecentAnswers' | 'nice'>,
    onJobMessage: (handle: WorkerHandle, message: FromWorker) => void,
    onLost: (handle: WorkerHandle, loss: Loss) => void,
  ) {
    const { nice, ...rest } = flags;
    const workerData: WorkerData = { heartbeat: this.heartbeat, ...rest, sharedRdkit: true, warmFragments: true };
    // A worker that dies (trap, watchdog, out of memory) answers nothing more: its requests are
    // settled by the thread (the culprit with its reason, the others to be sent again) and the
    // engine replaces it.
    const lossOf = (cause: Error): Loss => (this.loss ??= this.cause ?? { reason: 'lost', detail: cause.message, ...this.running() });
    this.thread = new WorkerThread<ToThread, FromWorker>({
      url: WORKER_URL,
      name: 'chemistry worker',
      workerData,
      nice,
      idKey: 'requestId',
      exitMessage: (code) => `chemistry worker exited with code ${code}`,
      isReady: (message) => message.type === 'ready',
      reply: (message) => (message.type === 'reply' ? { id: message.requestId, value: message.result } : null),
      onMessage: (message) => {
        if (message.type === 'warmed') this.warmedShards = message.shards;
        else if (message.type === 'trap')
          this.stopFor({ reason: 'trap', detail: message.error, requestId: message.requestId, jobId: message.jobId });
        else onJobMessage(this, message);
      },
      lostError: (cause, _timeLimit, requestId) => {
        const loss = lossOf(cause);
        return new WorkerLost(loss, loss.reason !== 'lost' && loss.requestId === requestId);
      },
      onLost: (cause) => onLost(this, lossOf(cause)),
    });
    this.ready = this.thread.ready.catch((error: Error) => {
      throw /exited with code/.test(error.message) ? new Error('The chemistry worker stopped while starting.') : error;
    });
    this.ready.catch(() => undefined);
    // RDKit compiled once for all workers (wasm-compile.ts); the worker waits for it before anything else.
    void compiledRdkit().then((module) => this.thread.post({ type: 'rdkit', module }));
  }

  /** The thread itself (a test kills it from outside, as an out-of-memory would). */
  get worker(): Worker {
    return this.thread.worker;
  }

  get gone(): boolean {
    return this.thread.gone;
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
      const limitMs = (this.thread.contextOf(now.requestId) as number | undefined) ?? stepLimitMs;
      return { over: now.ms > limitMs, requestId: now.requestId, limitMs };
    }
    if (now.jobId !== undefined) return { over: now.ms > stepLimitMs, jobId: now.jobId, limitMs: stepLimitMs };
    return null;
  }

  /** Ends the thread, blaming `cause` (trap reported by the worker, or the watchdog). */
  stopFor(cause: Loss): void {
    if (this.gone || this.cause) return;
    this.cause = cause;
    void this.thread.terminate();
  }

  /** A request and its typed reply (worker-protocol.ts `Replies`); the watchdog stops it after `timeLimitMs`. */
  request<M extends WorkerRequest>(message: M, timeLimitMs: number, transfer: ArrayBuffer[] = []): Promise<ReplyTo<M>> {
    if (this.gone) return Promise.reject(new WorkerLost({ reason: 'lost', detail: 'worker gone' }, false));
    return this.thread.request<ReplyTo<M>>(message, { transfer, context: timeLimitMs });
  }

  post(message: Exclude<ToWorker, { requestId: number }>): void {
    this.thread.post(message);
  }

  async stop(): Promise<void> {
    await this.thread.close(new ChemSearchCancelled('The server is shutting down.'));
  }
}
