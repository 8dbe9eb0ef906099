import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { FP_BYTES } from '../chemistry/fingerprint.mjs';
import type { Neighbour } from './similarity-ensemble.ts';

const WORKER_URL = new URL('./active-scan-worker.mjs', import.meta.url);
/** Active structures whose fingerprints one database read fetches. */
const READ_PAGE = 10_000;

interface WorkerReply {
  id: number;
  ok: boolean;
  error?: string;
  rows?: Uint32Array;
  sims?: Float64Array;
  ends?: Uint32Array;
}

/** Fingerprints of a page's rows, back to back (a row without one stays all zero: no bits). */
class FingerprintPage {
  private readonly fps: Uint8Array;
  private rows = 0;

  constructor(capacity: number) {
    this.fps = new Uint8Array(capacity * FP_BYTES);
  }

  add(fp: Uint8Array | null): void {
    if (fp?.length === FP_BYTES) this.fps.set(fp, this.rows * FP_BYTES);
    this.rows += 1;
  }

  take(): Uint8Array {
    return this.fps.slice(0, this.rows * FP_BYTES);
  }
}

/** One worker and its part of the rows. */
class ScanPart {
  private readonly pending = new Map<number, { resolve: (reply: WorkerReply) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private failure: Error | null = null;

  constructor(private readonly worker: Worker) {
    // An idle scan never keeps a process alive (a retiring one may still wait on its timer); a call does.
    worker.unref();
    worker.on('message', (reply: WorkerReply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (reply.ok) waiting.resolve(reply);
      else waiting.reject(new Error(`Target prediction's scan failed: ${reply.error ?? 'unknown error'}`));
    });
    const fail = (error: Error) => {
      this.failure = error;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`Target prediction's scan worker stopped (exit code ${code}).`)));
  }

  get broken(): boolean {
    return this.failure !== null;
  }

  call(message: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<WorkerReply> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...message, id }, transfer);
    });
  }

  async close(): Promise<void> {
    this.worker.removeAllListeners('exit');
    this.failure ??= new Error("Target prediction's scan worker stopped (closed).");
    for (const waiting of this.pending.values()) waiting.reject(this.failure);
    this.pending.clear();
    await this.worker.terminate();
  }
}

/**
 * The fingerprints of the active structures (docs/prediction.md "Speed"), as inverted indexes in
 * worker threads, each over one part of the rows: a query asks every part at once, so one
 * prediction uses every core and a batch spreads over them. Row r is the active set's structure
 * r (`ActiveSet.strIds`); a neighbour is any such structure at or above the threshold, exactly
 * as the structure index would find it among them.
 */
export class ActiveScan {
  private constructor(
    private readonly parts: ScanPart[],
    private readonly strIds: Float64Array,
    /** Postings in all (bits set over every active), for the log. */
    readonly postings: number,
    /** Structures of `strIds` with no stored fingerprint (their rows are empty: never a neighbour). */
    readonly withoutFingerprint: ReadonlySet<number>,
  ) {}

