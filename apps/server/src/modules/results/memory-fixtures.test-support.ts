import { sql } from 'kysely';
import type { TestApp } from '../../../test/harness.ts';

/**
 * Values the demo data never leaves out: a few session rows lose their reference, assay or target,
 * one points at a target that does not exist, and some assays and documents lose their organism or
 * year (both paths read the same rows, so the counts must still agree). The seed's load is ended
 * first, as a finished seed or import leaves it (charts stay in SQL while a load runs).
 */
export async function unsettle(t: TestApp, sessionIds: readonly string[]): Promise<void> {
  const db = t.database.db;
  await sql`UPDATE kb_loads SET status = 'complete', finished_at = now() WHERE status = 'running'`.execute(db);
  const sets = (
    await db
      .selectFrom('search_sessions')
      .select('set_id')
      .where('id', 'in', [...sessionIds])
      .execute()
  ).map((r) => Number(r.set_id));
  for (const setId of sets) {
    await sql`UPDATE search_activities SET ref_id = NULL WHERE set_id = ${setId} AND act_id % 17 = 0`.execute(db);
    await sql`UPDATE search_activities SET assay_id = NULL WHERE set_id = ${setId} AND act_id % 19 = 0`.execute(db);
    await sql`UPDATE search_activities SET target_id = NULL WHERE set_id = ${setId} AND act_id % 23 = 0`.execute(db);
    await sql`UPDATE search_activities SET target_id = 987654321 WHERE set_id = ${setId} AND act_id % 29 = 0`.execute(db);
  }
  await sql`UPDATE assays SET organism = NULL WHERE assay_id % 5 = 0`.execute(db);
  await sql`UPDATE documents SET year = NULL WHERE ref_id % 7 = 0`.execute(db);
  // Rows held since the searches wrote them no longer say what the sets hold (nothing but a test edits a set).
  t.app.services.results.sessionRows.clear();
}
