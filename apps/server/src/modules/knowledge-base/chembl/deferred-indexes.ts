import { sql } from 'kysely';
import type { Db } from './step.ts';

/**
 * A first load's big tables without their secondary indexes while the rows go in, and the indexes
 * built once after them. Twenty million activities grow seven indexes on random keys row by row
 * otherwise: once those outgrow PostgreSQL's buffers every row costs several page writes, where one
 * sort per index at the end costs a fraction of that. Primary keys and unique indexes stay (the
 * loader's conflicts are decided on them).
 *
 * Resumable like the rows: each dropped index's definition is a checkpoint part of the job
 * (`deferred-index:CREATE INDEX …`), written in the transaction that drops it, and removed in the
 * one that builds it again, so a load killed at any moment finds on its next run exactly what it
 * still has to build. Until then queries on the table work, only slower.
 */

const PREFIX = 'deferred-index:';

/** Which tables a first load fills without their secondary indexes (the step's target table). */
export const DEFERRED_INDEX_TABLES: Record<string, string> = { activities: 'activities' };

/** Drops `table`'s secondary indexes, recording their definitions in the job's checkpoints. */
export async function deferIndexes(db: Db, job: string, table: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ name: string; definition: string }>`
      SELECT i.relname AS name, pg_get_indexdef(x.indexrelid) AS definition
      FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
      WHERE x.indrelid = ${table}::regclass AND NOT x.indisunique AND NOT x.indisprimary
      ORDER BY i.relname`.execute(trx);
    for (const index of rows) {
      await trx
        .insertInto('kb_load_checkpoints')
        .values({ job, part: PREFIX + index.definition, last_key: null, done: false, updated_at: new Date() })
        .onConflict((oc) => oc.columns(['job', 'part']).doNothing())
        .execute();
      await sql`DROP INDEX ${sql.id(index.name)}`.execute(trx);
    }
    return rows.length;
  });
}

/** Builds every index the job deferred and has not built yet; answers how many. */
export async function buildDeferredIndexes(db: Db, job: string): Promise<number> {
  const parts = await db
    .selectFrom('kb_load_checkpoints')
    .select('part')
    .where('job', '=', job)
    .where('part', 'like', `${PREFIX}%`)
    .execute();
  for (const { part } of parts) {
    const definition = part.slice(PREFIX.length);
    // The definition is PostgreSQL's own (pg_get_indexdef), read from the catalog, never user input.
    if (!/^CREATE INDEX \S+ ON \S+ USING /.test(definition))
      throw new Error(`Not an index definition in the import's checkpoints: ${definition}`);
    await db.transaction().execute(async (trx) => {
      await sql.raw(definition.replace(/^CREATE INDEX /, 'CREATE INDEX IF NOT EXISTS ')).execute(trx);
      await trx.deleteFrom('kb_load_checkpoints').where('job', '=', job).where('part', '=', part).execute();
    });
  }
  return parts.length;
}
