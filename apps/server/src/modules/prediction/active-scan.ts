import os from 'node:os';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { FP_BYTES } from '../chemistry/fingerprint.mjs';
import { parentOfInchi } from './parent-key.ts';
import { activeIndexOf, mergeTops } from './similarity-ensemble.ts';
import type { ActiveSet, ActiveTops, EvidenceRef, NearActive, Neighbour, TargetTop } from './similarity-ensemble.ts';
import { WorkerThread } from '../../workers/worker-thread.ts';

const WORKER_URL = new URL('./active-scan-worker.mjs', import.meta.url);
/** One query of `ActiveScan.score`: its fingerprint, the structures that must not count for it, and its parent (whose forms never count). */
export interface ScoreQuery {
  fingerprint: Uint8Array;
  exclude: readonly number[];
  excludeParent: number | null;
}

/** Active structures whose fingerprints one database read fetches. */
const READ_PAGE = 10_000;

/** What active-scan-worker.mjs is asked (the request id is added by WorkerThread). */
type ScanRequest =
  | { type: 'append'; fps: Uint8Array; rows: Uint32Array }
  | { type: 'load'; block: number | undefined }
  | { type: 'scan'; queries: Uint8Array; min: number }
  | {
      type: 'attach';
      strIds: Float64Array;
      parents: Float64Array;
      pairStart: Uint32Array;
      pairTarget: Uint32Array;
      pairNm: Float64Array;
      targetCount: number;
    }
  | {
      type: 'score';
      queries: Uint8Array;
      min: number;
      threshold: number;
      keep: number;
      nearest: number;
      excludeParents: Float64Array;
      excludeEnds: Uint32Array;
      excludeIds: Float64Array;
    };

/** A part's tops for a batch of queries (active-tops.mjs finish), back to back. */
interface PartTops {
  target: Uint32Array;
  hits: Uint32Array;
  evEnd: Uint32Array;
  evSim: Float64Array;
  evNm: Float64Array;
  evStr: Float64Array;
  evParent: Float64Array;
  targetEnd: Uint32Array;
  nearSim: Float64Array;
  nearStr: Float64Array;
  nearParent: Float64Array;
  nearEnd: Uint32Array;
}

interface WorkerReply {
  id: number;
  ok: boolean;
  error?: string;
  rows?: Uint32Array;
  sims?: Float64Array;
  ends?: Uint32Array;
  /** load: bits set over the part's rows. */
  postings?: number;
  tops?: PartTops;
}

/** Fingerprints of a page's rows for one part, back to back, with each row's number in the whole index (a row without one stays all zero: no bits). */
class FingerprintPage {
  private readonly fps: Uint8Array;
  private readonly rows: Uint32Array;
  private count = 0;

  constructor(capacity: number) {
    this.fps = new Uint8Array(capacity * FP_BYTES);
    this.rows = new Uint32Array(capacity);
  }

  add(row: number, fp: Uint8Array | null): void {
    if (fp?.length === FP_BYTES) this.fps.set(fp, this.count * FP_BYTES);
    this.rows[this.count] = row;
    this.count += 1;
  }

  take(): { fps: Uint8Array; rows: Uint32Array } {
    return { fps: this.fps.slice(0, this.count * FP_BYTES), rows: this.rows.slice(0, this.count) };
  }
}

/** One worker and its part of the rows (workers/worker-thread.ts: ids, replies, a lost thread's requests rejected). */
class ScanPart {
  private readonly thread = new WorkerThread<ScanRequest, WorkerReply>({
    url: WORKER_URL,
    name: "target prediction's scan worker",
    reply: (reply) => ({
      id: reply.id,
      value: reply,
      error: reply.ok ? undefined : new Error(`Target prediction's scan failed: ${reply.error ?? 'unknown error'}`),
    }),
    exitMessage: (code) => `Target prediction's scan worker stopped (exit code ${code}).`,
    // An idle scan never keeps a process alive (a retiring one may still wait on its timer); a call does.
    keepAlive: 'while-busy',
  });

  get broken(): boolean {
    return this.thread.gone;
  }

  call(message: ScanRequest, transfer: ArrayBuffer[] = []): Promise<WorkerReply> {
    return this.thread.request<WorkerReply>(message, { transfer });
  }

  async close(): Promise<void> {
    await this.thread.close(new Error("Target prediction's scan worker stopped (closed)."));
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
    /** The parent (parent-key.ts) of each structure of `strIds`, read with its fingerprint; NaN: no InChI stored. */
    readonly parentOf: Float64Array,
    /** Each part's rows (numbers in `strIds`), in the part's own order. */
    private readonly partRows: Uint32Array[],
  ) {}

