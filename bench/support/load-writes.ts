// The rows a load run wrote to the set tables and to what derives from them (bench/load.ts).
import pg from 'pg';
import { SEARCH_SET_TABLES } from '../../apps/server/src/db/tables/search-tables.ts';

/**
 * Rows inserted, updated and deleted so far (PostgreSQL's statistics) in the set tables and what a
 * search writes with them (`sets`), and in what the user's filters and similarity sorts derive
 * from them (`derived`: result_filtered, one packed row per filtered tab; result_similarity).
 */
export async function setRowsWritten(url: string): Promise<{ sets: number; derived: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const written = async (tables: string[]) => {
      const { rows } = await client.query<{ n: string }>(
        `SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0)::text AS n FROM pg_stat_user_tables
          WHERE relname = ANY($1::text[])`,
        [tables],
      );
      return Number(rows[0]?.n ?? 0);
    };
    return {
      sets: await written([...SEARCH_SET_TABLES, 'search_set_marks', 'structure_hits']),
      derived: await written(['result_filtered', 'result_similarity']),
    };
  } finally {
    await client.end();
  }
}
