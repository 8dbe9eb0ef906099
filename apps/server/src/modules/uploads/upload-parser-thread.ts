import { WorkerPool } from '../../workers/worker-pool.ts';
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

const UPLOAD_PARSER_LIMITS: UploadParserLimits = { timeoutMs: 30_000, maxHeapMb: 256, maxWaiting: 8, idleMs: 60_000 };

type Request = { fileName: string; contentBase64: string };
type Reply = { id: number; terms: string[] } | { id: number; error: string; userFacing: boolean };

/** One thread, one file at a time (workers/worker-pool.ts: the queue, the time limit, the idle end). */
export class UploadParserThread {
  private readonly pool: WorkerPool<Request, Reply>;
  private closed = false;

  constructor(private readonly limits: UploadParserLimits = UPLOAD_PARSER_LIMITS) {
    this.pool = new WorkerPool<Request, Reply>({
      url: WORKER_URL,
      name: 'upload reader',
      size: 1,
      lazy: true,
      resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb, maxYoungGenerationSizeMb: 32 },
      // No inherited flags: the worker registers its own TypeScript loader.
      execArgv: [],
      // An idle reader must not keep a stopping process alive.
      keepAlive: 'never',
      reply: (reply) => ({
        id: reply.id,
        value: 'terms' in reply ? reply.terms : undefined,
        error: 'terms' in reply ? undefined : reply.userFacing ? new UploadFileError(reply.error) : new Error(reply.error),
      }),
      // Out of memory is the file's doing (a workbook that unpacks to far more than it says); any
      // other loss is the server's and answers 500.
      lostError: (error, fileName) =>
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new UploadFileError(
              `"${baseName(String(fileName))}" needs more memory to read than a list of terms can. Upload the list of terms on its own, as .txt or .csv.`,
            )
          : error,
      // A file past its time is refused and the thread (which may be stuck) replaced for the next.
      timeoutMs: limits.timeoutMs,
      timeoutError: (fileName) =>
        new UploadFileError(
          `"${baseName(String(fileName))}" took more than ${limits.timeoutMs / 1000} seconds to read. Upload the list of terms on its own, as .txt or .csv.`,
        ),
      idleMs: limits.idleMs,
    });
  }

  /** The different terms of an upload, in file order; an unreadable file rejects with UploadFileError. */
  read(fileName: string, contentBase64: string): Promise<string[]> {
    if (this.closed) return Promise.reject(new Error('The upload reader is closed.'));
    if (this.pool.waiting >= this.limits.maxWaiting) {
      return Promise.reject(
        tooManyRequests('The server is reading many uploaded files at the moment. Upload yours again in a few seconds.', 5),
      );
    }
    return this.pool.request<string[]>({ fileName, contentBase64 }, { context: fileName });
  }

  /** Ends the thread; uploads still waiting are refused. */
  async close(): Promise<void> {
    this.closed = true;
    await this.pool.close(new Error('The server is stopping.'));
  }
}
