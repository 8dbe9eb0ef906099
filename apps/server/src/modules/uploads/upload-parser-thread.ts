import { Worker } from 'node:worker_threads';
import { tooManyRequests } from '../../http/errors.ts';
import { UploadFileError, baseName } from './upload-file-parser.ts';

/**
 * Reads uploaded files in one worker thread (upload-parse-worker.mjs), one file at a time, so a
 * workbook that takes seconds of CPU never holds up the event loop: /api/health and every other
 * request keep answering while it is read.
 *
 * The thread is the blast wall too: it has a memory ceiling and a time limit, and a file that
 * exceeds either ends the thread (a fresh one starts for the next upload) and is refused with a
 * message instead of taking the API process down.
 */

const WORKER_URL = new URL('./upload-parse-worker.mjs', import.meta.url);

export interface UploadParserLimits {
  /** Time one file may take to read, from when the thread starts on it. */
  timeoutMs: number;
  /** Heap of the thread; a 2 MB workbook of 100,000 rows needs well under a quarter of it. */
  maxHeapMb: number;
  /** Uploads waiting for the thread; more are asked to come back (429). */
  maxWaiting: number;
  /** The idle thread is ended after this long (it holds the workbook reader's memory). */
  idleMs: number;
}

export const UPLOAD_PARSER_LIMITS: UploadParserLimits = { timeoutMs: 30_000, maxHeapMb: 256, maxWaiting: 8, idleMs: 60_000 };

interface Job {
  id: number;
  fileName: string;
  contentBase64: string;
  resolve: (terms: string[]) => void;
  reject: (error: Error) => void;
}

type Reply = { id: number; terms: string[] } | { id: number; error: string; userFacing: boolean };

export class UploadParserThread {
  private worker: Worker | null = null;
  private current: Job | null = null;
  private timer: NodeJS.Timeout | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private readonly waiting: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly limits: UploadParserLimits = UPLOAD_PARSER_LIMITS) {}

  /** The different terms of an upload, in file order; an unreadable file rejects with UploadFileError. */
  read(fileName: string, contentBase64: string): Promise<string[]> {
    if (this.closed) return Promise.reject(new Error('The upload reader is closed.'));
    if (this.waiting.length >= this.limits.maxWaiting) {
      return Promise.reject(
        tooManyRequests('The server is reading many uploaded files at the moment. Upload yours again in a few seconds.', 5),
      );
    }
    return new Promise<string[]>((resolve, reject) => {
      this.waiting.push({ id: this.nextId++, fileName, contentBase64, resolve, reject });
      this.pump();
    });
  }

  /** Ends the thread; uploads still waiting are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.splice(0)) job.reject(new Error('The server is stopping.'));
    this.finish()?.reject(new Error('The server is stopping.'));
    await this.stopWorker();
  }

  private pump(): void {
    if (this.current || this.closed) return;
    const job = this.waiting.shift();
    if (!job) {
      this.scheduleIdle();
      return;
    }
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.current = job;
    const worker = this.ensureWorker();
    this.timer = setTimeout(() => {
      const name = baseName(job.fileName);
      this.fail(
        new UploadFileError(
          `"${name}" took more than ${this.limits.timeoutMs / 1000} seconds to read. Upload the list of terms on its own, as .txt or .csv.`,
        ),
      );
    }, this.limits.timeoutMs);
    worker.postMessage({ id: job.id, fileName: job.fileName, contentBase64: job.contentBase64 });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_URL, {
      resourceLimits: { maxOldGenerationSizeMb: this.limits.maxHeapMb, maxYoungGenerationSizeMb: 32 },
      // No inherited flags: the worker registers its own TypeScript loader.
      execArgv: [],
    });
    // An idle reader must not keep a stopping process alive.
    worker.unref();
    worker.on('message', (reply: Reply) => this.onReply(reply));
    worker.on('error', (error: Error & { code?: string }) => this.onWorkerLost(worker, error));
    worker.on('exit', (code) => this.onWorkerLost(worker, new Error(`The upload reader stopped (exit code ${code}).`)));
    this.worker = worker;
    return worker;
  }

  private onReply(reply: Reply): void {
    const job = this.current;
    if (!job || job.id !== reply.id) return;
    this.finish();
    if ('terms' in reply) job.resolve(reply.terms);
    else job.reject(reply.userFacing ? new UploadFileError(reply.error) : new Error(reply.error));
    this.pump();
  }

  private onWorkerLost(worker: Worker, error: Error & { code?: string }): void {
    if (this.worker !== worker) return;
    this.worker = null;
    const job = this.current;
    if (!job) return;
    // Out of memory is the file's doing (a workbook that unpacks to far more than it says); any
    // other loss is the server's and answers 500.
    const memory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
    this.fail(
      memory
        ? new UploadFileError(
            `"${baseName(job.fileName)}" needs more memory to read than a list of terms can. Upload the list of terms on its own, as .txt or .csv.`,
          )
        : error,
    );
  }

  /** Refuses the current file and starts a fresh thread for the next (the old one may be stuck). */
  private fail(error: Error): void {
    const job = this.finish();
    void this.stopWorker();
    job?.reject(error);
    this.pump();
  }

  private finish(): Job | null {
    const job = this.current;
    this.current = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    return job;
  }

  private scheduleIdle(): void {
    if (this.idleTimer || !this.worker) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (!this.current && this.waiting.length === 0) void this.stopWorker();
    }, this.limits.idleMs);
    this.idleTimer.unref();
  }

  private async stopWorker(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (worker) await worker.terminate();
  }
}
