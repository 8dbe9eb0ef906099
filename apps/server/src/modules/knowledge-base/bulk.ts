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
