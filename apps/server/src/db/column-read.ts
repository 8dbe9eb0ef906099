import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Reading whole columns of the knowledge base into typed arrays indexed by id, fast (issue 18:
 * start-up under a minute at L). Each id range comes back as one row whose columns are the
 * values packed by PostgreSQL itself (`int4send`, `float8send`: big-endian binary, base64): the
 * driver hands over one string per column, Node decodes and byte-swaps it natively, and no
 * JavaScript value is made per table row. Measured at M (2.15 M activities, six id columns):
 * 2.4 s, against 9.4 s for the same columns as int arrays in text. Strings come as one text per
 * column, values separated by \x01, and are coded through a `Vocabulary`.
 */

type Db = Kysely<Database>;

/** Rows read per query: bounded memory per round trip, whatever the table's size. */
const CHUNK_IDS = 500_000;

/** Chunk queries in flight at once (a PostgreSQL server runs them on separate backends; PGlite one after another). */
const READ_AHEAD = 2;

/** Separates the values of a string column in one chunk; NULL is read as NULL_MARK. */
const SEPARATOR = '\u0001';
const NULL_MARK = '\u0002';

/** A column to read: integer (NULL = 0), double (NULL = NaN), or string coded by a vocabulary. */
export type ColumnSpec =
  | { kind: 'int'; expr: RawBuilder<unknown> }
  | { kind: 'float'; expr: RawBuilder<unknown> }
  | { kind: 'string'; expr: RawBuilder<unknown>; vocabulary: Vocabulary };

/** String values coded 1, 2, …; code 0 is NULL. */
export class Vocabulary {
  readonly names: (string | null)[] = [null];
  private readonly codes = new Map<string, number>();

  code(name: string): number {
    let code = this.codes.get(name);
    if (code === undefined) {
      code = this.names.length;
      this.names.push(name);
      this.codes.set(name, code);
    }
    return code;
  }

  /** The code of a value already read; undefined when no row holds it. */
  find(name: string): number | undefined {
    return this.codes.get(name);
  }
}

export type ColumnArray = Int32Array | Float64Array | Uint16Array;

/** Big-endian values packed by `int4send` / `float8send` (base64) into a native typed array. */
function decodePacked<T extends Int32Array | Float64Array>(base64: string | null, make: (length: number) => T): T {
  const bytes = Buffer.from(base64 ?? '', 'base64');
  const out = make(bytes.length / make(0).BYTES_PER_ELEMENT);
  const view = Buffer.from(out.buffer);
  bytes.copy(view);
  if (out.BYTES_PER_ELEMENT === 4) view.swap32();
  else view.swap64();
  return out;
}

const decodeInts = (base64: string | null) => decodePacked(base64, (n) => new Int32Array(n));
const decodeFloats = (base64: string | null) => decodePacked(base64, (n) => new Float64Array(n));

function aggregate(spec: ColumnSpec, alias: string): RawBuilder<unknown> {
  const as = sql.ref(alias);
  switch (spec.kind) {
    case 'int':
      return sql`encode(string_agg(int4send(coalesce(${spec.expr}, 0)::int), ''), 'base64') AS ${as}`;
    case 'float': {
      // NULL reads as NaN: every comparison with it is false, as SQL's unknown is for a search row.
      // A stored NaN reads as +Infinity, which compares as PostgreSQL's NaN does with any finite
      // bound (above every number), so memory and SQL keep the same rows.
      const value = sql`(${spec.expr})::float8`;
      return sql`encode(string_agg(float8send(coalesce(CASE WHEN ${value} = 'NaN'::float8 THEN 'Infinity'::float8 ELSE ${value} END, 'NaN'::float8)), ''), 'base64') AS ${as}`;
    }
    case 'string':
      return sql`string_agg(coalesce(${spec.expr}, ${NULL_MARK}), ${SEPARATOR}) AS ${as}`;
  }
}

function allocate(spec: ColumnSpec, size: number): ColumnArray {
  if (spec.kind === 'float') return new Float64Array(size).fill(Number.NaN);
  if (spec.kind === 'string') return new Uint16Array(size);
  return new Int32Array(size);
}

