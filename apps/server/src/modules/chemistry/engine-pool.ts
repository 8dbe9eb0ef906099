import os from 'node:os';
import { ChemQueryRefused, ChemSearchCancelled } from './chem-engine.ts';
import { WorkerHandle, WorkerLost, seconds } from './engine-worker.ts';
import type { Loss } from './engine-worker.ts';
import { WARM_JOB_ID } from './worker-protocol.ts';
import type { FromWorker, ReplyTo, WorkerRequest } from './worker-protocol.ts';

export const RESTARTED = 'The chemistry engine restarted twice during this request; please run it again.';
export const TRAP_MESSAGE = 'RDKit could not process this query (it stopped with an internal error); simplify it.';
/** How often the watchdog looks at what each worker is running. */
const WATCHDOG_MS = 100;

export interface EnginePoolSettings {
  /** Worker threads (default: every core). */
  workers?: number;
  testHooks: boolean;
  keepRecentAnswers: boolean;
  nice: number;
  requestLimitMs: number;
  stepLimitMs: number;
  log?: (message: string) => void;
}

/** A function that sends requests to one worker (onOneWorker). */
export type Send = <M extends WorkerRequest>(message: M, timeLimitMs?: number) => Promise<ReplyTo<M>>;

/**
 * The engine's worker threads (engine-worker.ts): started one per core, the watchdog that stops a
 * request or search step past its time, requests sent round-robin (a worker being replaced is
 * skipped) and sent again once when their worker is lost, and the book of slots being replaced.
 * What a loss does to the index and the searches is the engine's (rdkit-engine.ts `onWorkerLost`).
 */
export class EnginePool {
  workers: WorkerHandle[] = [];
  /** Worker slots being replaced → how many times in a row. */
  private readonly recovering = new Map<number, number>();
  private recoveredWaiters: (() => void)[] = [];
  private turn = 0;
  private watchdog: NodeJS.Timeout | null = null;
  closed = false;
  /** Set when a worker was lost computing the frequent fragments: they are not computed ahead any more. */
  fragmentsOff = false;

  constructor(
    private readonly settings: EnginePoolSettings,
    private readonly events: {
      onJobMessage: (handle: WorkerHandle, message: FromWorker) => void;
      onLost: (handle: WorkerHandle, loss: Loss) => void;
    },
  ) {}

  private newWorker(slot: number): WorkerHandle {
    const { testHooks, keepRecentAnswers, nice } = this.settings;
    return new WorkerHandle(
      slot,
      { testHooks, keepRecentAnswers, nice },
      (handle, message) => this.events.onJobMessage(handle, message),
      (handle, loss) => this.events.onLost(handle, loss),
    );
  }

  spawn(): void {
    if (this.workers.length || this.closed) return;
    const size = Math.max(1, this.settings.workers ?? os.availableParallelism());
    for (let i = 0; i < size; i++) this.workers.push(this.newWorker(i));
    // The watchdog: a request or a search step past its time is stopped from this thread (RDKit
    // cannot be interrupted from inside, and limits checked between shards come too late).
    this.watchdog ??= setInterval(() => this.watch(), WATCHDOG_MS);
    this.watchdog.unref();
  }

  private watch(): void {
    for (const handle of this.workers) {
      const running = handle.limitOfRunning(this.settings.stepLimitMs);
      if (!running?.over) continue;
      this.settings.log?.(
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

  /** The slot of a worker still in the pool, else -1. */
  slotOf(handle: WorkerHandle): number {
    return this.workers.indexOf(handle);
  }

  /** A new worker in a lost one's slot; returns it and how many times in a row the slot was replaced. */
  replace(slot: number): { replacement: WorkerHandle; attempts: number } {
    const replacement = this.newWorker(slot);
    this.workers[slot] = replacement;
    const attempts = (this.recovering.get(slot) ?? 0) + 1;
    this.recovering.set(slot, attempts);
    return { replacement, attempts };
  }

  /**
   * A worker lost while computing the frequent fragments: the replacement would warm the same shard
   * and be lost the same way, without end. Answers whether this turned them off.
   */
  lostWarming(loss: Loss): boolean {
    if (loss.reason === 'lost' || loss.jobId !== WARM_JOB_ID || this.fragmentsOff) return false;
    this.fragmentsOff = true;
    return true;
  }

  /** The slot's shards are back (or will not be waited for any more); `wakeIfRecovered` then wakes the waiters. */
  endRecovery(slot: number): void {
    this.recovering.delete(slot);
  }

  get recoveringCount(): number {
    return this.recovering.size;
  }

  /** Resolves when no worker is being replaced. */
  recovered(): Promise<void> {
    if (this.recovering.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.recoveredWaiters.push(resolve));
  }

  wakeIfRecovered(): void {
    if (this.recovering.size > 0) return;
    const waiters = this.recoveredWaiters;
    this.recoveredWaiters = [];
    for (const wake of waiters) wake();
  }

  /**
   * The workers may compute the frequent fragments' answers for their shards while idle (once the
   * index is in: not during a load, whose shard builds they would delay).
   */
  allowFragments(): void {
    if (this.fragmentsOff) return;
    for (const worker of this.workers) worker.post({ type: 'warmFragments' });
  }

  /** Every worker reported its shards (this many per slot) hold the frequent fragments' answers. */
  fragmentsWarmed(shardsPerSlot: Map<number, number>): boolean {
    return !this.fragmentsOff && this.workers.every((w) => w.warmedShards === (shardsPerSlot.get(w.slot) ?? 0));
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
  call<M extends WorkerRequest>(message: M, timeLimitMs = this.settings.requestLimitMs): Promise<ReplyTo<M>> {
    return this.onOneWorker((send) => send(message, timeLimitMs));
  }

  /**
   * Runs `run` with requests to one worker (a decomposition lives in one worker's memory). When
   * that worker goes away, the culprit request is refused (trap, watchdog) and otherwise `run`
   * starts again from the beginning on another worker — once.
   */
  async onOneWorker<T>(run: (send: Send) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const worker = this.nextWorker();
      let lastLimitMs = this.settings.requestLimitMs;
      const send: Send = (message, timeLimitMs = this.settings.requestLimitMs) => {
        lastLimitMs = timeLimitMs;
        return worker.request(message, timeLimitMs);
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

  /** Work spread over the workers: as many lanes as workers (at most `items`), each taking the next item. */
  async lanes(items: number, lane: () => Promise<void>, atLeastOne = false): Promise<void> {
    const count = atLeastOne ? Math.max(1, this.workers.length) : Math.min(this.workers.length, items);
    await Promise.all(Array.from({ length: count }, lane));
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
    const workers = this.workers;
    this.workers = [];
    for (const wake of this.recoveredWaiters) wake();
    this.recoveredWaiters = [];
    await Promise.all(workers.map((w) => w.stop()));
  }
}
