import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginResult } from '@kb/contracts/auth';
import type { ChartResponse } from '@kb/contracts/charts';
import { demoEmailForRole } from '@kb/contracts/roles';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';

/**
 * Charts of a tab narrowed to related rows ("go to", docs/results.md): they count the rows the grid
 * shows — those of the structures gone to — not the whole tab. Expected figures in plain SQL.
 */
describe.each(DATABASES)('charts of related rows on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  let sessionid: string;
  let setId: number;
  let strIds: number[];

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { demoChunks: 1 });
    me = await t.login(demoEmailForRole('FULL_USER'));
    sessionid = crypto.randomUUID();
    const rows = [{ selectedOption: 'activitytypes', activities: [{ activityType: 'IC50' }] }];
    const run = await t.call({
      method: 'POST',
      url: '/api/guidedsearch/allresultscount',
      headers: authHeaders(me),
      payload: { searchcriteria: { rows }, sessionid },
    });
    expect(run.statusCode, run.body).toBe(200);
    setId = Number(
      (await t.database.db.selectFrom('search_sessions').select('set_id').where('id', '=', sessionid).executeTakeFirstOrThrow()).set_id,
    );
    const picked = await sql<{
      str_id: number;
    }>`SELECT str_id FROM search_structures WHERE set_id = ${setId} ORDER BY str_id LIMIT 6`.execute(t.database.db);
    strIds = picked.rows.map((r) => Number(r.str_id));
  }, 180_000);
  afterAll(() => t?.close());

  const chart = async (tab: string, charttype: string, strIdList?: number[]) => {
    const answer = await t.call({
      method: 'POST',
      url: '/api/results/chart',
      headers: authHeaders(me),
      payload: { sessionid, type: tab, charttype, maxCount: 500, ...(strIdList ? { strIdList } : {}) },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.data as unknown as ChartResponse;
  };

  it('counts the related activities only, bar by bar, as SQL does', async () => {
    const goto = await t.call({
      method: 'POST',
      url: '/api/security/navigation/goto',
      headers: authHeaders(me),
      payload: { sessionid, fromTab: 'structuretab', toTab: 'activitiestab', ids: strIds },
    });
    expect(goto.statusCode, goto.body).toBe(200);
    const whole = await chart('activitiestab', 'assaytype');
    const related = await chart('activitiestab', 'assaytype', goto.data.strIdList as number[]);
    expect(related.rows).toBe(goto.data.rowCount);
    expect(related.rows).toBeLessThan(whole.rows);
    const { rows } = await sql<{
      v: string | null;
      n: number;
    }>`SELECT ay.assay_type AS v, count(*)::int AS n FROM search_activities sa JOIN assays ay ON ay.assay_id = sa.assay_id
      WHERE sa.set_id = ${setId} AND sa.str_id = ANY(${strIds}::bigint[]) GROUP BY 1`.execute(t.database.db);
    const expected = Object.fromEntries(rows.map((r) => [String(r.v), r.n]));
    const shown = Object.fromEntries(related.chartData.map((item) => [String(item.id), item.count]));
    expect(shown).toEqual(expected);
  });

  it('counts the related structures on the Structures tab and the related references on the Documents tab', async () => {
    const structures = await chart('structuretab', 'year', strIds);
    expect(structures.rows).toBe(strIds.length);
    const refs = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM (SELECT sa.ref_id FROM search_activities sa WHERE sa.set_id = ${setId} AND sa.str_id = ANY(${strIds}::bigint[])
      UNION SELECT c.ref_id FROM compounds c WHERE c.str_id = ANY(${strIds}::bigint[])) r WHERE r.ref_id IN (SELECT ref_id FROM search_references WHERE set_id = ${setId})`.execute(
      t.database.db,
    );
    const documents = await chart('documentstab', 'bibliography', strIds);
    expect(documents.rows).toBe(refs.rows[0]!.n);
  });

  it('gives each target bar its gene symbol as a short label (null without one), and finds targets by it', async () => {
    const targets = await chart('activitiestab', 'target');
    expect(targets.chartData.length).toBeGreaterThan(0);
    const ids = targets.chartData.map((item) => Number(item.id)).filter(Number.isFinite);
    const { rows } = await sql<{ target_id: string; name: string; gene_symbol: string | null }>`
      SELECT target_id::text, name, gene_symbol FROM targets WHERE target_id = ANY(${ids}::bigint[])`.execute(t.database.db);
    const known = new Map(rows.map((r) => [r.target_id, r]));
    for (const item of targets.chartData) {
      const row = known.get(String(item.id));
      if (!row) continue;
      expect(item.label).toBe(row.name);
      expect(item.short).toBe(row.gene_symbol?.trim() || null);
    }
    const withSymbol = targets.chartData.find((item) => item.short);
    expect(withSymbol, 'the demo search reaches targets with gene symbols').toBeDefined();
    const answer = await t.call({
      method: 'POST',
      url: '/api/security/lhsf/chart/List/target',
      headers: authHeaders(me),
      payload: { sessionid, type: 'activitiestab', maxCount: 500, search: withSymbol!.short!.toLowerCase() },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect((answer.data as unknown as ChartResponse).chartData.map((item) => item.id)).toContain(withSymbol!.id);
    // Charts without short names send none: the client keeps their labels.
    expect((await chart('activitiestab', 'assaytype')).chartData.every((item) => item.short === undefined)).toBe(true);
  });
});
