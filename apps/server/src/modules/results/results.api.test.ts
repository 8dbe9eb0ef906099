import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { SearchCriteriaInput } from '@kb/contracts/search';
import { demoEmailForRole } from '@kb/contracts/roles';
import { InnerGridsSchema } from '@kb/contracts/results';
import type { LoginResult } from '@kb/contracts/auth';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';

/**
 * The results workspace on real data: tabs, charts and filters of one search agree with each other
 * and with plain SQL written here (docs/results.md).
 */
const KI: SearchCriteriaInput = { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'Ki' }] }] };
const IC50: SearchCriteriaInput = { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'IC50' }] }] };

type Json = Record<string, unknown>;
type Item = { id: string | number; label: string; count: number; from?: number; to?: number };

describe.each(DATABASES)('results workspace on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  let other: LoginResult;
  let sessionid: string;
  let setId: number;
  let counts: Record<string, number>;
  const post = (url: string, payload: unknown, login: LoginResult = me) =>
    t.call({ method: 'POST', url, headers: authHeaders(login), payload: payload as object });
  const get = (url: string, login: LoginResult = me) => t.call({ method: 'GET', url, headers: authHeaders(login) });
  const page = (tab: string, body: Json = {}, id = sessionid) => post(`/api/results/${tab}`, { sessionid: id, ...body });
  const chart = async (tab: string, chartKey: string, extra: Json = {}) => {
    const answer = await post('/api/results/chart', { sessionid, type: tab, charttype: chartKey, maxCount: 500, ...extra });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.data as {
      chartData: Item[];
      rows: number;
      distinct: number;
      applied: Json | null;
      min: number | null;
      max: number | null;
    };
  };
  const applyFilters = async (tab: string, filters: Json[], id = sessionid) =>
    post(`/api/results/applyfilters/${tab}`, { sessionid: id, filters });
  const one = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(t.database.db)).rows;
  const run = async (criteria: SearchCriteriaInput, id = crypto.randomUUID()) => {
    const answer = await post('/api/guidedsearch/allresultscount', { searchcriteria: criteria, sessionid: id });
    expect(answer.statusCode, answer.body).toBe(200);
    return { id, counts: (answer.data.rows as Record<string, number>[])[0]! };
  };
  const sum = (items: Item[]) => items.reduce((total, item) => total + item.count, 0);

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { demoChunks: 2 });
    me = await t.login(demoEmailForRole('FULL_USER'));
    other = await t.login(demoEmailForRole('EVALUATE_USER'));
    const search = await run(KI);
    sessionid = search.id;
    counts = search.counts;
    const row = await t.database.db.selectFrom('search_sessions').select('set_id').where('id', '=', sessionid).executeTakeFirstOrThrow();
    setId = Number(row.set_id);
  }, 180_000);
  afterAll(() => t.close());

  it('serves the columns of the five tabs: label, type, order, hidden by default', async () => {
    const answer = await get('/api/results/metadata/getalltabcolumns/false');
    expect(answer.statusCode).toBe(200);
    const tabs = answer.data.tabs as { tab: string; columns: { key: string; order: number; hidden: boolean; type: string }[] }[];
    expect(tabs.map((tab) => tab.tab)).toEqual(['structuretab', 'activitiestab', 'assaytab', 'developmentcompoundstab', 'documentstab']);
    for (const tab of tabs) {
      expect(tab.columns.map((c) => c.order)).toEqual(tab.columns.map((_, i) => i));
      expect(tab.columns.find((c) => c.key === 'similarity')).toMatchObject({ hidden: true, type: 'number' });
    }
    const activity = tabs[1]!.columns;
    expect(activity.find((c) => c.key === 'innerGrids')?.type).toBe('json');
    expect(activity.find((c) => c.key === 'dose')?.hidden).toBe(true);
    expect(activity.find((c) => c.key === 'std_activity_type')?.hidden).toBe(false);
    expect((await get('/api/results/metadata/getalltabcolumns/maybe')).statusCode).toBe(400);
  });

  it('counts the rows of every tab as the search counted them, and as SQL does', async () => {
    const [sqlCounts] = await one(
      sql<{
        acts: number;
        strs: number;
      }>`SELECT count(*)::int AS acts, count(DISTINCT str_id)::int AS strs FROM activities WHERE std_activity_type = 'Ki'`,
    );
    expect(counts.actidscount).toBe(sqlCounts!.acts);
    const expected: Record<string, number> = {
      structuretab: counts.stridscount!,
      activitiestab: counts.actidscount!,
      assaytab: counts.assayidscount!,
      developmentcompounds: counts.clinicalcompoundidscount!,
      documentstab: counts.refidscount!,
    };
    for (const [tab, n] of Object.entries(expected)) {
      const answer = await page(tab, { pageSize: 5 });
      expect(answer.statusCode, `${tab}: ${answer.body}`).toBe(200);
      expect(answer.data.rowCount, tab).toBe(n);
      expect((answer.data.data as unknown[]).length, tab).toBe(Math.min(5, n));
      expect(answer.data.strIdNewlyAddedStatus).toBe(false);
    }
    const overview = await get(`/api/results/session/${sessionid}`);
    expect(overview.data.tabCounts).toEqual({
      structuretab: expected.structuretab,
      activitiestab: expected.activitiestab,
      assaytab: expected.assaytab,
      developmentcompoundstab: expected.developmentcompounds,
      documentstab: expected.documentstab,
    });
  });

  it('pages and sorts on the server in the order SQL gives', async () => {
    const answer = await page('activitiestab', {
      pageNumber: 2,
      pageSize: 10,
      sortOrder: { column: 'micro_molarvalue', direction: 'desc' },
    });
    expect(answer.statusCode).toBe(200);
    const expected = await one(sql<{ act_id: number }>`SELECT sa.act_id FROM search_activities sa JOIN activities a ON a.act_id = sa.act_id
      WHERE sa.set_id = ${setId} ORDER BY a.micro_molarvalue DESC NULLS LAST, sa.act_id DESC LIMIT 10 OFFSET 20`);
    expect((answer.data.data as Json[]).map((row) => row.act_id)).toEqual(expected.map((row) => row.act_id));
    expect(answer.data.sortOrder).toEqual({ column: 'micro_molarvalue', direction: 'desc' });
    const structures = await page('structuretab', { pageSize: 3, sortOrder: { column: 'mol_weight', direction: 'asc' } });
    const lightest = await one(sql<{ str_id: number }>`SELECT ss.str_id FROM search_structures ss JOIN structures s ON s.str_id = ss.str_id
      WHERE ss.set_id = ${setId} ORDER BY s.mol_weight ASC NULLS LAST, ss.str_id ASC LIMIT 3`);
    expect((structures.data.data as Json[]).map((row) => row.str_id)).toEqual(lightest.map((row) => row.str_id));
  });

  it('answers bad paging and sorting with a message that says what to do', async () => {
    const beyond = await page('assaytab', { pageNumber: 1000 });
    expect(beyond.statusCode).toBe(400);
    expect(beyond.data.message).toMatch(/beyond the last page/);
    expect((beyond.data.details as Json).lastPage).toBe(Math.ceil(counts.assayidscount! / 10) - 1);
    const unknown = await page('activitiestab', { sortOrder: { column: 'drop table', direction: 'asc' } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.data.message).toMatch(
      /Cannot sort the Activities tab by "drop table"\. Sortable columns: str_id, protein, .*\bact_id\b/,
    );
    expect((await page('documentstab', { sortOrder: { column: 'authors', direction: 'asc' } })).statusCode).toBe(400);
    expect((await page('activitiestab', { sortOrder: { column: 'similarity', direction: 'desc' } })).statusCode).toBe(400);
    expect((await page('nosuchtab')).statusCode).toBe(400);
    expect((await page('structuretab', { pageSize: 0 })).statusCode).toBe(400);
  });

  it('empties a tab with 204 when nothing is in it (structures outside the search)', async () => {
    const [outside] = await one(
      sql<{
        str_id: number;
      }>`SELECT str_id FROM structures WHERE str_id NOT IN (SELECT str_id FROM search_structures WHERE set_id = ${setId}) LIMIT 1`,
    );
    const answer = await page('activitiestab', { strIdList: [outside!.str_id] });
    expect(answer.statusCode).toBe(204);
    expect(answer.body).toBe('');
  });

  it('carries inner grids on activity and assay rows as JSON strings', async () => {
    const activities = await page('activitiestab', { pageSize: 3 });
    for (const row of activities.data.data as Json[]) {
      const grids = InnerGridsSchema.parse(JSON.parse(row.innerGrids as string));
      expect(grids[0]!.title).toBe('Assay');
      expect(grids[0]!.rows[0]?.assay_id).toBe(row.assay_id);
    }
    const assays = await page('assaytab', { pageSize: 2 });
    for (const row of assays.data.data as Json[]) {
      const grids = InnerGridsSchema.parse(JSON.parse(row.innerGrids as string));
      const inSearch = await one(
        sql<{
          act_id: number;
        }>`SELECT sa.act_id FROM search_activities sa WHERE sa.set_id = ${setId} AND sa.assay_id = ${row.assay_id as number} ORDER BY sa.act_id LIMIT 20`,
      );
      expect(grids[0]!.rows.map((r) => r.act_id)).toEqual(inSearch.map((r) => r.act_id));
      expect(row.activities).toBe(
        (
          await one(
            sql<{
              n: number;
            }>`SELECT count(*)::int AS n FROM search_activities WHERE set_id = ${setId} AND assay_id = ${row.assay_id as number}`,
          )
        )[0]!.n,
      );
    }
  });

  it('charts of the activities tab add up to the tab and agree with SQL, value by value', async () => {
    const byAssayType = await one(sql<{ v: string; n: number }>`SELECT ay.assay_type AS v, count(*)::int AS n FROM search_activities sa
      LEFT JOIN assays ay ON ay.assay_id = sa.assay_id WHERE sa.set_id = ${setId} GROUP BY 1`);
    const assaytype = await chart('activitiestab', 'assaytype');
    expect(sum(assaytype.chartData)).toBe(counts.actidscount);
    expect(assaytype.rows).toBe(counts.actidscount);
    expect(Object.fromEntries(assaytype.chartData.map((i) => [i.id, i.count]))).toEqual(
      Object.fromEntries(byAssayType.map((r) => [r.v ?? '__none__', r.n])),
    );
    for (const key of ['bibliographyrefid', 'bibliography', 'activitytype', 'target']) {
      expect(sum((await chart('activitiestab', key)).chartData), key).toBe(counts.actidscount);
    }
    const year = await chart('activitiestab', 'year');
    const [withYear] = await one(
      sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM search_activities sa JOIN documents d ON d.ref_id = sa.ref_id WHERE sa.set_id = ${setId} AND d.year IS NOT NULL`,
    );
    expect(sum(year.chartData)).toBe(withYear!.n);
    // Sorts of spec §9.
    const az = await chart('activitiestab', 'target', { sortType: 'label', sortOrder: 'asc' });
    const labels = az.chartData.map((i) => i.label);
    expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' })));
    const least = await chart('activitiestab', 'target', { sortType: 'count', sortOrder: 'asc', maxCount: 3 });
    expect(least.chartData).toHaveLength(3);
    expect(least.chartData[0]!.count).toBeLessThanOrEqual(least.chartData[2]!.count);
  });

  it('filters by two charts: rows, counts and the other charts follow, as in SQL', async () => {
    const assaytype = await chart('activitiestab', 'assaytype');
    const picked = assaytype.chartData.find((i) => i.id !== '__none__')!;
    const years = await chart('activitiestab', 'year');
    const from = years.min!;
    const to = years.chartData[Math.floor(years.chartData.length / 2)]!.to!;
    const applied = await applyFilters('activitiestab', [
      { chartKey: 'assaytype', include: [picked.id] },
      { chartKey: 'year', minValue: from, maxValue: to },
    ]);
    expect(applied.statusCode, applied.body).toBe(200);
    const [expected] = await one(sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM search_activities sa JOIN assays ay ON ay.assay_id = sa.assay_id
      JOIN documents d ON d.ref_id = sa.ref_id WHERE sa.set_id = ${setId} AND ay.assay_type = ${String(picked.id)} AND d.year BETWEEN ${from} AND ${to}`);
    expect(applied.data.rowCount).toBe(expected!.n);
    expect(applied.data.ignored).toEqual([]);
    const rows = await page('activitiestab', { pageSize: 100 });
    expect(rows.data.rowCount).toBe(expected!.n);
    expect((rows.data.data as Json[]).every((row) => row.assay_type === picked.id)).toBe(true);
    // Another chart of the filtered tab counts the filtered rows; a chart never hides its own filter's values.
    expect(sum((await chart('activitiestab', 'bibliography')).chartData)).toBe(expected!.n);
    const facet = await chart('activitiestab', 'assaytype');
    expect(facet.applied).toMatchObject({ chartKey: 'assaytype', include: [picked.id] });
    expect(facet.chartData.length).toBeGreaterThanOrEqual(1);
    // resetFlg counts the whole tab again.
    expect(sum((await chart('activitiestab', 'bibliography', { resetFlg: true })).chartData)).toBe(counts.actidscount);
    // Other tabs keep their own (no) filters.
    expect((await page('structuretab', { pageSize: 1 })).data.rowCount).toBe(counts.stridscount);
    const overview = await get(`/api/results/session/${sessionid}`);
    expect((overview.data.tabCounts as Json).activitiestab).toBe(expected!.n);
    // Excluding the value leaves the rest.
    const excluded = await applyFilters('activitiestab', [{ chartKey: 'assaytype', exclude: [picked.id] }]);
    expect(excluded.data.rowCount).toBe(counts.actidscount! - picked.count);
    const reset = await post('/api/results/applyfilters/resetall', { sessionid });
    expect((reset.data.tabCounts as Json).activitiestab).toBe(counts.actidscount);
  });

  it('keeps both of two filters applied at the same moment on two tabs', async () => {
    const assaytype = (await chart('activitiestab', 'assaytype')).chartData[0]!;
    const target = (await chart('structuretab', 'target')).chartData[0]!;
    const [a, b] = await Promise.all([
      applyFilters('activitiestab', [{ chartKey: 'assaytype', include: [assaytype.id] }]),
      applyFilters('structuretab', [{ chartKey: 'target', include: [target.id] }]),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const overview = await get(`/api/results/session/${sessionid}`);
    expect((overview.data.filters as Record<string, Json[]>).activitiestab).toHaveLength(1);
    expect((overview.data.filters as Record<string, Json[]>).structuretab).toHaveLength(1);
    expect(overview.data.tabCounts).toMatchObject({ activitiestab: assaytype.count, structuretab: target.count });
    await post('/api/results/applyfilters/resetall', { sessionid });
  });

  it('filters the Structures tab through the structures’ activities, as the chart counted', async () => {
    const target = (await chart('structuretab', 'target')).chartData[0]!;
    const [expected] = await one(
      sql<{
        n: number;
      }>`SELECT count(DISTINCT str_id)::int AS n FROM search_activities WHERE set_id = ${setId} AND target_id = ${Number(target.id)}`,
    );
    expect(target.count).toBe(expected!.n);
    const applied = await applyFilters('structuretab', [{ chartKey: 'target', include: [target.id] }]);
    expect(applied.data.rowCount).toBe(expected!.n);
    const weight = await chart('structuretab', 'molweight');
    expect(sum(weight.chartData)).toBe(expected!.n);
    const docs = await chart('documentstab', 'year', { resetFlg: true });
    expect(sum(docs.chartData)).toBeLessThanOrEqual(counts.refidscount!);
    await post('/api/results/applyfilters/resetall', { sessionid });
  });

  it('drops filter values that are not in the results and refuses malformed filters', async () => {
    const kept = await applyFilters('activitiestab', [
      { chartKey: 'assaytype', include: ['no such assay type'] },
      { chartKey: 'target', include: [999_999_999] },
    ]);
    expect(kept.statusCode).toBe(200);
    expect(kept.data.filters).toEqual([]);
    expect(kept.data.ignored).toEqual([
      { chartKey: 'assaytype', values: ['no such assay type'] },
      { chartKey: 'target', values: [999_999_999] },
    ]);
    expect(kept.data.message).toMatch(/not in these results/);
    expect(kept.data.rowCount).toBe(counts.actidscount);
    const unknown = await applyFilters('activitiestab', [{ chartKey: 'horoscope', include: ['Leo'] }]);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.data.message).toBe('Unknown chart "horoscope".');
    expect((await applyFilters('activitiestab', [{ chartKey: 'year', minValue: 2020, maxValue: 2000 }])).statusCode).toBe(400);
    expect((await applyFilters('activitiestab', [{ chartKey: 'assaytype', minValue: 1 }])).statusCode).toBe(400);
    expect((await post('/api/results/chart', { sessionid, type: 'activitiestab', charttype: 'horoscope' })).statusCode).toBe(400);
    const lhsf = await post('/api/security/lhsf/chart/List/target', { sessionid, type: 'activitiestab', search: 'kinase' });
    expect(lhsf.statusCode).toBe(200);
    expect((lhsf.data.chartData as Item[]).every((i) => /kinase/i.test(i.label))).toBe(true);
    expect((await post('/api/security/lhsf/chart/Range/target', { sessionid, type: 'activitiestab' })).statusCode).toBe(400);
    expect((await post('/api/security/lhsf/chart/Tree/targetclass', { sessionid, type: 'activitiestab', search: 'kin' })).statusCode).toBe(
      400,
    );
  });

  it('turns selected rows into a new search whose counts match SQL', async () => {
    const first = await page('structuretab', { pageSize: 3 });
    const strIds = (first.data.data as Json[]).map((row) => row.str_id as number);
    const answer = await post('/api/results/newsearchby/structuretab', { sessionid, selection: { selectedIds: strIds } });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.data.selected).toBe(3);
    const criteria = answer.data.searchcriteria as SearchCriteriaInput;
    expect(criteria.rows[0]).toMatchObject({ selectedOption: 'selection', entity: 'structure', ids: [...strIds].sort((a, b) => a - b) });
    const selection = crypto.randomUUID();
    const runAnswer = await post('/api/guidedsearch/newsearchbyselectioncount', { searchcriteria: criteria, sessionid: selection });
    const selected = (runAnswer.data.rows as Record<string, number>[])[0]!;
    const [expected] = await one(sql<{ n: number }>`SELECT count(*)::int AS n FROM activities WHERE str_id = ANY(${strIds}::bigint[])`);
    expect(selected).toMatchObject({ stridscount: 3, actidscount: expected!.n });
    const overview = await get(`/api/results/session/${selection}`);
    expect(overview.data.kind).toBe('selection');

    // Select all minus two, on a filtered tab.
    const assaytype = (await chart('activitiestab', 'assaytype')).chartData[0]!;
    const filtered = await applyFilters('activitiestab', [{ chartKey: 'assaytype', include: [assaytype.id] }]);
    const firstActs = ((await page('activitiestab', { pageSize: 2 })).data.data as Json[]).map((row) => row.act_id as number);
    const all = await post('/api/results/newsearchby/activitiestab', {
      sessionid,
      selection: { selectAll: true, unselectedIds: firstActs },
    });
    expect(all.data.selected).toBe((filtered.data.rowCount as number) - 2);
    const activitySearch = await post('/api/guidedsearch/newsearchbyselectioncount', {
      searchcriteria: all.data.searchcriteria,
      sessionid: crypto.randomUUID(),
    });
    expect((activitySearch.data.rows as Record<string, number>[])[0]!.actidscount).toBe((filtered.data.rowCount as number) - 2);
    await post('/api/results/applyfilters/resetall', { sessionid });

    const none = await post('/api/results/newsearchby/structuretab', { sessionid, selection: { selectedIds: [] } });
    expect(none.statusCode).toBe(400);
    expect(none.data.message).toMatch(/Select at least one row/);
    const stranger = await post('/api/results/newsearchby/structuretab', { sessionid, selection: { selectedIds: [999_999_999] } });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.data.message).toMatch(/None of the selected rows/);
  });

  it('goes from rows of one tab to the related rows of another, and back to all', async () => {
    const acts = ((await page('activitiestab', { pageSize: 4 })).data.data as Json[]).map((row) => row.act_id as number);
    const strs = await one(
      sql<{ str_id: number }>`SELECT DISTINCT str_id FROM activities WHERE act_id = ANY(${acts}::bigint[]) ORDER BY 1`,
    );
    const goto = await post('/api/security/navigation/goto', { sessionid, fromTab: 'activitiestab', toTab: 'structuretab', ids: acts });
    expect(goto.statusCode).toBe(200);
    expect(goto.data).toEqual({ tab: 'structuretab', strIdList: strs.map((r) => r.str_id), rowCount: strs.length });
    const shown = await page('structuretab', { strIdList: goto.data.strIdList });
    expect((shown.data.data as Json[]).map((row) => row.str_id)).toEqual(strs.map((r) => r.str_id));
    const docs = await post('/api/security/navigation/goto', { sessionid, fromTab: 'activitiestab', toTab: 'documentstab', ids: acts });
    const viaPage = await page('documentstab', { strIdList: docs.data.strIdList, pageSize: 100 });
    expect(viaPage.data.rowCount).toBe(docs.data.rowCount);
    const all = await post('/api/security/navigation/viewall', { sessionid, tab: 'structuretab' });
    expect(all.data).toEqual({ tab: 'structuretab', rowCount: counts.stridscount });
    expect(
      (await post('/api/security/navigation/goto', { sessionid, fromTab: 'activitiestab', toTab: 'structuretab', ids: [] })).statusCode,
    ).toBe(400);
  });

  it('sorts by similarity to a SMILES and reveals the similarity of each row', async () => {
    const [probe] = await one(sql<{
      str_id: number;
      smiles: string;
    }>`SELECT s.str_id, s.canonical_smiles AS smiles FROM search_structures ss JOIN structures s ON s.str_id = ss.str_id
      WHERE ss.set_id = ${setId} ORDER BY ss.str_id DESC LIMIT 1`);
    const sorted = await page('structuretab', { sortSmiles: probe!.smiles, smilesSortCategory: 'similarity', pageSize: 5 });
    expect(sorted.statusCode, sorted.body).toBe(200);
    const rows = sorted.data.data as Json[];
    expect(rows[0]).toMatchObject({ str_id: probe!.str_id, similarity: 1 });
    const values = rows.map((row) => row.similarity as number);
    expect(values).toEqual([...values].sort((a, b) => b - a));
    expect(sorted.data.sortOrder).toEqual({ column: 'similarity', direction: 'desc' });
    const windowed = await page('activitiestab', { sortSmiles: probe!.smiles, minValue: 0.99, pageSize: 50 });
    const [own] = await one(
      sql<{ n: number }>`SELECT count(*)::int AS n FROM search_activities WHERE set_id = ${setId} AND str_id = ${probe!.str_id}`,
    );
    expect(windowed.data.rowCount).toBeGreaterThanOrEqual(own!.n);
    expect((windowed.data.data as Json[]).every((row) => (row.similarity as number) >= 0.99)).toBe(true);
    const assays = await page('assaytab', { sortSmiles: probe!.smiles, pageSize: 1 });
    expect((assays.data.data as Json[])[0]!.similarity).toBe(1);
    // Select all within the similarity window takes exactly the rows shown.
    const all = await post('/api/results/newsearchby/activitiestab', {
      sessionid,
      selection: { selectAll: true },
      sortSmiles: probe!.smiles,
      minValue: 0.99,
    });
    expect(all.data.selected).toBe(windowed.data.rowCount);
    const bad = await page('structuretab', { sortSmiles: 'C1CC(' });
    expect(bad.statusCode).toBe(400);
    expect(bad.data.message).toMatch(/^Sort by similarity: /);
  });

  it('a similarity search sorts its tabs by its own score, most similar first; a substructure search names its highlight', async () => {
    const [probe] = await one(sql<{
      smiles: string;
    }>`SELECT s.canonical_smiles AS smiles FROM search_structures ss JOIN structures s ON s.str_id = ss.str_id
      WHERE ss.set_id = ${setId} ORDER BY ss.str_id LIMIT 1`);
    const similar = await run({
      rows: [
        {
          selectedOption: 'structure',
          structure: { inputType: 'smiles', value: probe!.smiles, category: 'similarity', similarityMin: 0.3 },
        },
      ],
    });
    const overview = await get(`/api/results/session/${similar.id}`);
    expect(overview.statusCode, overview.body).toBe(200);
    expect(overview.data.structureQuery).toEqual({ similarity: true, highlight: null });
    for (const tab of ['structuretab', 'activitiestab', 'assaytab']) {
      const answer = await page(tab, { pageSize: 50 }, similar.id);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.data.sortOrder).toEqual({ column: 'similarity', direction: 'desc' });
      const values = (answer.data.data as Json[]).map((row) => row.similarity as number);
      expect(
        values.every((value) => typeof value === 'number' && value >= 0.3 && value <= 1),
        tab,
      ).toBe(true);
      expect(values).toEqual([...values].sort((a, b) => b - a));
      expect(values[0]).toBe(1);
    }
    // An assay's and a document's score is the best of its activities' structures (computed here
    // from the structures' scores and the activities table, not through the per-set scores; a
    // search of one similarity row holds every activity of its structures).
    const scores = new Map<number, number>();
    for (let pageNumber = 0; ; pageNumber++) {
      const structures = await page('structuretab', { pageSize: 500, pageNumber }, similar.id);
      for (const row of structures.data.data as Json[]) scores.set(Number(row.str_id), row.similarity as number);
      if (scores.size >= Number(structures.data.rowCount)) break;
    }
    const linked = await one(sql<{ str_id: number; assay_id: number | null; ref_id: number | null }>`SELECT str_id, assay_id, ref_id
      FROM activities WHERE str_id = ANY(${[...scores.keys()]}::bigint[])`);
    for (const [tab, key] of [
      ['assaytab', 'assay_id'],
      ['documentstab', 'ref_id'],
    ] as const) {
      const rows = (await page(tab, { pageSize: 50 }, similar.id)).data.data as Json[];
      expect(rows.length, tab).toBeGreaterThan(0);
      const expected = new Map<string, number>();
      for (const activity of linked) {
        const id = activity[key];
        if (id === null) continue;
        const score = scores.get(Number(activity.str_id))!;
        if (!(expected.get(String(id))! >= score)) expected.set(String(id), score);
      }
      for (const row of rows) expect(row.similarity, `${tab} ${String(row[key])}`).toBeCloseTo(expected.get(String(row[key])) ?? NaN, 5);
    }
    // Ascending on request; a search without a similarity row still needs a SMILES to sort by it.
    const ascending = await page('activitiestab', { pageSize: 5, sortOrder: { column: 'similarity', direction: 'asc' } }, similar.id);
    const low = (ascending.data.data as Json[]).map((row) => row.similarity as number);
    expect(low).toEqual([...low].sort((a, b) => a - b));
    expect((await page('structuretab')).data.sortOrder).toEqual({ column: 'str_id', direction: 'asc' });

    const ring = await run({
      rows: [{ selectedOption: 'structure', structure: { inputType: 'smiles', value: 'c1ccccc1', category: 'substructure' } }],
    });
    const withRing = await get(`/api/results/session/${ring.id}`);
    expect(withRing.data.structureQuery).toEqual({ similarity: false, highlight: { kind: 'smiles', text: 'c1ccccc1' } });
    expect((await get(`/api/results/session/${sessionid}`)).data.structureQuery).toEqual({ similarity: false, highlight: null });
  });

  it('shows one structure as a tabular row, and 404 for an unknown one', async () => {
    const [probe] = await one(
      sql<{ str_id: number; n: number }>`SELECT str_id, count(*)::int AS n FROM activities GROUP BY str_id ORDER BY str_id LIMIT 1`,
    );
    const answer = await get(`/api/results/tabularview/strid/${probe!.str_id}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.data.row).toMatchObject({ str_id: probe!.str_id, activities: probe!.n });
    expect((await get('/api/results/tabularview/strid/999999999')).statusCode).toBe(404);
  });

  it('says when structures were added after the search ran', async () => {
    const { id } = await run(IC50);
    expect((await page('structuretab', { pageSize: 1 }, id)).data.strIdNewlyAddedStatus).toBe(false);
    await t.database.db.updateTable('search_sessions').set({ kb_max_str_id: 1 }).where('id', '=', id).execute();
    expect((await page('structuretab', { pageSize: 1 }, id)).data.strIdNewlyAddedStatus).toBe(true);
  });

  it('keeps each user to their own sessions and explains expired and unknown ones', async () => {
    expect((await page('structuretab', {}, sessionid)).statusCode).toBe(200);
    const theirs = await post('/api/results/structuretab', { sessionid }, other);
    expect(theirs.statusCode).toBe(403);
    expect((await post('/api/results/chart', { sessionid, type: 'structuretab', charttype: 'year' }, other)).statusCode).toBe(403);
    expect((await post('/api/results/applyfilters/structuretab', { sessionid, filters: [] }, other)).statusCode).toBe(403);
    expect((await post('/api/results/newsearchby/structuretab', { sessionid, selection: { selectAll: true } }, other)).statusCode).toBe(
      403,
    );
    expect((await get(`/api/results/session/${sessionid}`, other)).statusCode).toBe(403);
    const unknown = await page('structuretab', {}, crypto.randomUUID());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.data.message).toMatch(/Run the search/);
    const { id } = await run(IC50);
    const dropped = await post('/api/dashboard/dropunloggedtables', { sessionid: id });
    expect(dropped.statusCode).toBe(200);
    const expired = await page('structuretab', {}, id);
    expect(expired.statusCode).toBe(410);
    expect(expired.data.message).toMatch(/expired/);
    expect((await t.call({ method: 'POST', url: '/api/results/structuretab', payload: { sessionid } })).statusCode).toBe(401);
  });
});
