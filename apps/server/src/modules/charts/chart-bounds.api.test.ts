import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { LoginResult } from '@kb/contracts/auth';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { SearchCriteriaInput } from '@kb/contracts/search';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';

/**
 * Bounds and values of chart filters are checked against the chart's column type before they
 * reach the database (results/chart-bounds.ts): every malformed one is a 400 naming the chart and what it
 * takes, never a 500 from PostgreSQL refusing the parameter.
 */
const KI: SearchCriteriaInput = { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'Ki' }] }] };

describe.each(DATABASES)('chart filter bounds on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  const sessionid = crypto.randomUUID();
  let setId = 0;
  const post = (url: string, payload: object) => t.call({ method: 'POST', url, headers: authHeaders(me), payload });
  const apply = (filters: object[], tab = 'activitiestab') => post(`/api/results/applyfilters/${tab}`, { sessionid, filters });

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { demoChunks: 1 });
    me = await t.login(demoEmailForRole('FULL_USER'));
    const run = await post('/api/guidedsearch/allresultscount', { searchcriteria: KI, sessionid });
    expect(run.statusCode, run.body).toBe(200);
    const row = await t.database.db.selectFrom('search_sessions').select('set_id').where('id', '=', sessionid).executeTakeFirstOrThrow();
    setId = Number(row.set_id);
  }, 600_000);
  afterAll(() => t?.close());

  it('refuses fractional, huge and reversed bounds on the integer year chart, on every tab', async () => {
    const cases: [object, string][] = [
      [{ minValue: 1990.5, maxValue: 2000.5 }, 'Publication year bounds must be whole numbers (got 1990.5).'],
      [{ minValue: 1990, maxValue: 2000.5 }, 'Publication year bounds must be whole numbers (got 2000.5).'],
      [{ minValue: 1e300 }, 'Publication year bounds must be whole numbers from -2,147,483,648 to 2,147,483,647 (got 1e+300).'],
      [
        { maxValue: -3_000_000_000 },
        'Publication year bounds must be whole numbers from -2,147,483,648 to 2,147,483,647 (got -3000000000).',
      ],
      [{ minValue: 2020, maxValue: 2000 }, 'Publication year: the minimum (2020) is above the maximum (2000).'],
    ];
    for (const tab of ['activitiestab', 'documentstab', 'structuretab']) {
      for (const [bounds, message] of cases) {
        const res = await apply([{ chartKey: 'year', ...bounds }], tab);
        expect(res.statusCode, `${tab} ${JSON.stringify(bounds)}: ${res.body}`).toBe(400);
        expect(res.data.message).toBe(message);
        expect(res.data.code).toBe('VALIDATION');
      }
    }
  });

  it('refuses bounds that are not numbers (NaN-ish strings) with a message naming the field', async () => {
    for (const bad of ['NaN', '1990', 'Infinity', '1e400', null]) {
      const res = await apply([{ chartKey: 'year', minValue: bad, maxValue: bad === null ? 'x' : 2000 }]);
      expect(res.statusCode, `${String(bad)}: ${res.body}`).toBe(400);
      expect(res.data.message).toMatch(/minValue|maxValue/);
    }
  });

  it('refuses picked ids that do not fit the chart’s integer column', async () => {
    const cases: [object, string][] = [
      [{ chartKey: 'target', include: [1.5] }, 'Target values must be ids, whole numbers (got 1.5).'],
      [
        { chartKey: 'target', include: [1e300] },
        'Target values must be ids, whole numbers from -9,007,199,254,740,991 to 9,007,199,254,740,991 (got 1e+300).',
      ],
      [{ chartKey: 'target', exclude: ['abc'] }, 'Target values must be ids, whole numbers (got "abc").'],
      [
        { chartKey: 'phase', include: [40_000] },
        'Highest clinical phase values must be ids, whole numbers from -32,768 to 32,767 (got 40000).',
      ],
      [{ chartKey: 'targetclass', include: ['NaN'] }, 'Target class values must be ids, whole numbers (got "NaN").'],
      [
        { chartKey: 'company', include: [3_000_000_000] },
        'Company values must be ids, whole numbers from -2,147,483,648 to 2,147,483,647 (got 3000000000).',
      ],
    ];
    for (const [filter, message] of cases) {
      const res = await apply([filter]);
      expect(res.statusCode, `${JSON.stringify(filter)}: ${res.body}`).toBe(400);
      expect(res.data.message).toBe(message);
    }
  });

  it('keeps valid bounds working as before: whole years, fractional weights, ids as digit strings', async () => {
    const [years] = (
      await sql<{ lo: number; hi: number; n: number }>`SELECT min(d.year)::int AS lo, max(d.year)::int AS hi, count(*)::int AS n
        FROM search_activities sa JOIN documents d ON d.ref_id = sa.ref_id WHERE sa.set_id = ${setId} AND d.year IS NOT NULL`.execute(
        t.database.db,
      )
    ).rows;
    const year = await apply([{ chartKey: 'year', minValue: years!.lo, maxValue: years!.hi }]);
    expect(year.statusCode, year.body).toBe(200);
    expect(year.data.rowCount).toBe(years!.n);

    const [weights] = (
      await sql<{
        n: number;
      }>`SELECT count(DISTINCT ss.str_id)::int AS n FROM search_structures ss JOIN structures s ON s.str_id = ss.str_id
        WHERE ss.set_id = ${setId} AND s.mol_weight BETWEEN 200.5 AND 450.25`.execute(t.database.db)
    ).rows;
    const weight = await apply([{ chartKey: 'molweight', minValue: 200.5, maxValue: 450.25 }], 'structuretab');
    expect(weight.statusCode, weight.body).toBe(200);
    expect(weight.data.rowCount).toBe(weights!.n);
    // A float column takes any finite number, however large: nothing weighs that much.
    const heavy = await apply([{ chartKey: 'molweight', minValue: 1e300 }], 'structuretab');
    expect(heavy.statusCode, heavy.body).toBe(200);
    expect(heavy.data.rowCount).toBe(0);

    const [target] = (
      await sql<{ target_id: number; n: number }>`SELECT target_id, count(*)::int AS n FROM search_activities
      WHERE set_id = ${setId} AND target_id IS NOT NULL GROUP BY target_id ORDER BY 2 DESC, 1 LIMIT 1`.execute(t.database.db)
    ).rows;
    const picked = await apply([{ chartKey: 'target', include: [String(target!.target_id)] }]);
    expect(picked.statusCode, picked.body).toBe(200);
    expect(picked.data.rowCount).toBe(target!.n);
    expect(picked.data.ignored).toEqual([]);
    await post('/api/results/applyfilters/resetall', { sessionid });
  });
});