/** One chunk's values of a column, in the chunk's row order. */
function decode(spec: ColumnSpec, packed: string | null, rows: number): ColumnArray {
  if (spec.kind === 'int') return decodeInts(packed);
  if (spec.kind === 'float') return decodeFloats(packed);
  const values = (packed ?? '').split(SEPARATOR);
  const codes = new Uint16Array(rows);
  const { vocabulary } = spec;
  for (let k = 0; k < rows; k++) {
    const value = values[k]!;
    codes[k] = value === NULL_MARK ? 0 : vocabulary.code(value);
  }
  if (vocabulary.names.length > 65_536) throw new Error('More than 65,535 distinct values in one string column: widen its codes.');
  return codes;
}

export type Table = 'activities' | 'compounds' | 'clinical_compounds' | 'structures' | 'assays' | 'documents' | 'targets';

/** The highest id of a table (0 when empty); ids are read as 32-bit integers, so a larger one is refused. */
export async function maxId(db: Db, table: Table, column: string): Promise<number> {
  const { rows } = await sql<{
    max: string | number;
  }>`SELECT coalesce(max(${sql.ref(column)}), 0)::text AS max FROM ${sql.table(table)}`.execute(db);
  const max = Number(rows[0]?.max ?? 0);
  if (max > 2 ** 31 - 1)
    throw new Error(`${table}.${column} reaches ${max}, beyond the 32-bit ids held in memory: the SQL path stays in use.`);
  return max;
}

/**
 * The order that sorts one chunk's rows by id: ids of a chunk lie in (from, from + CHUNK_IDS], so
 * one pass over slots does it (an ORDER BY in each of PostgreSQL's aggregates sorts once per
 * aggregate: 15 s instead of 6 s at M).
 */
function ascendingOrder(ids: Int32Array, from: number): Int32Array {
  const slots = new Int32Array(CHUNK_IDS).fill(-1);
  for (let k = 0; k < ids.length; k++) slots[ids[k]! - from - 1] = k;
  const order = new Int32Array(ids.length);
  let at = 0;
  for (let slot = 0; slot < CHUNK_IDS; slot++) if (slots[slot]! >= 0) order[at++] = slots[slot]!;
  return order;
}

function permute<T extends ColumnArray>(values: T, order: Int32Array): T {
  const out = values.slice(0, order.length) as T;
  for (let k = 0; k < order.length; k++) out[k] = values[order[k]!]!;
  return out;
}

/**
 * Calls `each` with every chunk of ids 1..maxId: its ids and its columns' values in the same
 * order (all aggregates of one query see the rows in the same order); by ascending id when `sorted`.
 */
async function readChunks(
  db: Db,
  table: Table,
  id: string,
  columns: readonly ColumnSpec[],
  maxId: number,
  sorted: boolean,
  each: (ids: Int32Array, values: ColumnArray[]) => void,
): Promise<void> {
  const idRef = sql.ref(id);
  const aggregates = [aggregate({ kind: 'int', expr: idRef }, 'ids'), ...columns.map((spec, i) => aggregate(spec, `c${i}`))];
  const query = (from: number) =>
    sql<Record<string, string | null>>`SELECT ${sql.join(aggregates)} FROM ${sql.table(table)}
      WHERE ${idRef} > ${from} AND ${idRef} <= ${from + CHUNK_IDS}`.execute(db);
  // Chunks ahead on their own connections: the packing is the database's work (≈ 70 % of the
  // read at M), and two backends use two cores while this process decodes.
  const ahead: Promise<{ rows: Record<string, string | null>[] }>[] = [];
  let queued = 0;
  const fill = () => {
    while (ahead.length < READ_AHEAD && queued < maxId) {
      const pending = query(queued);
      // A failure is reported where the chunk is awaited; not unhandled meanwhile.
      pending.catch(() => undefined);
      ahead.push(pending);
      queued += CHUNK_IDS;
    }
  };
  for (let from = 0; from < maxId; from += CHUNK_IDS) {
    fill();
    const { rows } = await ahead.shift()!;
    fill();
    const ids = decodeInts(rows[0]?.ids ?? null);
    if (!ids.length) continue;
    const values = columns.map((spec, i) => decode(spec, rows[0]![`c${i}`] ?? null, ids.length));
    if (!sorted) {
      each(ids, values);
      continue;
    }
    const order = ascendingOrder(ids, from);
    each(
      permute(ids, order),
      values.map((chunk) => permute(chunk, order)),
    );
  }
}

/**
 * Reads `columns` of `table` for ids 1..maxId into arrays indexed by id (a missing id holds 0, NaN
 * or the NULL code). `onIds` receives each chunk's ids (the set of all ids). For tables whose
 * ids are dense (structures, compound records, development compounds).
 */
