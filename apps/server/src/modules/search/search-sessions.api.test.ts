import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ACTIVITY_CAP_MESSAGE, SAVED_QUERY_FORMAT, SearchCriteriaSchema, SearchProgressSchema } from '@kb/contracts/search';
import type { SearchCriteriaInput } from '@kb/contracts/search';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { LoginResult } from '@kb/contracts/auth';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { SearchRunner } from './search-run.ts';

const KI: SearchCriteriaInput = { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'Ki' }] }] };
const MONOVALENT_OR_AGONIST: SearchCriteriaInput = {
  rows: [
    { selectedOption: 'degrader', degraderTypes: ['monovalent'], operator: 'OR' },
    { selectedOption: 'activitymechanism', mechanisms: ['AGONIST'] },
  ],
};

describe.each(DATABASES)('search sessions and counts on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  let other: LoginResult;
  const post = (url: string, payload: unknown, login: LoginResult = me) =>
    t.call({ method: 'POST', url, headers: authHeaders(login), payload: payload as object });
  const get = (url: string, login: LoginResult = me) => t.call({ method: 'GET', url, headers: authHeaders(login) });

  beforeAll(async () => {
    // A cap of 2,000 activities lets the test reach the §5 restriction on small data.
    t = await startTestApp(kind, { SEARCH_ACTIVITY_CAP: '2000' }, { demoChunks: 1 });
    me = await t.login(demoEmailForRole('FULL_USER'));
    other = await t.login(demoEmailForRole('EVALUATE_USER'));
  }, 120_000);
  afterAll(() => t.close());

  it('runs the search flow: the three log calls and the count share one run of the session', async () => {
    const sessionid = crypto.randomUUID();
    const body = { searchpostobject: KI, sessionid };
    const [structures, activities, assays] = await Promise.all([
      post('/api/guidedsearch/lhslogs', body),
      post('/api/guidedsearch/activitylhslogs', body),
      post('/api/guidedsearch/assaysunloggedlogs', body),
    ]);
    const status = await post('/api/results/lhrf/chartdatastatus', { sessionid });
    const counts = await post('/api/guidedsearch/allresultscount', { searchcriteria: KI, sessionid });
    expect(counts.statusCode).toBe(200);
    const row = (counts.data.rows as Record<string, number>[])[0]!;
    const { rows } = await sql<{
      acts: number;
      strs: number;
      assays: number;
    }>`SELECT count(*)::int AS acts, count(DISTINCT str_id)::int AS strs,
      count(DISTINCT assay_id)::int AS assays FROM activities WHERE std_activity_type = 'Ki'`.execute(t.database.db);
    expect(row).toMatchObject({ actidscount: rows[0]!.acts, stridscount: rows[0]!.strs, assayidscount: rows[0]!.assays });
    expect(structures.data).toEqual({ sessionid, table: 'structures', rows: rows[0]!.strs });
    expect(activities.data).toEqual({ sessionid, table: 'activities', rows: rows[0]!.acts });
    expect(assays.data).toEqual({ sessionid, table: 'assays', rows: rows[0]!.assays });
    expect(status.data).toEqual({ sessionid, status: 'ready' });
    const runs = await t.database.db
      .selectFrom('search_sessions')
      .select(['user_id', 'status', 'kind'])
      .where('id', '=', sessionid)
      .execute();
    expect(runs).toHaveLength(1);
  });

  it('answers the counts of a search held in memory after its session is made ready: another server reading it next need not wait', async () => {
    // The run itself, its session's two writes recorded in the order they happen.
    const runner = new SearchRunner(t.database.db, t.app.services.chemEngine, { bitmapCounts: true, databaseKind: t.database.kind });
    await runner.bitmapsReady();
    const steps: string[] = [];
    const outcome = await runner.runToSets(
      {
        criteria: SearchCriteriaSchema.parse(KI),
        userId: me.id,
        loadWindow: null,
        heldAnswer: null,
        keepInMemory: true,
        onCounts: () => steps.push('counts answered'),
      },
      {
        setId: -62_016,
        hash: 'order-test',
        run: {
          userId: me.id,
          controller: new AbortController(),
          progress: SearchProgressSchema.parse({
            sessionid: 'order-test',
            status: 'running',
            phase: null,
            searched: 0,
            total: 0,
            hits: 0,
            message: null,
          }),
        },
        countedEarly: async () => {
          steps.push('counted early');
        },
        finish: async () => {
          steps.push('ready');
        },
      },
    );
    expect('kept' in outcome).toBe(true);
    // Before: counted early, counts answered, then ready — a results call on another server in
    // between found the session running and looked again 250 ms later.
    expect(steps).toEqual(['ready', 'counts answered']);
  });

  it('answers the same five counts without a session (count) as with one (allresultscount)', async () => {
    const once = await post('/api/guidedsearch/count', { searchcriteria: MONOVALENT_OR_AGONIST });
    const kept = await post('/api/guidedsearch/allresultscount', { searchcriteria: MONOVALENT_OR_AGONIST, sessionid: crypto.randomUUID() });
    expect(kept.statusCode, kept.body).toBe(200);
    const six = (kept.data.rows as Record<string, number>[])[0]!;
    const { gvkidscount, ...five } = six;
    expect(gvkidscount).toBeGreaterThan(0);
    expect((once.data.rows as unknown[])[0]).toEqual(five);
    // count keeps nothing behind.
    const leftovers = await sql<{ n: number }>`SELECT count(*)::int AS n FROM search_activities WHERE set_id < 0`.execute(t.database.db);
    expect(leftovers.rows[0]!.n).toBe(0);
  });

  it('refuses another user’s session id, and a session id that is not a UUID', async () => {
    const sessionid = crypto.randomUUID();
    await post('/api/guidedsearch/allresultscount', { searchcriteria: KI, sessionid });
    const theirs = await post('/api/guidedsearch/allresultscount', { searchcriteria: KI, sessionid }, other);
    expect(theirs.statusCode).toBe(403);
    expect(theirs.data.message).toMatch(/another user/);
    expect((await post('/api/results/lhrf/chartdatastatus', { sessionid }, other)).statusCode).toBe(403);
    const bad = await post('/api/guidedsearch/allresultscount', { searchcriteria: KI, sessionid: 'x; drop table users' });
    expect(bad.statusCode).toBe(400);
    expect(bad.data.message).toMatch(/UUID/);
  });

  it('refuses more activities than the cap with the exact §5 message and keeps nothing', async () => {
    const sessionid = crypto.randomUUID();
    const res = await post('/api/guidedsearch/allresultscount', {
      searchcriteria: { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'Inhibition' }] }] },
      sessionid,
    });
    expect(res.statusCode).toBe(400);
    expect(res.data.message).toBe(ACTIVITY_CAP_MESSAGE);
    const session = await t.database.db
      .selectFrom('search_sessions')
      .select(['set_id', 'status'])
      .where('id', '=', sessionid)
      .executeTakeFirstOrThrow();
    expect(session.status).toBe('failed');
    const kept = await t.database.db
      .selectFrom('search_activities')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('set_id', '=', session.set_id)
      .executeTakeFirstOrThrow();
    expect(Number(kept.n)).toBe(0);
  });

  it('explains bad input: empty rows, min above max, an R range without a maximum, no rows', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ rows: [{ selectedOption: 'target', targets: [] }] }, /Row 1 \(target\) has no value/],
      [{ rows: [{ selectedOption: 'assay' }] }, /Row 1 \(assay\) has no value/],
      [{ rows: [{ selectedOption: 'structure', properties: { molmin: 500, molmax: 100 } }] }, /mol_weight: minimum is above the maximum/],
      [
        { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'IC50', prefix: 'R', minValue: 1 }] }] },
        /needs both a minimum and a maximum/,
      ],
      [{ rows: [{ selectedOption: 'bibliography', yearRange: { fromYear: 2020, toYear: 2010 } }] }, /from-year is after the to-year/],
      [{ rows: [] }, /at least one search row/],
      [
        { rows: [{ selectedOption: 'structure', structure: { inputType: 'smiles', value: 'C1CC(', category: 'exact' } }] },
        /RDKit could not read the SMILES/,
      ],
      [
        { rows: [{ selectedOption: 'structure', structure: { inputType: 'inchikey', value: 'NOT-A-KEY', category: 'exact' } }] },
        /not an InChIKey/,
      ],
    ];
    for (const [criteria, message] of cases) {
      const res = await post('/api/guidedsearch/count', { searchcriteria: criteria });
      expect(res.statusCode, JSON.stringify(criteria)).toBe(400);
      expect(res.data.message).toMatch(message);
    }
  });

  it('matches unknown ids to nothing rather than failing', async () => {
    const res = await post('/api/guidedsearch/count', {
      searchcriteria: { rows: [{ selectedOption: 'target', targets: [{ label: 'nobody', ids: [987654321] }] }] },
    });
    expect(res.statusCode).toBe(200);
    expect((res.data.rows as Record<string, number>[])[0]).toEqual({
      stridscount: 0,
      actidscount: 0,
      assayidscount: 0,
      refidscount: 0,
      clinicalcompoundidscount: 0,
    });
  });

  it('drops a session’s sets but keeps it as a recent search', async () => {
    const sessionid = crypto.randomUUID();
    await post('/api/guidedsearch/allresultscount', { searchcriteria: KI, sessionid });
    expect((await post('/api/bu/sessionsummary/save', { sessionid, summary: 'Activity type Ki' })).data).toEqual({ saved: true });
    const dropped = await post('/api/dashboard/dropunloggedtables', { sessionid });
    expect(dropped.data).toEqual({ dropped: 1 });
    const session = await t.database.db
      .selectFrom('search_sessions')
      .select(['set_id', 'status'])
      .where('id', '=', sessionid)
      .executeTakeFirstOrThrow();
    expect(session.status).toBe('dropped');
    const left = await sql<{ n: number }>`SELECT count(*)::int AS n FROM search_structures WHERE set_id = ${session.set_id}`.execute(
      t.database.db,
    );
    expect(left.rows[0]!.n).toBe(0);
    const home = await get('/api/home/overview');
    const recent = home.data.recentSearches as Array<{ sessionid: string; summary: string | null }>;
    expect(recent.find((r) => r.sessionid === sessionid)?.summary).toBe('Activity type Ki');
  });

  it('lists the same search run several times once, at its latest run, with the latest summary it was given', async () => {
    const criteria: SearchCriteriaInput = { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'EC50' }] }] };
    const other: SearchCriteriaInput = { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'Kd' }] }] };
    const runs: string[] = [];
    for (const [index, rows] of [criteria, other, criteria, criteria].entries()) {
      const sessionid = crypto.randomUUID();
      expect((await post('/api/guidedsearch/allresultscount', { searchcriteria: rows, sessionid })).statusCode).toBe(200);
      // The last run of the EC50 search gets no summary: the one before it named it.
      if (index < 3) await post('/api/bu/sessionsummary/save', { sessionid, summary: `run ${index}` });
      runs.push(sessionid);
    }
    const recent = (await get('/api/home/overview')).data.recentSearches as Array<{
      sessionid: string;
      summary: string | null;
      createdAt: string;
    }>;
    const ec50 = recent.filter((r) => runs.includes(r.sessionid) && r.sessionid !== runs[1]);
    expect(ec50).toEqual([expect.objectContaining({ sessionid: runs[3], summary: 'run 2' })]);
    expect(recent.map((r) => r.sessionid)).toContain(runs[1]);
    // Newest first, each search once.
    expect(recent.map((r) => r.createdAt)).toEqual([...recent.map((r) => r.createdAt)].sort().reverse());
    expect(recent.indexOf(recent.find((r) => r.sessionid === runs[3])!)).toBeLessThan(
      recent.indexOf(recent.find((r) => r.sessionid === runs[1])!),
    );
  });

  it('answers the whole knowledge base before any search', async () => {
    const res = await post('/api/guidedsearch/default/count', undefined);
    const { rows } = await sql<Record<string, number>>`SELECT (SELECT count(*)::int FROM structures) AS "strIdsCount",
      (SELECT count(*)::int FROM activities) AS "actIdsCount", (SELECT count(*)::int FROM documents) AS "refIdsCount"`.execute(
      t.database.db,
    );
    expect(res.data).toMatchObject(rows[0]!);
    expect((await get('/api/security/allmapping/criteriasearch/default/count')).data).toEqual(res.data);
  });

  it('saves a query as a file without empty list rows, and as named criteria the user can make default', async () => {
    const criteria = { rows: [{ selectedOption: 'target', targets: [] }, ...KI.rows] };
    const file = await post('/api/bu/search/save/query', {
      name: 'My Ki search',
      searchcriteria: criteria,
      appliedFilters: [{ chartKey: 'year', include: [2020] }],
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain('My_Ki_search.kbquery.json');
    const parsed = JSON.parse(file.body) as { format: string; searchcriteria: { rows: unknown[] }; appliedFilters: unknown[] };
    expect(parsed.format).toBe(SAVED_QUERY_FORMAT);
    expect(parsed.searchcriteria.rows).toHaveLength(1);
    expect(parsed.appliedFilters).toEqual([{ chartKey: 'year', include: [2020] }]);

    const saved = await post('/api/security/allmapping/search/variable/save', { name: 'Ki', searchcriteria: KI, makeDefault: true });
    const second = await post('/api/security/allmapping/search/variable/save', { name: 'Binding', searchcriteria: MONOVALENT_OR_AGONIST });
    const list = await get('/api/user/criiteria/fetch');
    expect((list.data.rows as Array<{ criteria_name: string; is_active: boolean }>).map((r) => [r.criteria_name, r.is_active])).toEqual([
      ['Binding', false],
      ['Ki', true],
    ]);
    const selected = await post('/api/bu/criteria/select', { criteriaId: second.data.criteria_id });
    expect(selected.data).toMatchObject({ criteria_name: 'Binding', is_active: true });
    // Reading one saved search does not change the default.
    const read = await get(`/api/bu/criteria/${saved.data.criteria_id}`);
    expect(read.data).toMatchObject({
      criteria_name: 'Ki',
      is_active: false,
      searchcriteria: { rows: [{ selectedOption: 'activitytypes' }] },
    });
    expect((await get(`/api/bu/criteria/${saved.data.criteria_id}`, other)).statusCode).toBe(404);
    const after = await post('/api/dashboard/criteria/fetch', undefined);
    expect((after.data.rows as Array<{ is_active: boolean }>).filter((r) => r.is_active)).toHaveLength(1);
    // Another user cannot see, select or delete them.
    expect((await post('/api/bu/criteria/select', { criteriaId: saved.data.criteria_id }, other)).statusCode).toBe(404);
    expect((await post('/api/bu/criteria/delete', { criteriaId: saved.data.criteria_id }, other)).statusCode).toBe(404);
    expect(((await get('/api/user/criiteria/fetch', other)).data.rows as unknown[]).length).toBe(0);
    expect((await post('/api/bu/criteria/delete', { criteriaId: saved.data.criteria_id })).data).toEqual({ deleted: 1 });
  });
});
