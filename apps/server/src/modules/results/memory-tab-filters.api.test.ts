import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { NO_VALUE_ID } from '@kb/contracts/charts';
import type { AppliedFilter, SearchCriteriaInput } from '@kb/contracts/search';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import type { LoginResult } from '@kb/contracts/auth';
import { demoEmailForRole } from '@kb/contracts/roles';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { callerOf } from '../../../test/search-services.ts';
import type { HeldSets } from '../search/session-sets.ts';
import { ResultsService } from './results-service.ts';
import { storedFilteredRows } from './filtered-rows.ts';
import { heldFilteredIds } from './memory-pages.ts';
import { ChartService } from '../charts/chart-service.ts';

/**
 * Filters of the Structures, Assays and References tabs evaluated in memory over a search's sets
 * held in memory (memory-filters.ts, issue 62) keep exactly the rows the SQL path keeps over the
 * same held sets (tab-filters.ts): records of a tab row reached through its activities (a
 * structure's targets, an assay's references) and its own (an assay's type and organism, a
 * reference's source and year); includes, excludes, "Not specified", ranges, combinations, and
 * values not in the search dropped alike. The first page after an Apply is the passing rows.
 */
const BINDING_OR_IC50: SearchCriteriaInput = {
  rows: [
    { selectedOption: 'assay', assayTypes: ['binding'], operator: 'OR' },
    { selectedOption: 'activitytypes', activities: [{ activityType: 'IC50' }] },
  ],
};