export async function readColumns(
  db: Db,
  table: Table,
  id: string,
  columns: readonly ColumnSpec[],
  maxId: number,
  onIds?: (ids: Int32Array) => void,
): Promise<ColumnArray[]> {
  const arrays = columns.map((spec) => allocate(spec, maxId + 1));
  await readChunks(db, table, id, columns, maxId, false, (ids, values) => {
    onIds?.(ids);
    values.forEach((chunk, i) => {
      const target = arrays[i]!;
      for (let k = 0; k < ids.length; k++) target[ids[k]!] = chunk[k]!;
    });
  });
  return arrays;
}

/**
 * Reads `columns` of `table` into arrays indexed by row position (0, 1, … in ascending id), with
 * the ids themselves (`ids[position]`, ascending: a binary search finds an id's position). For
 * tables whose ids may be sparse (activities: the demo seed leaves 3 of 4 ids unused, an import
 * over years leaves gaps), so memory follows the rows, not the highest id.
 */
export async function readDenseColumns(
  db: Db,
  table: Table,
  id: string,
  columns: readonly ColumnSpec[],
  maxId: number,
): Promise<{ ids: Int32Array; columns: ColumnArray[] }> {
  // The arrays at their final size first, each chunk copied in as it comes: holding every chunk
  // until the end and then concatenating held the activity columns once more than needed during
  // the first start at L (the server's memory peak, docs/benchmarks.md issue 62).
  const { rows: counted } = await sql<{
    n: string;
  }>`SELECT count(*)::text AS n FROM ${sql.table(table)} WHERE ${sql.ref(id)} <= ${maxId}`.execute(db);
  let capacity = Number(counted[0]?.n ?? 0);
  let ids = new Int32Array(capacity);
  const arrays = columns.map((spec) => allocate(spec, capacity));
  let at = 0;
  await readChunks(db, table, id, columns, maxId, true, (chunkIds, values) => {
    // Rows added since the count (a load running): grown, rarely.
    if (at + chunkIds.length > capacity) {
      capacity = Math.max(at + chunkIds.length, Math.ceil(capacity * 1.25));
      // Column by column: each old one can go before the next is copied.
      ids = grown(ids, capacity);
      for (let i = 0; i < arrays.length; i++) arrays[i] = grown(arrays[i]!, capacity);
    }
    ids.set(chunkIds, at);
    values.forEach((chunk, i) => arrays[i]!.set(chunk as never, at));
    at += chunkIds.length;
  });
  // Rows removed since the count (or room left by growing): views of the rows read, no copy (the
  // snapshot writes a view's own bytes, column-snapshot.ts).
  if (at < capacity) return { ids: ids.subarray(0, at), columns: arrays.map((array) => array.subarray(0, at)) };
  return { ids, columns: arrays };
}

/** A copy of `array` with room for `size` values (the new room zero, NaN for floats as `allocate` gives). */
export function grown<T extends ColumnArray>(array: T, size: number): T {
  const out = new (array.constructor as new (n: number) => T)(size);
  if (out instanceof Float64Array) out.fill(Number.NaN, array.length);
  out.set(array as never);
  return out;
}

/**
 * The values of `columns` over the rows `from` holds (`FROM … WHERE …`), in one query: for a
 * bounded set of rows (a search session's, at most the activity cap), in no particular order but
 * the same order for every column.
 */
export async function readPacked(db: Db, from: RawBuilder<unknown>, columns: readonly ColumnSpec[]): Promise<ColumnArray[]> {
  const aggregates = [sql`count(*)::int AS n`, ...columns.map((spec, i) => aggregate(spec, `c${i}`))];
  const { rows } = await sql<Record<string, string | number | null>>`SELECT ${sql.join(aggregates)} ${from}`.execute(db);
  const row = rows[0] ?? {};
  const count = Number(row.n ?? 0);
  return columns.map((spec, i) => decode(spec, (row[`c${i}`] as string | null) ?? null, count));
}

/** The position of each of `ids` in the ascending `sorted` (ids not there are left out). */
export function positionsOf(sorted: Int32Array, ids: Iterable<number>): number[] {
  const out: number[] = [];
  for (const id of ids) {
    let lo = 0;
    let hi = sorted.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const value = sorted[mid]!;
      if (value === id) {
        out.push(mid);
        break;
      }
      if (value < id) lo = mid + 1;
      else hi = mid - 1;
    }
  }
  return out;
}
