import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { NO_VALUE_ID } from '@kb/contracts/charts';
import type { AppliedFilter, SearchCriteriaInput } from '@kb/contracts/search';
import type { AuthContext } from '../../http/auth-hook.ts';
import { demoEmailForRole } from '@kb/contracts/roles';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { ResultsService } from './results-service.ts';
import { filteredRestriction } from './tab-filters.ts';
import { unsettle } from './memory-fixtures.test-support.ts';

/**
 * The Activities tab's filters evaluated in memory (memory-filters.ts) keep exactly the rows the
 * SQL path keeps: the same ids in result_filtered and the same row count, for includes, excludes,
 * "Not specified", ranges and combinations of them, over rows without a reference, assay or target
 * and with a dangling target (`unsettle`).
 */
const KI: SearchCriteriaInput = { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'Ki' }] }] };

describe.each(DATABASES)('Activities filters in memory on %s', (kind) => {
  let t: TestApp;
  let auth: AuthContext;
  let inSql: ResultsService;
  const sessionid = crypto.randomUUID();
  let setId = 0;

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { demoChunks: 2 });
    const me = await t.login(demoEmailForRole('FULL_USER'));
    const run = await t.call({
      method: 'POST',
      url: '/api/guidedsearch/allresultscount',
      headers: authHeaders(me),
      payload: { searchcriteria: KI, sessionid },
    });
    expect(run.statusCode, run.body).toBe(200);
    const db = t.database.db;
    setId = Number((await db.selectFrom('search_sessions').select('set_id').where('id', '=', sessionid).executeTakeFirstOrThrow()).set_id);
    const user = await db
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
    await unsettle(t, [sessionid]);
    await t.app.services.kbDictionaries!.current();
    inSql = new ResultsService(db, t.app.services.search, t.app.services.chemEngine, null);
  }, 600_000);
  afterAll(() => t?.close());

  async function filteredIds(): Promise<number[]> {
    // As every reader sees them (the stored ids may be those that did not pass).
    const { rows } = await sql<{ id: number }>`SELECT sa.act_id AS id FROM search_activities sa
      WHERE sa.set_id = ${setId} AND ${filteredRestriction('activitiestab', setId, sql`sa.act_id`)} ORDER BY 1`.execute(t.database.db);
    return rows.map((r) => Number(r.id));
  }

  async function values(expr: string): Promise<(string | number)[]> {
    const { rows } = await sql<{ v: string | number }>`SELECT v FROM (SELECT ${sql.raw(expr)} AS v, count(*) AS n FROM search_activities sa
        LEFT JOIN assays ay ON ay.assay_id = sa.assay_id LEFT JOIN documents d ON d.ref_id = sa.ref_id
        WHERE sa.set_id = ${setId} AND ${sql.raw(expr)} IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 3) top`.execute(t.database.db);
    return rows.map((r) => r.v);
  }

  it('keeps the same activities as the SQL path for every kind of filter', async () => {
    const memory = t.app.services.results;
    const [assayType, otherType] = await values('ay.assay_type');
    const [organism] = await values('ay.organism');
    const targets = await values('sa.target_id');
    const refs = await values('sa.ref_id');
    const years = (
      await sql<{
        lo: number;
        hi: number;
      }>`SELECT min(d.year)::int AS lo, max(d.year)::int AS hi FROM search_activities sa JOIN documents d ON d.ref_id = sa.ref_id WHERE sa.set_id = ${setId}`.execute(
        t.database.db,
      )
    ).rows[0]!;
    const middle = Math.round((years.lo + years.hi) / 2);
    const cases: AppliedFilter[][] = [
      [
        { chartKey: 'assaytype', include: [assayType!] },
        { chartKey: 'year', minValue: middle, maxValue: years.hi },
      ],
      [{ chartKey: 'bibliography', exclude: ['J'] }],
      [{ chartKey: 'bibliography', include: ['P', NO_VALUE_ID] }],
      [{ chartKey: 'year', maxValue: middle }],
      [
        { chartKey: 'target', include: targets },
        { chartKey: 'organism', include: [organism!] },
      ],
      [
        { chartKey: 'bibliographyrefid', include: refs },
        { chartKey: 'assaytype', exclude: [otherType ?? assayType!] },
      ],
      [
        { chartKey: 'target', exclude: [targets[0]!, NO_VALUE_ID] },
        { chartKey: 'year', minValue: years.lo },
      ],
      [{ chartKey: 'organism', include: [NO_VALUE_ID] }],
      [
        { chartKey: 'assaytype', exclude: [NO_VALUE_ID] },
        { chartKey: 'bibliographyrefid', include: [NO_VALUE_ID, refs[0]!] },
      ],
    ];
    let nonTrivial = 0;
    const stored = new Set<boolean>();
    for (const filters of cases) {
      const viaMemory = await memory.applyFilters(auth, 'activitiestab', sessionid, filters);
      const memoryIds = await filteredIds();
      stored.add(
        (
          await sql<{
            complement: boolean;
          }>`SELECT complement FROM result_filtered WHERE set_id = ${setId} AND tab = 'activitiestab'`.execute(t.database.db)
        ).rows[0]!.complement,
      );
      const viaSql = await inSql.applyFilters(auth, 'activitiestab', sessionid, filters);
      const sqlIds = await filteredIds();
      expect(viaMemory.rowCount, JSON.stringify(filters)).toBe(viaSql.rowCount);
      expect(memoryIds, JSON.stringify(filters)).toEqual(sqlIds);
      expect(memoryIds.length).toBe(viaMemory.rowCount);
      if (viaSql.rowCount > 0) nonTrivial++;
    }
    expect(nonTrivial, 'cases keeping some rows').toBeGreaterThanOrEqual(5);
    // Both forms were written: the ids that passed, and (most rows passing) those that did not.
    expect([...stored].sort()).toEqual([false, true]);
  }, 300_000);

  it('drops the same filter values as the SQL path: values not in the results, a dangling target', async () => {
    const [assayType] = await values('ay.assay_type');
    const targets = await values('sa.target_id');
    const { rows: dangling } = await sql<{
      id: number;
    }>`SELECT sa.target_id AS id FROM search_activities sa LEFT JOIN targets t ON t.target_id = sa.target_id
        WHERE sa.set_id = ${setId} AND sa.target_id IS NOT NULL AND t.target_id IS NULL LIMIT 1`.execute(t.database.db);
    expect(dangling.length, 'unsettle left a dangling target').toBe(1);
    const filters: AppliedFilter[] = [
      { chartKey: 'target', include: [targets[0]!, Number(dangling[0]!.id), 999_999_999] },
      { chartKey: 'assaytype', exclude: ['no such assay type', assayType!, NO_VALUE_ID] },
      { chartKey: 'bibliography', include: ['P', 'no such source'] },
    ];
    const viaMemory = await t.app.services.results.applyFilters(auth, 'activitiestab', sessionid, filters);
    const viaSql = await inSql.applyFilters(auth, 'activitiestab', sessionid, filters);
    expect(viaMemory.ignored).toEqual(viaSql.ignored);
    expect(viaMemory.filters).toEqual(viaSql.filters);
    expect(viaMemory.rowCount).toBe(viaSql.rowCount);
    expect(viaSql.ignored.map((i) => i.chartKey).sort()).toEqual(['assaytype', 'bibliography', 'target']);
  });

  it('the memory path was the one taken: rows tested and values found through the dictionaries', async () => {
    const d = await t.app.services.kbDictionaries!.current();
    const years = d.refYear;
    const assayTypes = d.assayType;
    // No reference has a year: a year range (no values to look for) keeps no row.
    d.refYear = new Float64Array(years.length).fill(Number.NaN);
    // No assay has a type: an assay type is then not in the results, and is reported so.
    d.assayType = new Uint16Array(assayTypes.length);
    try {
      const ranged = await t.app.services.results.applyFilters(auth, 'activitiestab', sessionid, [
        { chartKey: 'year', minValue: 1900, maxValue: 2100 },
      ]);
      expect(ranged.rowCount).toBe(0);
      const [assayType] = await values('ay.assay_type');
      const typed = await t.app.services.results.applyFilters(auth, 'activitiestab', sessionid, [
        { chartKey: 'assaytype', include: [assayType!] },
      ]);
      expect(typed.ignored).toEqual([{ chartKey: 'assaytype', values: [assayType] }]);
    } finally {
      d.refYear = years;
      d.assayType = assayTypes;
    }
  });

  it('leaves the filtered rows as written when the same filters are applied again, and rewrites them when they change', async () => {
    const [assayType] = await values('ay.assay_type');
    const writes = async () =>
      (
        await sql<{
          x: string;
        }>`SELECT DISTINCT xmin::text AS x FROM result_filtered WHERE set_id = ${setId} AND tab = 'activitiestab'`.execute(t.database.db)
      ).rows.map((r) => r.x);
    const filters: AppliedFilter[] = [
      { chartKey: 'assaytype', include: [assayType!] },
      { chartKey: 'bibliography', include: ['J', 'P'] },
    ];
    const first = await t.app.services.results.applyFilters(auth, 'activitiestab', sessionid, filters);
    expect(first.rowCount).toBeGreaterThan(0);
    const written = await writes();
    expect(written).toHaveLength(1);
    const again = await t.app.services.results.applyFilters(auth, 'activitiestab', sessionid, filters);
    expect(again.rowCount).toBe(first.rowCount);
    expect(again.filters).toEqual(first.filters);
    expect(await writes(), 'not rewritten').toEqual(written);
    const changed = await t.app.services.results.applyFilters(auth, 'activitiestab', sessionid, [filters[0]!]);
    expect(changed.rowCount).toBeGreaterThanOrEqual(first.rowCount);
    expect(await writes()).not.toEqual(written);
    expect(changed.rowCount).toBe((await filteredIds()).length);
  });
});