  /**
   * Reads the fingerprints of `strIds` (ascending) and builds the parts' indexes: `workers` parts
   * (default one per core), rows taken in blocks of `block` inside each (default 65,536; tests use
   * small ones).
   */
  static async build(db: Kysely<Database>, strIds: Float64Array, options: { workers?: number; block?: number } = {}): Promise<ActiveScan> {
    const partCount = Math.max(1, options.workers ?? defaultWorkers(strIds.length));
    const bounds = Array.from({ length: partCount + 1 }, (_, p) => Math.round((p * strIds.length) / partCount));
    const parts = Array.from({ length: partCount }, () => new ScanPart(new Worker(WORKER_URL)));
    try {
      // Each page's rows go to their part's worker as soon as they are read: this thread holds one page.
      const sent: Promise<WorkerReply>[] = [];
      const missing = new Set<number>();
      let part = 0;
      for (let from = 0; from < strIds.length; from += READ_PAGE) {
        const ids = strIds.subarray(from, Math.min(strIds.length, from + READ_PAGE));
        const fps = await readFingerprints(db, ids);
        let list = new FingerprintPage(ids.length);
        for (let k = 0; k < ids.length; k++) {
          if (from + k >= bounds[part + 1]!) {
            sent.push(sendPage(parts[part]!, list));
            list = new FingerprintPage(ids.length);
            while (from + k >= bounds[part + 1]!) part += 1;
          }
          const fp = fps.get(ids[k]!) ?? null;
          if (!fp) missing.add(ids[k]!);
          list.add(fp);
        }
        sent.push(sendPage(parts[part]!, list));
      }
      await Promise.all(sent);
      const loaded = await Promise.all(
        parts.map((scanPart, p) => scanPart.call({ type: 'load', rowFrom: bounds[p], block: options.block })),
      );
      const postings = loaded.reduce((sum, reply) => sum + Number((reply as unknown as { postings: number }).postings), 0);
      return new ActiveScan(parts, strIds, postings, missing);
    } catch (error) {
      await Promise.all(parts.map((p) => p.close()));
      throw error;
    }
  }

  get broken(): boolean {
    return this.parts.some((part) => part.broken);
  }

  get size(): number {
    return this.strIds.length;
  }

  /** Per query fingerprint, the active structures at Tanimoto ≥ `min` (in no particular order). */
  async neighbours(queries: readonly Uint8Array[], min: number): Promise<Neighbour[][]> {
    const packed = new Uint8Array(queries.length * FP_BYTES);
    queries.forEach((fp, q) => packed.set(fp.subarray(0, FP_BYTES), q * FP_BYTES));
    const replies = await Promise.all(this.parts.map((part) => part.call({ type: 'scan', queries: packed, min })));
    return queries.map((_, q) => {
      const found: Neighbour[] = [];
      for (const reply of replies) {
        const from = q === 0 ? 0 : reply.ends![q - 1]!;
        for (let k = from; k < reply.ends![q]!; k++) found.push({ strId: this.strIds[reply.rows![k]!]!, similarity: reply.sims![k]! });
      }
      return found;
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.parts.map((part) => part.close()));
  }
}

/** A page of rows to its part's worker (moved, not copied), which turns them into bit lists. */
function sendPage(part: ScanPart, page: FingerprintPage): Promise<WorkerReply> {
  const fps = page.take();
  return part.call({ type: 'append', fps }, [fps.buffer as ArrayBuffer]);
}

/** One part per core, none smaller than 20,000 actives (a message costs more than scanning that few). */
function defaultWorkers(actives: number): number {
  return Math.max(1, Math.min(os.availableParallelism(), Math.ceil(actives / 20_000)));
}

/**
 * A stored Morgan fingerprint as read in base64 (PostgreSQL writes it faster than bytea's hex, and
 * Node decodes it natively; index-loader.ts), or null when none is stored or it has the wrong size.
 */
export function storedFingerprint(base64: string | null): Uint8Array | null {
  if (base64 === null) return null;
  const fp = new Uint8Array(Buffer.from(base64, 'base64'));
  return fp.length === FP_BYTES ? fp : null;
}

async function readFingerprints(db: Kysely<Database>, ids: Float64Array): Promise<Map<number, Uint8Array>> {
  const { rows } = await sql<{ str_id: string | number; fp: string | null }>`SELECT str_id, encode(morgan_fp, 'base64') AS fp
    FROM structures WHERE str_id = ANY(${`{${ids.join(',')}}`}::bigint[]) AND morgan_fp IS NOT NULL`.execute(db);
  const result = new Map<number, Uint8Array>();
  for (const row of rows) {
    const fp = storedFingerprint(row.fp);
    if (fp) result.set(Number(row.str_id), fp);
  }
  return result;
}
