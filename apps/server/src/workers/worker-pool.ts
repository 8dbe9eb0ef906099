import type { Transferable } from 'node:worker_threads';
import { WorkerThread } from './worker-thread.ts';
import type { WorkerThreadOptions } from './worker-thread.ts';

export interface WorkerPoolOptions<Out> extends Omit<WorkerThreadOptions<Out>, 'onLost'> {
  /** Threads in the pool (at least one). */
  size: number;
  /** Start each thread when a request first needs it (default: all at once). */
  lazy?: boolean;
  /**
   * A request running longer than this (from when a thread takes it) is rejected with
   * `timeoutError(context)` and its thread ended: a fresh one takes the next request.
   */
  timeoutMs?: number;
  timeoutError?: (context: unknown) => Error;
  /** A pool with nothing to do for this long ends its threads (started again when needed). */
  idleMs?: number;
}

interface Job {
  message: object;
  transfer?: Transferable[];
  context?: unknown;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * A fixed number of worker threads (worker-thread.ts) and a queue: each thread runs one request
 * at a time, the next request waiting goes to the first thread free, and a thread that stopped
 * (a crash, a timeout) is started again for the next request.
 */
export class WorkerPool<In extends object, Out = unknown> {
  private readonly threads: (WorkerThread<In, Out> | null)[];
  private readonly running: boolean[];
  private readonly queue: Job[] = [];
  private idleTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions<Out>) {
    const size = Math.max(1, options.size);
    this.threads = Array.from({ length: size }, () => (options.lazy ? null : this.start()));
    this.running = this.threads.map(() => false);
  }

  get size(): number {
    return this.threads.length;
  }

  /** Requests waiting for a free thread (not counting those running). */
  get waiting(): number {
    return this.queue.length;
  }

  /** Resolves once every thread is ready (starting those not started); rejects if one stops first. */
  async ready(): Promise<void> {
    await Promise.all(this.threads.map((_, slot) => this.threadAt(slot).ready));
  }

  /** Runs `message` on the first free thread, after the requests already waiting. */
  request<R>(message: In, options: { transfer?: Transferable[]; context?: unknown } = {}): Promise<R> {
    if (this.closed) return Promise.reject(new Error(`The ${this.options.name} is closed.`));
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ message, ...options, resolve: resolve as (value: unknown) => void, reject });
      this.pump();
    });
  }

  /** Ends every thread: waiting and running requests are rejected with `reason`. */
  async close(reason: Error = new Error(`The ${this.options.name} was closed.`)): Promise<void> {
    this.closed = true;
    this.clearIdle();
    for (const job of this.queue.splice(0)) job.reject(reason);
    const threads = [...this.threads];
    this.threads.fill(null);
    await Promise.all(threads.map((thread) => thread?.close(reason)));
  }

  private start(): WorkerThread<In, Out> {
    return new WorkerThread<In, Out>(this.options);
  }

  private threadAt(slot: number): WorkerThread<In, Out> {
    const thread = this.threads[slot];
    if (thread && !thread.gone) return thread;
    const fresh = this.start();
    this.threads[slot] = fresh;
    return fresh;
  }

  private pump(): void {
    for (let slot = 0; slot < this.threads.length && this.queue.length > 0 && !this.closed; slot++) {
      if (!this.running[slot]) this.run(slot, this.queue.shift()!);
    }
    if (this.queue.length === 0 && !this.running.includes(true)) this.scheduleIdle();
  }

  private run(slot: number, job: Job): void {
    this.clearIdle();
    const thread = this.threadAt(slot);
    this.running[slot] = true;
    let timedOut = false;
    const timer =
      this.options.timeoutMs === undefined
        ? null
        : setTimeout(() => {
            timedOut = true;
            const error = this.options.timeoutError?.(job.context) ?? new Error(`The ${this.options.name} took too long.`);
            job.reject(error);
            // The thread may be stuck in the request: a fresh one takes the next.
            if (this.threads[slot] === thread) this.threads[slot] = null;
            void thread.close(error);
            this.running[slot] = false;
            this.pump();
          }, this.options.timeoutMs);
    thread
      .request(job.message as In, { transfer: job.transfer, context: job.context })
      .then(job.resolve, job.reject)
      .finally(() => {
        if (timer) clearTimeout(timer);
        if (timedOut) return;
        this.running[slot] = false;
        this.pump();
      });
  }

  private scheduleIdle(): void {
    if (this.options.idleMs === undefined || this.idleTimer || this.closed || !this.threads.some(Boolean)) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.queue.length > 0 || this.running.includes(true)) return;
      for (let slot = 0; slot < this.threads.length; slot++) {
        const thread = this.threads[slot];
        this.threads[slot] = null;
        void thread?.close();
      }
    }, this.options.idleMs);
    this.idleTimer.unref();
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }
}
