import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { FP_BYTES } from './fingerprint.mjs';
import { emptySlices, sliceWords, writeRow } from './bit-slices.mjs';
import { STORED_LIMITS, limitViolation } from './query-limits.ts';
import type { ShardPayload, ShardRange } from './worker-protocol.ts';

/** A shard and where its rows are (kept by the engine to rebuild a replaced worker's shards). */
export type LoadedShard = ShardPayload & { range: ShardRange };

const POP8 = new Uint8Array(256);
for (let i = 1; i < 256; i++) POP8[i] = (i & 1) + POP8[i >> 1]!;

function popcount(bytes: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < bytes.length; i++) n += POP8[bytes[i]!]!;
  return n;
}

interface StructureRow {
  str_id: number | string;
  canonical_smiles: string;
  /** base64: PostgreSQL writes it about twice as fast as bytea's hex, and Node decodes it natively. */
  pattern_fp: string | null;
  morgan_fp: string | null;
}

function bytes(base64: string | null): Uint8Array | null {
  return base64 === null ? null : Buffer.from(base64, 'base64');
}

/**
 * A shard's arrays for `count` rows: the worker shares the first three with this thread (similarity
 * reads them in place; the Morgan fingerprints are bit arrays, similarity-slices.mjs); the pattern fingerprints are moved to it (it turns them into its
 * substructure screen, substructure-screen.mjs, and drops them).
 */
export function shardArrays(count: number): Pick<ShardPayload, 'ids' | 'pop' | 'morgan' | 'pattern' | 'hasPattern'> {
  return {
    ids: new Float64Array(new SharedArrayBuffer(count * 8)),
    pop: new Uint16Array(new SharedArrayBuffer(count * 2)),
    morgan: emptySlices(count, true),
    pattern: new Uint8Array(count * FP_BYTES),
    hasPattern: new Uint8Array(count),
  };
}

/**
 * Reads the structures table into index shards, in str_id order (keyset pages, so a load can go on
 * from the last id after an import). Rows are sorted by Morgan bit count inside a shard: a
 * similarity search then reads only the rows whose bit count can reach its threshold.
 */
export class IndexLoader {
  lastId = 0;
  private nextShard = 0;
  private read = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly shardSize: number,
    /** Stop after this many structures (benchmarks); unbounded by default. */
    private readonly maxStructures: number = Number.POSITIVE_INFINITY,
  ) {}

  reset(): void {
    this.lastId = 0;
    this.read = 0;
  }

  /** Goes on after shards read elsewhere (the local snapshot, index-snapshot.ts) up to `last`. */
  continueAfter(last: ShardRange, structures: number): void {
    this.lastId = last.last;
    this.nextShard = last.shardId + 1;
    this.read = structures;
  }

  /** A load from the first structure on (nothing read since the last reset). */
  get fromStart(): boolean {
    return this.lastId === 0 && this.read === 0;
  }

  async countAbove(id: number): Promise<number> {
    const row = await this.db
      .selectFrom('structures')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('str_id', '>', id)
      .executeTakeFirst();
    return Math.min(Number(row?.n ?? 0), this.maxStructures - this.read);
  }

  /** What changed since `loaded` structures were indexed up to `lastId`. */
  async changed(loaded: number): Promise<'none' | 'grown' | 'shrunk'> {
    const { rows } = await sql<{ n: string; top: string | null }>`SELECT count(*) AS n, max(str_id) AS top FROM structures`.execute(
      this.db,
    );
    const n = Number(rows[0]?.n ?? 0);
    const top = Number(rows[0]?.top ?? 0);
    if (n < loaded || top < this.lastId) return 'shrunk';
    return top > this.lastId ? 'grown' : 'none';
  }

  async *shards(): AsyncGenerator<LoadedShard> {
    for (;;) {
      const take = Math.min(this.shardSize, this.maxStructures - this.read);
      if (take <= 0) return;
      const after = this.lastId;
      const rows = await this.page(after, null, take);
      if (rows.length === 0) return;
      this.read += rows.length;
      this.lastId = Number(rows[rows.length - 1]!.str_id);
      const shardId = this.nextShard++;
      yield { ...this.toShard(shardId, rows), range: { shardId, after, last: this.lastId, count: rows.length } };
    }
  }

  /**
   * A shard read again from its range (a replaced worker's shards): the same rows unless some were
   * deleted meanwhile (a refresh then rebuilds everything anyway).
   */
  async reread(range: ShardRange): Promise<ShardPayload> {
    return this.toShard(range.shardId, await this.page(range.after, range.last, range.count));
  }

  private async page(after: number, last: number | null, take: number): Promise<StructureRow[]> {
    const { rows } = await sql<StructureRow>`SELECT str_id, canonical_smiles,
        encode(pattern_fp, 'base64') AS pattern_fp, encode(morgan_fp, 'base64') AS morgan_fp
      FROM structures WHERE str_id > ${after} ${last === null ? sql`` : sql`AND str_id <= ${last}`} ORDER BY str_id LIMIT ${take}`.execute(
      this.db,
    );
    return rows;
  }

  private toShard(shardId: number, rows: StructureRow[]): ShardPayload {
    const count = rows.length;
    const morganFps = rows.map((row) => bytes(row.morgan_fp));
    const patternFps = rows.map((row) => bytes(row.pattern_fp));
    const pops = morganFps.map((fp) => (fp?.length === FP_BYTES ? popcount(fp) : 0));
    const order = Array.from(rows.keys()).sort((a, b) => pops[a]! - pops[b]!);
    const { ids, pop, morgan, pattern, hasPattern } = shardArrays(count);
    const words = sliceWords(count);
    const smiles: string[] = new Array<string>(count);
    order.forEach((from, to) => {
      const row = rows[from]!;
      ids[to] = Number(row.str_id);
      pop[to] = pops[from]!;
      // A stored SMILES past the stored-structure limits could overflow RDKit's stack while the
      // library is built: it is left out of substructure search (the worker skips empty ones).
      // (A text no longer than the atom limit cannot be over it: most rows are not scanned.)
      const text = row.canonical_smiles;
      smiles[to] = text.length > STORED_LIMITS.atoms && limitViolation('smiles', text, STORED_LIMITS) ? '' : text;
      // A structure without a Morgan fingerprint keeps bit count 0: similarity never finds it.
      const morganFp = morganFps[from];
      const patternFp = patternFps[from];
      if (morganFp?.length === FP_BYTES) writeRow(morgan, words, to, morganFp);
      if (patternFp?.length === FP_BYTES) {
        pattern.set(patternFp, to * FP_BYTES);
        hasPattern[to] = 1;
      }
    });
    return { shardId, count, ids, pop, morgan, smiles, pattern, hasPattern };
  }
}
