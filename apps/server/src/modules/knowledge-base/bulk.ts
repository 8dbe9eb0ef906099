import { sql } from 'kysely';
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** PostgreSQL allows 65,535 bind parameters per statement; stay well below. */
const MAX_PARAMS = 30_000;

/**
 * Multi-row INSERTs sized to the parameter limit. `onConflictDoNothing` makes re-runs of
 * idempotent loads (importer) add nothing. Returns the number of rows actually inserted.
 */
export async function insertBatched<T extends keyof Database & string>(
  db: Kysely<Database>,
  table: T,
  rows: Insertable<Database[T]>[],
  options: { onConflictDoNothing?: boolean } = {},
): Promise<number> {
  if (rows.length === 0) return 0;
  const columns = Math.max(1, Object.keys(rows[0] as object).length);
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / columns));
  let inserted = 0;
  for (let i = 0; i < rows.length; i += perStatement) {
    const slice = rows.slice(i, i + perStatement);
    let query = db.insertInto(table).values(slice as never);
    if (options.onConflictDoNothing) query = query.onConflict((oc) => oc.doNothing());
    const result = await query.executeTakeFirst();
    inserted += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return inserted;
}

/** JSON text of a row batch; bytea values (Uint8Array) as PostgreSQL hex literals. */
function rowsJson(rows: readonly object[]): string {
  return JSON.stringify(rows, (_key, value: unknown) =>
    value instanceof Uint8Array ? `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}` : value,
  );
}

/**
 * Bulk load for fresh rows: each statement carries one JSON parameter that the server expands
 * with `json_populate_recordset`, instead of tens of thousands of bind parameters. Parsing, binding
 * and planning a 30,000-parameter INSERT cost several times more than the rows themselves (measured
 * on PGlite, docs/benchmarks.md). The columns are the union of the rows' keys; a key a row lacks
 * becomes NULL (not the column DEFAULT), so give every row the same keys (the demo tables, and the
 * importer's mapped rows, which set every column they name, null included). `conflictKey` limits
 * ON CONFLICT DO NOTHING to that unique column: a clash on another one still fails loudly.
 * Returns the number of rows actually inserted.
 */
export async function insertJsonBatched<T extends keyof Database & string>(
  db: Kysely<Database>,
  table: T,
  rows: Insertable<Database[T]>[],
  options: { onConflictDoNothing?: boolean; conflictKey?: string; rowsPerStatement?: number } = {},
): Promise<number> {
  if (rows.length === 0) return 0;
  const keys = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row as object)) keys.add(key);
  const columns = sql.join([...keys].map((k) => sql.ref(k)));
  const perStatement = Math.max(1, options.rowsPerStatement ?? 5_000);
  const target = options.conflictKey ? sql`(${sql.ref(options.conflictKey)})` : sql``;
  const conflict = options.onConflictDoNothing ? sql`ON CONFLICT ${target} DO NOTHING` : sql``;
  let inserted = 0;
  for (let i = 0; i < rows.length; i += perStatement) {
    const json = rowsJson(rows.slice(i, i + perStatement) as object[]);
    const result = await sql`INSERT INTO ${sql.table(table)} (${columns})
      SELECT ${columns} FROM json_populate_recordset(NULL::${sql.table(table)}, ${json}::json) ${conflict}`.execute(db);
    inserted += Number(result.numAffectedRows ?? 0);
  }
  return inserted;
}

/**
 * Insert-or-update on a unique source key: a new key is inserted, an existing one is updated only
 * when a value differs (`IS DISTINCT FROM`, so an unchanged re-import writes nothing). The ids of
 * updated rows stay. `insertOnly` columns are written on insert and never updated. Returns, per
 * written row, its key (as text) and whether it was inserted (`xmax = 0`: no earlier version).
 * `table` and the column names come from the caller's code (never from input).
 */
export async function upsertBatched<T extends keyof Database & string>(
  db: Kysely<Database>,
  table: T,
  rows: Insertable<Database[T]>[],
  key: string,
  insertOnly: string[] = [],
): Promise<{ k: string; inserted: boolean }[]> {
  if (rows.length === 0) return [];
  const columns = Object.keys(rows[0] as object);
  const updated = columns.filter((c) => c !== key && !insertOnly.includes(c));
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / Math.max(1, columns.length)));
  const current = sql.join(updated.map((c) => sql.ref(`${table}.${c}`)));
  const incoming = sql.join(updated.map((c) => sql.ref(`excluded.${c}`)));
  const set = Object.fromEntries(updated.map((c) => [c, sql.ref(`excluded.${c}`)]));
  const written: { k: string; inserted: boolean }[] = [];
  for (let i = 0; i < rows.length; i += perStatement) {
    const slice = rows.slice(i, i + perStatement);
    const base = db.insertInto(table).values(slice as never);
    const query =
      updated.length === 0
        ? base.onConflict((oc) => oc.column(key as never).doNothing())
        : base.onConflict((oc) =>
            oc
              .column(key as never)
              .doUpdateSet(set as never)
              .where(sql<boolean>`ROW(${current}) IS DISTINCT FROM ROW(${incoming})`),
          );
    const result = (await query
      .returning([sql<string>`${sql.ref(key)}::text`.as('k'), sql<boolean>`(xmax = 0)`.as('inserted')] as never)
      .execute()) as unknown as { k: string; inserted: boolean }[];
    written.push(...result);
  }
  return written;
}
