import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { LoginResult } from '@kb/contracts/auth';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { SearchCriteriaInput } from '@kb/contracts/search';
import type { AuthContext } from '../../http/auth-hook.ts';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { ROW_VALUE_CHARTS } from '../results/row-values.ts';
import { ChartService } from './chart-service.ts';
import type { ChartQuery } from './chart-service.ts';
import { KbDictionaryCache } from '../knowledge-base/kb-dictionaries.ts';
import { unsettle } from '../results/memory-fixtures.test-support.ts';

/**
 * The batched charts of the Activities and Structures tabs counted in memory (memory-batch.ts)
 * answer exactly what the SQL path answers: every batched chart, both tabs, with and without the
 * tab's filters, both sorts, all values and the first ten, and a left-hand text filter — over
 * sessions holding rows without a reference, assay or target, with a dangling target id, and
 * assays and documents without organism or year (`unsettle`).
 */
const SEARCHES: Record<string, SearchCriteriaInput> = {
  ki: { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'Ki' }] }] },
  ic50NotKi: {
    rows: [
      { selectedOption: 'activitytypes', activities: [{ activityType: 'IC50' }], operator: 'NOT' },
      { selectedOption: 'activitytypes', activities: [{ activityType: 'Ki' }] },
    ],
  },
};

describe.each(DATABASES)('charts counted in memory on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  let auth: AuthContext;
  let dictionaries: KbDictionaryCache;
  let inSql: ChartService;
  let inMemory: ChartService;
  const sessions: Record<string, string> = {};
  const post = (url: string, payload: object) => t.call({ method: 'POST', url, headers: authHeaders(me), payload });

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { demoChunks: 2 });
    me = await t.login(demoEmailForRole('FULL_USER'));
    const user = await t.database.db
      .selectFrom('users')
      .select(['id', 'user_hash_id'])
      .where('email', '=', demoEmailForRole('FULL_USER'))
      .executeTakeFirstOrThrow();
    auth = {
      userId: user.id,
      sessionId: crypto.randomUUID(),
      email: demoEmailForRole('FULL_USER'),
      userHashId: user.user_hash_id,
      roles: ['FULL_USER'],
      lastActivityAt: new Date(),
      secondFactor: { passed: false, enrolled: false },
    };
    for (const [name, searchcriteria] of Object.entries(SEARCHES)) {
      const sessionid = crypto.randomUUID();
      const run = await post('/api/guidedsearch/allresultscount', { searchcriteria, sessionid });
      expect(run.statusCode, run.body).toBe(200);
      sessions[name] = sessionid;
    }
    await unsettle(t, Object.values(sessions));
    dictionaries = new KbDictionaryCache(t.database.db);
    await dictionaries.current();
    inSql = new ChartService(t.database.db, t.app.services.results, null);
    inMemory = new ChartService(t.database.db, t.app.services.results, dictionaries);
  }, 600_000);
  afterAll(() => t?.close());

  async function compareAll(sessionid: string, tab: 'activitiestab' | 'structuretab', label: string): Promise<number> {
    let nonEmpty = 0;
    for (const chartKey of ROW_VALUE_CHARTS) {
      for (const resetFlg of [false, true]) {
        for (const [sortType, sortOrder, maxCount, search] of [
          ['count', 'desc', 10, undefined],
          ['label', 'asc', 500, undefined],
          ['count', 'desc', 20, 'in'],
        ] as const) {
          // Text search: List charts only (a Range chart refuses it).
          if (search && chartKey === 'year') continue;
          const query: ChartQuery = { sessionid, tab, chartKey, resetFlg, sortType, sortOrder, maxCount, ...(search ? { search } : {}) };
          const expected = await inSql.chart(auth, query);
          const actual = await inMemory.chart(auth, query);
          expect(actual, `${label} ${tab} ${chartKey} reset=${resetFlg} ${sortType}`).toEqual(expected);
          if (expected.chartData.length > 1) nonEmpty++;
        }
      }
    }
    return nonEmpty;
  }

  it('answers every batched chart of both tabs as the SQL path does', async () => {
    expect(await dictionaries.ifCurrent(), 'the dictionaries are current, so the memory path is taken').not.toBeNull();
    for (const [name, sessionid] of Object.entries(sessions)) {
      for (const tab of ['activitiestab', 'structuretab'] as const) {
        expect(await compareAll(sessionid, tab, name), `${name} ${tab}: charts with several values`).toBeGreaterThan(6);
      }
    }
  }, 300_000);

  it('counts each structure once per value on the Structures tab, and the filtered rows only', async () => {
    const sessionid = sessions.ki!;
    const base = { sessionid, resetFlg: false, sortType: 'count', sortOrder: 'desc', maxCount: 500 } as const;
    const structures = await inMemory.chart(auth, { ...base, tab: 'structuretab', chartKey: 'assaytype' });
    const activities = await inMemory.chart(auth, { ...base, tab: 'activitiestab', chartKey: 'assaytype' });
    const setId = Number(
      (await t.database.db.selectFrom('search_sessions').select('set_id').where('id', '=', sessionid).executeTakeFirstOrThrow()).set_id,
    );
    const { rows } = await sql<{
      s: number;
      a: number;
    }>`SELECT count(DISTINCT str_id)::int AS s, count(*)::int AS a FROM search_activities WHERE set_id = ${setId}`.execute(t.database.db);
    expect(structures.rows).toBe(rows[0]!.s);
    expect(activities.rows).toBe(rows[0]!.a);
    expect(structures.rows).toBeLessThan(activities.rows);

    // Filters on both tabs: the charts count the rows that pass them, on both paths alike.
    const top = structures.chartData[0]!;
    const years = await inMemory.chart(auth, { ...base, tab: 'activitiestab', chartKey: 'year' });
    const middle = Math.round(((years.min ?? 2000) + (years.max ?? 2020)) / 2);
    for (const tab of ['activitiestab', 'structuretab'] as const) {
      const applied = await post(`/api/results/applyfilters/${tab}`, {
        sessionid,
        filters: [
          { chartKey: 'assaytype', include: [top.id] },
          { chartKey: 'year', minValue: middle, maxValue: years.max },
        ],
      });
      expect(applied.statusCode, applied.body).toBe(200);
    }
    const filtered = await inMemory.chart(auth, { ...base, tab: 'structuretab', chartKey: 'assaytype' });
    expect(filtered.rows).toBeGreaterThan(0);
    expect(filtered.rows).toBeLessThan(structures.rows);
    for (const tab of ['activitiestab', 'structuretab'] as const)
      expect(await compareAll(sessionid, tab, 'ki filtered')).toBeGreaterThan(2);
  }, 300_000);

  it('counts in SQL while a load runs and until the dictionaries are read again after it ended', async () => {
    const db = t.database.db;
    const before = await dictionaries.current();
    expect(await dictionaries.ifCurrent()).toBe(before);
    const { rows } = await sql<{
      load_id: number;
    }>`INSERT INTO kb_loads (kind, label) VALUES ('update', 'memory charts test') RETURNING load_id`.execute(db);
    expect(await dictionaries.ifCurrent(), 'a running load may change assays in place: SQL path').toBeNull();
    await sql`UPDATE kb_loads SET status = 'complete', finished_at = now() WHERE load_id = ${rows[0]!.load_id}`.execute(db);
    expect(await dictionaries.ifCurrent(), 'a load ended since the read: SQL path until read again').toBeNull();
    const after = await dictionaries.current();
    expect(after.version).not.toBe(before.version);
    expect(await dictionaries.ifCurrent()).toBe(after);
  });
});