  /** The parent of an active structure, or null (none known: it is its own). */
  parentOfStructure(strId: number): number | null {
    const at = sortedIndexOf(this.strIds, strId);
    const parent = at < 0 ? Number.NaN : this.parentOf[at]!;
    return Number.isNaN(parent) ? null : parent;
  }

  /**
   * Reads the fingerprints of `strIds` (ascending) and builds the parts' indexes: `workers` parts
   * (default one per core), rows taken in blocks of `block` inside each (default 65,536; tests use
   * small ones).
   */
  static async build(db: Kysely<Database>, strIds: Float64Array, options: { workers?: number; block?: number } = {}): Promise<ActiveScan> {
    const partCount = Math.max(1, options.workers ?? defaultWorkers(strIds.length));
    const parts = Array.from({ length: partCount }, () => new ScanPart());
    try {
      // Each page's rows go to their parts' workers as soon as they are read: this thread holds one page.
      const sent: Promise<WorkerReply>[] = [];
      const missing = new Set<number>();
      const parentOf = new Float64Array(strIds.length).fill(Number.NaN);
      const partRows: number[][] = parts.map(() => []);
      for (let from = 0; from < strIds.length; from += READ_PAGE) {
        const ids = strIds.subarray(from, Math.min(strIds.length, from + READ_PAGE));
        const fps = await readFingerprints(db, ids);
        const pages = parts.map(() => new FingerprintPage(ids.length));
        for (let k = 0; k < ids.length; k++) {
          const row = fps.get(ids[k]!);
          if (!row) missing.add(ids[k]!);
          if (row?.parent != null) parentOf[from + k] = row.parent;
          // A parent's forms share a part, so that each part counts its parents alone (active-tops.mjs).
          const part = partOf(row?.parent ?? ids[k]!, partCount);
          pages[part]!.add(from + k, row?.fp ?? null);
          partRows[part]!.push(from + k);
        }
        pages.forEach((page, p) => sent.push(sendPage(parts[p]!, page)));
      }
      await Promise.all(sent);
      const loaded = await Promise.all(parts.map((scanPart) => scanPart.call({ type: 'load', block: options.block })));
      const postings = loaded.reduce((sum, reply) => sum + Number(reply.postings), 0);
      return new ActiveScan(
        parts,
        strIds,
        postings,
        missing,
        parentOf,
        partRows.map((rows) => Uint32Array.from(rows)),
      );
    } catch (error) {
      await Promise.all(parts.map((p) => p.close()));
      throw error;
    }
  }

  /**
   * Gives each part its rows' actives (targets and potencies) and parents from `set`, whose
   * structures are this scan's (less any without a fingerprint): `score` needs them.
   */
  async attach(set: ActiveSet): Promise<void> {
    await Promise.all(
      this.parts.map((part, p) => {
        const rows = this.partRows[p]!;
        const strIds = new Float64Array(rows.length);
        const parents = new Float64Array(rows.length);
        const ats = new Int32Array(rows.length);
        const pairStart = new Uint32Array(rows.length + 1);
        for (let i = 0; i < rows.length; i++) {
          const strId = this.strIds[rows[i]!]!;
          const at = activeIndexOf(set, strId);
          strIds[i] = strId;
          ats[i] = at;
          parents[i] = at < 0 ? strId : set.parentOf[at]!;
          pairStart[i + 1] = pairStart[i]! + (at < 0 ? 0 : set.offsets[at + 1]! - set.offsets[at]!);
        }
        const pairTarget = new Uint32Array(pairStart[rows.length]!);
        const pairNm = new Float64Array(pairTarget.length);
        for (let i = 0; i < rows.length; i++) {
          const at = ats[i]!;
          if (at < 0) continue;
          pairTarget.set(set.targetOf.subarray(set.offsets[at]!, set.offsets[at + 1]!), pairStart[i]!);
          pairNm.set(set.nmOf.subarray(set.offsets[at]!, set.offsets[at + 1]!), pairStart[i]!);
        }
        const message = { type: 'attach' as const, strIds, parents, pairStart, pairTarget, pairNm, targetCount: set.targets.length };
        return part.call(message, [strIds.buffer, parents.buffer, pairStart.buffer, pairTarget.buffer, pairNm.buffer]);
      }),
    );
  }

