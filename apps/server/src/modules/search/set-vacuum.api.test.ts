import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { DATABASES, openTestDatabase } from '../../../test/harness.ts';
import type { TestDatabase } from '../../../test/harness.ts';
import { SET_TURNOVER_TABLES, SetVacuum, tablesDue } from './set-vacuum.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A set of `rows` activities written and dropped again, as a re-run or an expiry leaves it. */
async function turnOver(db: Kysely<Database>, rows: number): Promise<void> {
  await sql`INSERT INTO search_activities (set_id, act_id, str_id) SELECT 1, g, g FROM generate_series(1, ${rows}::int) g`.execute(db);
  await sql`DELETE FROM search_activities WHERE set_id = 1`.execute(db);
}

async function stats(db: Kysely<Database>, table: string): Promise<{ dead: number; vacuumed: boolean }> {
  const { rows } = await sql<{ dead: string; vacuumed: boolean }>`SELECT n_dead_tup::text AS dead, last_vacuum IS NOT NULL AS vacuumed
    FROM pg_stat_user_tables WHERE schemaname = current_schema() AND relname = ${table}`.execute(db);
  return { dead: Number(rows[0]?.dead ?? 0), vacuumed: rows[0]?.vacuumed === true };
}

/** A server publishes a backend's table statistics within seconds, not at once. */
async function until(check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('statistics not published in time');
    await sleep(250);
  }
}

describe('tablesDue', () => {
  it('applies autovacuum’s default rule: dead rows over 50 + 20 % of the live ones', () => {
    expect(
      tablesDue([
        { table: 'a', live: 1_000, dead: 250 },
        { table: 'b', live: 1_000, dead: 251 },
        { table: 'c', live: 0, dead: 50 },
        { table: 'd', live: 0, dead: 51 },
      ]),
    ).toEqual(['b', 'd']);
  });
});

describe.each(DATABASES)('set tables vacuumed where autovacuum does not run (%s)', (kind) => {
  let database: TestDatabase | null = null;
  afterEach(async () => {
    await database?.close();
    database = null;
  });

  it('vacuums what a search turned over, at most once per interval', async () => {
    database = await openTestDatabase(kind);
    const db = database.handle.db;
    await turnOver(db, 2_000);
    const logged: string[] = [];
    const vacuum = new SetVacuum(db, kind, { minIntervalMs: 60_000, log: (m) => logged.push(m) });

    if (kind === 'pglite') {
      // No autovacuum in single-user mode, and statistics not flushed while it runs: every set table, each pass.
      expect(await vacuum.maybe()).toEqual([...SET_TURNOVER_TABLES]);
      expect((await stats(db, 'search_activities')).vacuumed).toBe(true);
    } else {
      await until(async () => (await stats(db, 'search_activities')).dead >= 2_000);
      const { rows } = await sql<{ on: boolean }>`SELECT current_setting('autovacuum') = 'on' AS on`.execute(db);
      if (rows[0]?.on) {
        // Autovacuum's business: nothing done here.
        expect(await vacuum.maybe()).toEqual([]);
        return;
      }
      // Only the table past autovacuum's threshold; the untouched ones are left alone.
      expect(await vacuum.maybe()).toEqual(['search_activities']);
      await until(async () => (await stats(db, 'search_activities')).vacuumed);
      expect((await stats(db, 'search_activities')).dead).toBe(0);
    }
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/set tables vacuumed \(.*search_activities.*\)/);

    // Within the interval: nothing, however much turned over meanwhile.
    await turnOver(db, 2_000);
    expect(await vacuum.maybe(Date.now() + 1_000)).toEqual([]);
    expect(logged).toHaveLength(1);
  }, 60_000);
});
