import { Worker } from 'node:worker_threads';
import type { ResourceLimits, Transferable } from 'node:worker_threads';

/**
 * One worker thread spoken to by request and reply (docs/architecture.md "Worker threads"): the
 * common base of every place the server starts a thread. It starts the thread (workerData,
 * resource limits, flags, nice), numbers each request and settles it with the reply that carries
 * its number, rejects every pending request when the thread errs or exits, and terminates it on
 * close. What a site adds on top (a watchdog, replacing a lost thread, a queue) stays the site's.
 *
 * `In` is what the thread is sent (without the request id, which is added under `idKey`), `Out`
 * what it sends back (replies and any other message).
 */
/** A message read as the reply to request `id`: settled with `value`, or rejected with `error`. */
export interface ThreadReply {
  id: number;
  value?: unknown;
  error?: Error | undefined;
}

export interface WorkerThreadOptions<Out> {
  /** The worker's module (a `.mjs` beside its site: threads start without the TypeScript loader). */
  url: URL;
  /** What it is called in errors: "The {name} stopped (exit code 1).", "The {name} was closed." */
  name: string;
  /** The error message when the thread exits by itself (default: "The {name} stopped (exit code {code})."). */
  exitMessage?: (code: number) => string;
  workerData?: unknown;
  resourceLimits?: ResourceLimits;
  /** The thread's Node flags (default: the process's own, as Node does). */
  execArgv?: string[];
  /**
   * The thread runs at this nice value (Linux; 0 or absent: the process's own). Sent as
   * `workerData.nice` (workerData must then be an object or absent); the worker applies it with
   * `applyNice` (thread-nice.mjs), since Linux sets nice per thread, from inside it.
   */
  nice?: number;
  /** The key the request id travels under, out and back (default `id`). */
  idKey?: string;
  /**
   * Which message says the thread is ready (`ready` resolves then). Absent: ready at once. A thread
   * that errs or exits first rejects `ready`.
   */
  isReady?: (message: Out) => boolean;
  /**
   * Reads a message as the reply to a request: its id, and its value or the error to reject with;
   * null when it is not a reply (it goes to `onMessage`). Default: a message carrying a numeric
   * `idKey` is the reply, whole.
   */
  reply?: (message: Out) => ThreadReply | null;
  /** Messages that are neither the ready message nor a reply. */
  onMessage?: (message: Out) => void;
  /**
   * The error a pending request is rejected with when the thread errs or exits (default: the
   * cause); `context` is what the request was sent with.
   */
  lostError?: (cause: Error & { code?: string }, context: unknown, id: number) => Error;
  /** Called once when the thread errs or exits without `close` (after its requests were rejected). */
  onLost?: (cause: Error & { code?: string }) => void;
  /**
   * Whether the thread keeps the process alive: always (Node's default), never, or only while a
   * request is pending (an idle thread never holds up a stopping process; a call does).
   */
  keepAlive?: 'always' | 'never' | 'while-busy';
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  context: unknown;
}

export class WorkerThread<In extends object, Out = unknown> {
  readonly worker: Worker;
  /** Resolves on the thread's ready message (at once without `isReady`); rejects if it stops first. */
  readonly ready: Promise<void>;
  private readonly pending = new Map<number, Pending>();
  private readonly idKey: string;
  private nextId = 1;
  private stopped: Error | null = null;
  private closedByUs = false;
  private readonly notStarted: (error: Error) => void;

  constructor(private readonly options: WorkerThreadOptions<Out>) {
    this.idKey = options.idKey ?? 'id';
    const workerData = options.nice ? { ...(options.workerData as object | undefined), nice: options.nice } : options.workerData;
    this.worker = new Worker(options.url, {
      workerData,
      ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
      ...(options.execArgv ? { execArgv: options.execArgv } : {}),
    });
    if (options.keepAlive === 'never' || options.keepAlive === 'while-busy') this.worker.unref();
    let started!: { resolve: () => void; reject: (error: Error) => void };
    this.ready = new Promise<void>((resolve, reject) => {
      started = { resolve, reject };
    });
    this.ready.catch(() => undefined);
    this.notStarted = started.reject;
    if (!options.isReady) started.resolve();
    const readReply = options.reply ?? ((message: Out): ThreadReply | null => this.defaultReply(message));
    this.worker.on('message', (message: Out) => {
      if (this.stopped) return;
      if (options.isReady?.(message)) return started.resolve();
      const reply = readReply(message);
      if (!reply) return options.onMessage?.(message);
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      this.idleIfDone();
      if (reply.error) waiting.reject(reply.error);
      else waiting.resolve(reply.value);
    });
    const lost = (cause: Error & { code?: string }) => {
      if (this.stopped) return;
      this.stopped = cause;
      started.reject(cause);
      const pending = [...this.pending];
      this.pending.clear();
      for (const [id, waiting] of pending) waiting.reject(options.lostError?.(cause, waiting.context, id) ?? cause);
      if (!this.closedByUs) options.onLost?.(cause);
    };
    this.worker.on('error', lost);
    this.worker.on('exit', (code) => lost(new Error(options.exitMessage?.(code) ?? `The ${options.name} stopped (exit code ${code}).`)));
  }

  /** Why the thread stopped (an error, an exit, or `close`), null while it runs. */
  get failure(): Error | null {
    return this.stopped;
  }

  /** The thread stopped or was closed: it answers nothing more. */
  get gone(): boolean {
    return this.stopped !== null;
  }

  /** Requests sent and not answered yet. */
  get busy(): number {
    return this.pending.size;
  }

  /** What a pending request was sent with (`context`), or undefined when it is not pending. */
  contextOf(id: number): unknown {
    return this.pending.get(id)?.context;
  }

  /**
   * Sends `message` with the next request id (under `options.idKey`, default the thread's) and
   * resolves with its reply's value. Rejects at once when the thread is gone, and when it errs or
   * exits before answering.
   */
  request<R>(message: In, options: { transfer?: Transferable[]; context?: unknown; idKey?: string } = {}): Promise<R> {
    if (this.stopped) return Promise.reject(this.options.lostError?.(this.stopped, options.context, 0) ?? this.stopped);
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      if (this.pending.size === 0 && this.options.keepAlive === 'while-busy') this.worker.ref();
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, context: options.context });
      this.worker.postMessage({ ...message, [options.idKey ?? this.idKey]: id }, options.transfer);
    });
  }

  /** A message that expects no reply (dropped when the thread is gone). */
  post(message: In, transfer?: Transferable[]): void {
    if (!this.stopped) this.worker.postMessage(message, transfer);
  }

  /**
   * Ends the thread as if it had stopped by itself: pending requests are rejected with `lostError`
   * and `onLost` is called (a watchdog stopping a thread that runs too long).
   */
  async terminate(): Promise<void> {
    await this.worker.terminate();
  }

  /** Ends the thread: pending requests are rejected with `reason`; `onLost` is not called. */
  async close(reason: Error = new Error(`The ${this.options.name} was closed.`)): Promise<void> {
    if (!this.stopped) {
      this.closedByUs = true;
      this.stopped = reason;
      this.notStarted(reason);
      const pending = [...this.pending.values()];
      this.pending.clear();
      for (const waiting of pending) waiting.reject(reason);
    }
    await this.worker.terminate();
  }

  private defaultReply(message: Out): ThreadReply | null {
    const id = (message as Record<string, unknown> | null)?.[this.idKey];
    return typeof id === 'number' ? { id, value: message } : null;
  }

  private idleIfDone(): void {
    if (this.pending.size === 0 && this.options.keepAlive === 'while-busy') this.worker.unref();
  }
}