describe.each(DATABASES)('tab filters in memory on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  let inSql: ResultsService;
  let held: HeldSets;
  const sessionid = crypto.randomUUID();
  const post = (url: string, payload: object) => t.call({ method: 'POST', url, headers: authHeaders(me), payload });

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { demoChunks: 2 });
    // Searches counted while a load runs keep their sets in the tables: end the seed's load first.
    await sql`UPDATE kb_loads SET status = 'complete', finished_at = now() WHERE status = 'running'`.execute(t.database.db);
    await t.app.services.search.bitmapsReady();
    me = await t.login(demoEmailForRole('FULL_USER'));
    const run = await post('/api/guidedsearch/allresultscount', { searchcriteria: BINDING_OR_IC50, sessionid });
    expect(run.statusCode, run.body).toBe(200);
    const session = await t.database.db.selectFrom('search_sessions').selectAll().where('id', '=', sessionid).executeTakeFirstOrThrow();
    const sets = await t.app.services.search.heldSets(session);
    expect(sets, 'the search is held in memory').not.toBeNull();
    held = sets!;
    await t.app.services.kbDictionaries!.current();
    // The same service without the dictionaries: every filter in SQL, over the same held sets.
    inSql = new ResultsService(t.database.db, t.app.services.search, t.app.services.chemEngine, null);
    targets = (await chart('structuretab', 'target')).ids;
  }, 600_000);
  afterAll(() => t?.close());

  /** The chart's values on a tab, most frequent first (ids as the chart answers them), and its range. */
  async function chart(tab: ResultTabKey, chartKey: string): Promise<{ ids: (string | number)[]; min?: number; max?: number }> {
    const answer = await post('/api/results/chart', { sessionid, type: tab, charttype: chartKey, maxCount: 10 });
    expect(answer.statusCode, answer.body).toBe(200);
    const data = answer.data as { chartData: { id: string | number }[]; min?: number; max?: number };
    return { ids: data.chartData.map((bar) => bar.id).filter((id) => id !== NO_VALUE_ID), min: data.min, max: data.max };
  }

  /** The ids of the tab's rows that passed, as result_filtered holds them. */
  async function passing(tab: ResultTabKey): Promise<number[]> {
    const stored = await storedFilteredRows(t.database.db, held.setId, tab);
    return Array.from(heldFilteredIds(held, tab, stored ?? { ids: [], complement: false }));
  }

  /** The Structures tab's targets, most frequent first, before any filter. */
  let targets: (string | number)[] = [];

  async function cases(): Promise<[ResultTabKey, AppliedFilter[]][]> {
    const year = await chart('structuretab', 'year');
    const middle = Math.round(((year.min ?? 2000) + (year.max ?? 2000)) / 2);
    const assayTypes = (await chart('assaytab', 'assaytype')).ids;
    const organisms = (await chart('assaytab', 'organism')).ids;
    const refs = (await chart('documentstab', 'bibliographyrefid')).ids;
    expect(targets.length && assayTypes.length && organisms.length && refs.length, 'the demo search has values to filter on').toBeTruthy();
    return [
      ['structuretab', [{ chartKey: 'target', include: [targets[0]!] }]],
      ['structuretab', [{ chartKey: 'target', exclude: [targets[0]!, NO_VALUE_ID] }]],
      [
        'structuretab',
        [
          { chartKey: 'year', minValue: middle, maxValue: year.max },
          { chartKey: 'assaytype', exclude: [assayTypes[0]!] },
        ],
      ],
      ['structuretab', [{ chartKey: 'bibliography', include: ['P', NO_VALUE_ID] }]],
      ['structuretab', [{ chartKey: 'organism', include: [NO_VALUE_ID] }]],
      ['assaytab', [{ chartKey: 'assaytype', include: [assayTypes[0]!] }]],
      ['assaytab', [{ chartKey: 'organism', exclude: [organisms[0]!, NO_VALUE_ID] }]],
      [
        'assaytab',
        [
          { chartKey: 'year', maxValue: middle },
          { chartKey: 'bibliographyrefid', include: refs.slice(0, 3) },
        ],
      ],
      ['documentstab', [{ chartKey: 'bibliography', include: ['J'] }]],
      ['documentstab', [{ chartKey: 'year', minValue: middle }]],
      [
        'documentstab',
        [
          { chartKey: 'assaytype', include: [assayTypes[0]!] },
          { chartKey: 'target', exclude: targets.slice(0, 2) },
        ],
      ],
      ['documentstab', [{ chartKey: 'bibliographyrefid', exclude: [refs[0]!] }]],
    ];
  }

  it('keeps the same rows as the SQL path on every tab, for every kind of filter', async () => {
    let narrowed = 0;
    for (const [tab, filters] of await cases()) {
      const label = `${tab} ${JSON.stringify(filters)}`;
      const viaMemory = await t.app.services.results.applyFilters(callerOf(me), tab, sessionid, filters);
      const memoryRows = await passing(tab);
      const viaSql = await inSql.applyFilters(callerOf(me), tab, sessionid, filters);
      const sqlRows = await passing(tab);
      expect(viaMemory.rowCount, label).toBe(viaSql.rowCount);
      expect(viaMemory.filters, label).toEqual(viaSql.filters);
      expect(memoryRows, label).toEqual(sqlRows);
      expect(memoryRows.length, label).toBe(viaMemory.rowCount);
      if (
        viaSql.rowCount > 0 &&
        viaSql.rowCount < held.sets[tab === 'structuretab' ? 'structures' : tab === 'assaytab' ? 'assays' : 'references'].size
      )
        narrowed++;
    }
    expect(narrowed, 'cases that keep some rows but not all').toBeGreaterThanOrEqual(7);
  }, 300_000);

  it('drops the same filter values as the SQL path: values not in the search', async () => {
    for (const [tab, filters] of [
      ['structuretab', [{ chartKey: 'target', include: [targets[0]!, 999_999_999] }]],
      ['assaytab', [{ chartKey: 'assaytype', exclude: ['no such assay type', NO_VALUE_ID] }]],
      ['documentstab', [{ chartKey: 'bibliographyrefid', include: [999_999_999] }]],
    ] as [ResultTabKey, AppliedFilter[]][]) {
      const viaMemory = await t.app.services.results.applyFilters(callerOf(me), tab, sessionid, filters);
      const viaSql = await inSql.applyFilters(callerOf(me), tab, sessionid, filters);
      expect(viaMemory.ignored, tab).toEqual(viaSql.ignored);
      expect(viaMemory.ignored.length, tab).toBe(1);
      expect(viaMemory.filters, tab).toEqual(viaSql.filters);
      expect(viaMemory.rowCount, tab).toBe(viaSql.rowCount);
    }
  });

  it('the memory path was the one taken: values read from the dictionaries, on own records and through activities', async () => {
    const d = await t.app.services.kbDictionaries!.current();
    const years = d.refYear;
    const organisms = d.assayOrganism;
    // No reference has a year, no assay an organism (in the dictionaries only).
    d.refYear = new Float64Array(years.length).fill(Number.NaN);
    d.assayOrganism = new Uint16Array(organisms.length);
    try {
      for (const tab of ['structuretab', 'documentstab'] as const) {
        const ranged = await t.app.services.results.applyFilters(callerOf(me), tab, sessionid, [
          { chartKey: 'year', minValue: 1900, maxValue: 2100 },
        ]);
        expect(ranged.rowCount, tab).toBe(0);
      }
      const unknown = await t.app.services.results.applyFilters(callerOf(me), 'assaytab', sessionid, [
        { chartKey: 'organism', include: [NO_VALUE_ID] },
      ]);
      expect(unknown.rowCount).toBe(held.sets.assays.size);
    } finally {
      d.refYear = years;
      d.assayOrganism = organisms;
    }
  });

  it('counts the charts of a filtered Activities or Structures tab from the held rows that pass, as SQL counts them', async () => {
    const sqlCharts = new ChartService(t.database.db, inSql, null);
    const fromHeld = vi.spyOn(t.app.services.results, 'heldFilteredActivityRows');
    const cases: [ResultTabKey, AppliedFilter[]][] = [
      ['structuretab', [{ chartKey: 'target', include: [targets[0]!] }]],
      ['activitiestab', [{ chartKey: 'bibliography', include: ['J'] }]],
    ];
    for (const [tab, filters] of cases) {
      const applied = await t.app.services.results.applyFilters(callerOf(me), tab, sessionid, filters);
      expect(applied.rowCount, tab).toBeGreaterThan(0);
      for (const chartKey of ['target', 'year', 'assaytype', 'bibliography', 'organism', 'bibliographyrefid']) {
        const answer = await post('/api/results/chart', { sessionid, type: tab, charttype: chartKey, maxCount: 50 });
        expect(answer.statusCode, answer.body).toBe(200);
        const reference = await sqlCharts.chart(callerOf(me), {
          sessionid,
          tab,
          chartKey,
          resetFlg: false,
          sortType: 'count',
          sortOrder: 'desc',
          maxCount: 50,
        });
        expect(answer.data.chartData, `${tab} ${chartKey}`).toEqual(reference.chartData);
        expect(answer.data.rows, `${tab} ${chartKey}`).toBe(reference.rows);
      }
    }
    expect(fromHeld).toHaveBeenCalled();
    fromHeld.mockRestore();
  });

  it('answers the first page after an Apply with the rows that passed', async () => {
    const applied = await post('/api/results/applyfilters/structuretab', {
      sessionid,
      filters: [{ chartKey: 'target', include: [targets[0]] }],
    });
    expect(applied.statusCode, applied.body).toBe(200);
    const rowCount = applied.data.rowCount as number;
    const page = await post('/api/results/structuretab', { sessionid, pageNumber: 0, pageSize: 500 });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.data.rowCount).toBe(rowCount);
    const shown = (page.data.data as { str_id: number }[]).map((row) => Number(row.str_id));
    expect(shown).toEqual((await passing('structuretab')).slice(0, 500));
  });
});