  /**
   * Per query, its tops (similarity-ensemble.ts ActiveTops): each target's `keep` nearest actives
   * from Tanimoto `min` on, one per parent, with its number of parents at `threshold` or above, and
   * the `nearest` nearest actives overall — gathered in the parts' workers, so that only these
   * cross to this thread (docs/prediction.md "Speed"). Needs `attach` first.
   */
  async score(
    queries: readonly ScoreQuery[],
    options: { min: number; threshold: number; keep: number; nearest: number },
  ): Promise<ActiveTops[]> {
    const packed = new Uint8Array(queries.length * FP_BYTES);
    queries.forEach((query, q) => packed.set(query.fingerprint.subarray(0, FP_BYTES), q * FP_BYTES));
    const excludeParents = Float64Array.from(queries, (query) => query.excludeParent ?? Number.NaN);
    const excludeEnds = new Uint32Array(queries.length);
    let total = 0;
    queries.forEach((query, q) => (excludeEnds[q] = total += query.exclude.length));
    const excludeIds = new Float64Array(total);
    queries.forEach((query, q) => excludeIds.set(query.exclude, q === 0 ? 0 : excludeEnds[q - 1]!));
    const replies = await Promise.all(
      this.parts.map((part) => part.call({ type: 'score', queries: packed, ...options, excludeParents, excludeEnds, excludeIds })),
    );
    return queries.map((_, q) =>
      mergeTops(
        replies.map((reply) => topsOf(reply.tops!, q)),
        options.keep,
        options.nearest,
      ),
    );
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
  const { fps, rows } = page.take();
  return part.call({ type: 'append', fps, rows }, [fps.buffer as ArrayBuffer, rows.buffer as ArrayBuffer]);
}

/** The part of a parent key (parent-key.ts: a negative hash) or of a structure that is its own parent. */
function partOf(key: number, parts: number): number {
  return Math.abs(key) % parts;
}

/** Query `q`'s tops in one part's reply. */
function topsOf(tops: PartTops, q: number): ActiveTops {
  const targets: TargetTop[] = [];
  const targetFrom = q === 0 ? 0 : tops.targetEnd[q - 1]!;
  for (let t = targetFrom; t < tops.targetEnd[q]!; t++) {
    const evidence: EvidenceRef[] = [];
    for (let k = t === 0 ? 0 : tops.evEnd[t - 1]!; k < tops.evEnd[t]!; k++)
      evidence.push({ strId: tops.evStr[k]!, similarity: tops.evSim[k]!, nm: tops.evNm[k]!, parent: tops.evParent[k]! });
    targets.push({ target: tops.target[t]!, hits: tops.hits[t]!, evidence });
  }
  const nearest: NearActive[] = [];
  for (let k = q === 0 ? 0 : tops.nearEnd[q - 1]!; k < tops.nearEnd[q]!; k++)
    nearest.push({ strId: tops.nearStr[k]!, similarity: tops.nearSim[k]!, parent: tops.nearParent[k]! });
  return { targets, nearest };
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

/** The fingerprints of a page of structures, with their parents (from the stored InChI). */
async function readFingerprints(db: Kysely<Database>, ids: Float64Array): Promise<Map<number, { fp: Uint8Array; parent: number | null }>> {
  const { rows } = await sql<{
    str_id: string | number;
    fp: string | null;
    inchi: string | null;
  }>`SELECT str_id, encode(morgan_fp, 'base64') AS fp, inchi
    FROM structures WHERE str_id = ANY(${`{${ids.join(',')}}`}::bigint[]) AND morgan_fp IS NOT NULL`.execute(db);
  const result = new Map<number, { fp: Uint8Array; parent: number | null }>();
  for (const row of rows) {
    const fp = storedFingerprint(row.fp);
    if (fp) result.set(Number(row.str_id), { fp, parent: parentOfInchi(row.inchi) });
  }
  return result;
}

function sortedIndexOf(values: Float64Array, value: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] === value) return mid;
    if (values[mid]! < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

export interface StoredStructure {
  smiles: string;
  morgan: Uint8Array | null;
  parent: number | null;
}

/** SMILES, stored Morgan fingerprint and parent (from the stored InChI) of these structures (absent: no such structure). */
export async function storedStructures(db: Kysely<Database>, strIds: readonly number[]): Promise<Map<number, StoredStructure>> {
  const { rows } = await sql<{
    str_id: string | number;
    canonical_smiles: string;
    fp: string | null;
    inchi: string | null;
  }>`SELECT str_id, canonical_smiles, encode(morgan_fp, 'base64') AS fp, inchi
    FROM structures WHERE str_id = ANY(${`{${strIds.join(',')}}`}::bigint[])`.execute(db);
  return new Map(
    rows.map((row) => [
      Number(row.str_id),
      { smiles: row.canonical_smiles, morgan: storedFingerprint(row.fp), parent: parentOfInchi(row.inchi) },
    ]),
  );
}
