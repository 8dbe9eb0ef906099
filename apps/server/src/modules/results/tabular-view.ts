import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { ResultRow } from '@kb/contracts/results';
import { SIMILARITY_COLUMN } from '@kb/contracts/results';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import { TAB_COLUMNS, columnMetadata } from './tab-columns.ts';

/**
 * Spec `tabularview/strid/{id}`: one structure as a Structures-tab row, knowledge-base wide (no
 * search session: its activity count is all of its activities).
 */
export async function tabularView(db: Kysely<Database>, strId: number) {
  const columns = TAB_COLUMNS.structuretab.filter((c) => c.key !== SIMILARITY_COLUMN && c.key !== 'activities');
  const values = columns.map((c) => sql`${c.value(0)} AS ${sql.ref(c.key)}`);
  const { rows } = await sql<ResultRow>`SELECT ${sql.join(values)},
      (SELECT count(*)::int FROM activities a WHERE a.str_id = s.str_id) AS activities
    FROM structures s CROSS JOIN LATERAL (SELECT s.str_id) ss WHERE s.str_id = ${strId}`.execute(db);
  const row = rows[0];
  if (!row) throw notFound(`There is no structure ${strId}.`);
  const metadata = columnMetadata('structuretab').filter((c) => c.key !== SIMILARITY_COLUMN);
  return { strId, columns: metadata.map((c) => (c.key === 'activities' ? { ...c, label: 'Activities' } : c)), row };
}
