import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import type { SearchCriteriaInput } from '@kb/contracts/search';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { LoginResult } from '@kb/contracts/auth';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { SEARCH_SET_TABLES } from '../../db/tables/search-tables.ts';

/**
 * How a session whose sets were lost, or whose run's process died, is brought back (in process;
 * crash-recovery.api.test.ts does it with a real kill -9). Losing the sets is done as a crash
 * recovery does it: the UNLOGGED rows vanish, the logged session row stays.
 */
const KI: SearchCriteriaInput = { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'Ki' }] }] };

describe.each(DATABASES)('search sessions whose sets or runs were lost, on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  const post = (url: string, payload: unknown) => t.call({ method: 'POST', url, headers: authHeaders(me), payload: payload as object });
  const get = (url: string) => t.call({ method: 'GET', url, headers: authHeaders(me) });
  const run = async (sessionid: string) => {
    const answer = await post('/api/guidedsearch/allresultscount', { searchcriteria: KI, sessionid });
    expect(answer.statusCode, answer.body).toBe(200);
    return (answer.data.rows as Record<string, number>[])[0]!;
  };
  const setOf = async (sessionid: string) =>
    Number(
      (await t.database.db.selectFrom('search_sessions').select('set_id').where('id', '=', sessionid).executeTakeFirstOrThrow()).set_id,
    );
  /** What a crash recovery leaves of one session: the logged row, no set rows, no mark, no derived rows. */
  const loseSets = async (setId: number) => {
    for (const table of [...SEARCH_SET_TABLES, 'search_set_marks', 'result_filtered', 'result_similarity'] as const) {
      await sql`DELETE FROM ${sql.table(table)} WHERE set_id = ${setId}`.execute(t.database.db);
    }
  };
  const markCount = async (setId: number) =>
    (await sql<{ n: number }>`SELECT count(*)::int AS n FROM search_set_marks WHERE set_id = ${setId}`.execute(t.database.db)).rows[0]!.n;

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { demoChunks: 1 });
    me = await t.login(demoEmailForRole('FULL_USER'));
  }, 120_000);
  afterAll(() => t.close());

  it('marks the sets of a finished search, and drops the mark with them', async () => {
    const sessionid = crypto.randomUUID();
    await run(sessionid);
    const setId = await setOf(sessionid);
    expect(await markCount(setId)).toBe(1);
    await post('/api/dashboard/dropunloggedtables', { sessionid });
    expect(await markCount(setId)).toBe(0);
  });

  it('answers a session whose set tables were lost on the first results call, keeps the filters and counts their rows again', async () => {
    const sessionid = crypto.randomUUID();
    const counts = await run(sessionid);
    const chart = await post('/api/results/chart', { sessionid, type: 'activitiestab', charttype: 'assaytype', maxCount: 50 });
    const picked = (chart.data.chartData as { id: string; count: number }[]).find((item) => item.id !== '__none__')!;
    expect(
      (await post('/api/results/applyfilters/activitiestab', { sessionid, filters: [{ chartKey: 'assaytype', include: [picked.id] }] }))
        .statusCode,
    ).toBe(200);
    const before = await get(`/api/results/session/${sessionid}`);
    const setId = await setOf(sessionid);
    await loseSets(setId);

    // Concurrent calls of a results page share one re-run.
    const [session, activities, structures] = await Promise.all([
      get(`/api/results/session/${sessionid}`),
      post('/api/results/activitiestab', { sessionid, pageSize: 500 }),
      post('/api/results/structuretab', { sessionid, pageSize: 10 }),
    ]);
    expect(session.statusCode, session.body).toBe(200);
    expect(session.data.counts).toEqual(before.data.counts);
    expect(session.data.tabCounts).toEqual(before.data.tabCounts);
    expect(session.data.filters).toEqual(before.data.filters);
    expect(activities.statusCode, activities.body).toBe(200);
    expect(activities.data.rowCount).toBe(picked.count);
    expect((activities.data.data as { assay_type: string }[]).every((row) => row.assay_type === picked.id)).toBe(true);
    expect(structures.data.rowCount).toBe(counts.stridscount);
    // The server holds the sets in memory (SEARCH_SETS=memory), which a database crash does not
    // touch: they answered, the filter's rows were rebuilt from them, and no set table was written.
    expect(await markCount(setId)).toBe(0);
  });

  it('runs the same criteria again when the sets of the session are lost, instead of answering zeros', async () => {
    const sessionid = crypto.randomUUID();
    const counts = await run(sessionid);
    await loseSets(await setOf(sessionid));
    const log = await post('/api/guidedsearch/activitylhslogs', { searchpostobject: KI, sessionid });
    expect(log.data.rows).toBe(counts.actidscount);
    expect(await run(sessionid)).toEqual(counts);
  });

  it('re-runs a search whose process is gone, and waits while a living one runs', async () => {
    const sessionid = crypto.randomUUID();
    const counts = await run(sessionid);
    const setId = await setOf(sessionid);
    await loseSets(setId);
    // A process on another host that stopped sending heartbeats a minute ago.
    const orphan = async (heartbeat: RawBuilder<unknown>) =>
      sql`UPDATE search_sessions SET status = 'running', run_owner = 'elsewhere:4242:dead', run_heartbeat_at = ${heartbeat} WHERE id = ${sessionid}`.execute(
        t.database.db,
      );
    if (kind === 'postgres') {
      // Alive (fresh heartbeat, another host): still running, nothing is taken over.
      await orphan(sql`now()`);
      const running = await get(`/api/results/session/${sessionid}`);
      expect(running.statusCode).toBe(409);
      expect(running.data.message).toMatch(/still running/);
    }
    // On PGlite any other process instance is gone (one process per data directory).
    await orphan(sql`now() - interval '1 minute'`);
    const session = await get(`/api/results/session/${sessionid}`);
    expect(session.statusCode, session.body).toBe(200);
    expect(session.data.counts).toMatchObject({ stridscount: counts.stridscount, actidscount: counts.actidscount });
    const row = await t.database.db
      .selectFrom('search_sessions')
      .select(['status', 'run_owner', 'run_recovery'])
      .where('id', '=', sessionid)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('ready');
    expect(row.run_recovery).toBe(false);
    expect(row.run_owner).not.toBe('elsewhere:4242:dead');
    expect(await markCount(setId)).toBe(1);
  });

  it('answers 404 for a session whose process died before its search began', async () => {
    const sessionid = crypto.randomUUID();
    const user = await t.database.db.selectFrom('users').select('id').where('email', '=', me.username).executeTakeFirstOrThrow();
    await t.database.db
      .insertInto('search_sessions')
      .values({
        id: sessionid,
        user_id: user.id,
        user_session_id: null,
        run_owner: 'elsewhere:4242:dead',
        run_heartbeat_at: new Date(Date.now() - 3_600_000),
      })
      .execute();
    const answer = await get(`/api/results/session/${sessionid}`);
    expect(answer.statusCode).toBe(404);
    expect(answer.data.message).toMatch(/Run the search from the search page/);
  });
});
