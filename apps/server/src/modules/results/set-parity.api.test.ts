import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { SearchCriteria, SearchCriteriaInput } from '@kb/contracts/search';
import { SearchCriteriaSchema } from '@kb/contracts/search';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { LoginResult } from '@kb/contracts/auth';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { RESULT_TAB_KEYS } from '@kb/contracts/result-tabs';
import type { TabPage } from '@kb/contracts/results';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { callerOf, searchServiceBeside } from '../../../test/search-services.ts';
import type { SearchService } from '../search/search-service.ts';
import { ResultsService } from './results-service.ts';
import { ChartService } from '../charts/chart-service.ts';
import { KbDictionaryCache } from '../knowledge-base/kb-dictionaries.ts';
import { SEARCH_SET_TABLES } from '../../db/tables/search-tables.ts';
import { TAB_MODELS } from './tab-model.ts';
import { DERIVED_KINDS, SetsMadeOnRead } from '../search/bitmaps/sets-made-on-read.ts';
import { TAB_COLUMNS } from './tab-columns.ts';

/**
 * Sets held in memory (issue 62; docs/results.md "Sets held in memory") against the set tables:
 * the app holds a search's sets in memory (SEARCH_SETS=memory, the default), a service beside it
 * writes them to the tables as before; every tab's pages (both directions, several page sizes,
 * inner grids included) and the Activities and Structures charts must be equal, row for row. A
 * second server that never saw the search recomputes the same sets from the session's
 * definition. Filters, charts counted in SQL and every page read the held sets (as relations sent
 * with the SQL, set-source.ts): nothing is written to the set tables unless a reader that still
 * needs them asks (`ResultsService.session` with its tables).
 */
const CASES: Record<string, SearchCriteriaInput> = {
  'activity type': { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'Ki' }] }] },
  'value range': {
    rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'IC50', activityUom: 'uM', prefix: '<', minValue: 1 }] }],
  },
  'assay type OR mechanism': {
    rows: [
      { selectedOption: 'assay', assayTypes: ['binding'], operator: 'OR' },
      { selectedOption: 'activitymechanism', mechanisms: ['Inhibitor'] },
    ],
  },
  'NOT with properties': {
    rows: [
      { selectedOption: 'activitytypes', activities: [{ activityType: 'IC50' }], operator: 'NOT' },
      { selectedOption: 'structure', properties: { molmin: 300, logpmax: 3 } },
    ],
  },
};
/** Charts counted from the sets in memory (row-values.ts), and one counted in SQL (over the held sets as relations). */
const MEMORY_CHARTS = ['target', 'year', 'assaytype', 'bibliography', 'organism', 'activitytype'];
const SQL_CHART = 'mechanism';

describe.each(DATABASES)('search sets held in memory on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  let tables: SearchService;
  let tablesResults: ResultsService;
  let tablesCharts: ChartService;
  const post = (url: string, payload: object) => t.call({ method: 'POST', url, headers: authHeaders(me), payload });
  const setRows = async (setId: number) => {
    let rows = 0;
    for (const table of SEARCH_SET_TABLES) {
      const { rows: found } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)} WHERE set_id = ${setId}`.execute(
        t.database.db,
      );
      rows += found[0]!.n;
    }
    return rows;
  };
  const session = (id: string) => t.database.db.selectFrom('search_sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  /** Both paths' searches of `input`: the app's (held in memory) and the service's beside it (tables). */
  const searchBoth = async (input: SearchCriteriaInput) => {
    const criteria: SearchCriteria = SearchCriteriaSchema.parse(input);
    const memoryId = crypto.randomUUID();
    const answer = await post('/api/guidedsearch/allresultscount', { searchcriteria: input, sessionid: memoryId });
    expect(answer.statusCode, answer.body).toBe(200);
    const tablesId = crypto.randomUUID();
    await tables.run(callerOf(me), tablesId, criteria);
    // Counted early from the bitmaps, its sets are written after the answer.
    await tables.settled(tablesId);
    return { memoryId, tablesId, counts: (answer.data.rows as Record<string, number>[])[0]! };
  };
  const memoryPage = async (tab: ResultTabKey, body: object) => {
    const answer = await post(`/api/results/${tab}`, body);
    expect([200, 204], answer.body).toContain(answer.statusCode);
    return answer.statusCode === 204 ? null : (answer.data as unknown as TabPage);
  };
  /** The first pages of one tab in one order, equal on both sessions. */
  const expectSameOrder = async (
    ids: { memoryId: string; tablesId: string },
    results: ResultsService,
    tab: ResultTabKey,
    sortOrder: { column: string; direction: 'asc' | 'desc' },
    pageSize: number,
    pages = 3,
  ) => {
    for (let pageNumber = 0; pageNumber < pages; pageNumber++) {
      const reference = await results
        .page(callerOf(me), tab, { sessionid: ids.tablesId, pageNumber, pageSize, sortOrder })
        .catch(() => null);
      const held = await memoryPage(tab, { sessionid: ids.memoryId, pageNumber, pageSize, sortOrder }).catch(() => null);
      if (!reference) break;
      expect(held?.rowCount, `${tab} rows`).toBe(reference.rowCount);
      expect(held?.data, `${tab} page ${pageNumber} of ${pageSize} by ${sortOrder.column} ${sortOrder.direction}`).toEqual(reference.data);
    }
  };
  /** Every page of every tab (a few sizes, both directions; by score too in a similarity search) of the two sessions, equal. */
  const expectSamePages = async (memoryId: string, tablesId: string, results: ResultsService = tablesResults) => {
    for (const tab of RESULT_TAB_KEYS) {
      for (const { pageSize, direction } of [
        { pageSize: 7, direction: 'asc' as const },
        { pageSize: 50, direction: 'desc' as const },
      ]) {
        const first = (await results.page(callerOf(me), tab, { sessionid: tablesId, pageNumber: 0, pageSize })) ?? null;
        // The default order (a similarity search's: its score) and the set's key order.
        const columns = new Set([first?.sortOrder.column ?? 'str_id', TAB_MODELS[tab].defaultSort]);
        for (const column of columns) await expectSameOrder({ memoryId, tablesId }, results, tab, { column, direction }, pageSize);
      }
    }
  };

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { demoChunks: 2 });
    me = await t.login(demoEmailForRole('FULL_USER'));
    // The partial demo seed leaves its load running; finished, the knowledge base is at rest, as a
    // server's usually is (charts are counted in memory only then).
    await sql`UPDATE kb_loads SET status = 'complete', finished_at = now() WHERE finished_at IS NULL`.execute(t.database.db);
    tables = await searchServiceBeside(t, { sets: 'tables' });
    const dictionaries = new KbDictionaryCache(t.database.db);
    tablesResults = new ResultsService(t.database.db, tables, t.app.services.chemEngine, dictionaries);
    tablesCharts = new ChartService(t.database.db, tablesResults, dictionaries);
    // The app's bitmap columns and dictionaries, read as a server reads them at start.
    await t.app.services.search.bitmapsReady();
    await t.app.services.kbDictionaries?.current();
    await dictionaries.current();
  }, 180_000);
  afterAll(async () => {
    await tables?.close();
    await t?.close();
  });

  it.each(Object.keys(CASES))('%s: pages and charts from memory equal the set tables, with nothing written', async (name) => {
    const { memoryId, tablesId, counts } = await searchBoth(CASES[name]!);
    const held = await session(memoryId);
    expect(held.status).toBe('ready');
    expect(held.sets_version).toBeTruthy();
    expect(await setRows(Number(held.set_id))).toBe(0);
    expect(Number((await session(tablesId)).set_id)).not.toBe(Number(held.set_id));
    expect(await setRows(Number((await session(tablesId)).set_id))).toBeGreaterThan(0);
    await expectSamePages(memoryId, tablesId);
    const expectSameChart = async (tab: string, chartKey: string) => {
      const query = {
        tab: tab as ResultTabKey,
        chartKey,
        resetFlg: false,
        sortType: 'count' as const,
        sortOrder: 'desc' as const,
        maxCount: 500,
      };
      const reference = await tablesCharts.chart(callerOf(me), { ...query, sessionid: tablesId });
      const answer = await post('/api/results/chart', { sessionid: memoryId, type: tab, charttype: chartKey, maxCount: 500 });
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.data.chartData, `${tab} ${chartKey}`).toEqual(reference.chartData);
      expect(answer.data.rows).toBe(reference.rows);
    };
    for (const tab of ['activitiestab', 'structuretab']) for (const chartKey of MEMORY_CHARTS) await expectSameChart(tab, chartKey);
    expect(counts.actidscount).toBe(((await session(tablesId)).counts as Record<string, number>).actidscount);
    // A chart counted in SQL reads the held sets as relations: the same answer.
    await expectSameChart('activitiestab', SQL_CHART);
    await expectSameChart('assaytab', 'targetclass');
    // Pages and charts read nothing from the set tables: none written.
    expect(await setRows(Number(held.set_id))).toBe(0);
  });

  /** The demo structure with the most activities, and what resembles it (or has a Ki). */
  const similarityInput = async (): Promise<SearchCriteriaInput> => {
    const { rows } = await sql<{
      smiles: string;
    }>`SELECT s.canonical_smiles AS smiles FROM structures s JOIN activities a ON a.str_id = s.str_id
      GROUP BY s.str_id, s.canonical_smiles ORDER BY count(*) DESC, s.str_id LIMIT 1`.execute(t.database.db);
    const similar = { inputType: 'smiles', value: rows[0]!.smiles, category: 'similarity', similarityMin: 0.3 } as const;
    return {
      rows: [
        { selectedOption: 'structure', structure: { feature: 'desalted', ...similar }, operator: 'OR' },
        { selectedOption: 'activitytypes', activities: [{ activityType: 'Ki' }] },
      ],
    };
  };

  it('a similarity search: every tab in score order and in key order from memory, with nothing written; then written out with its scores', async () => {
    const { memoryId, tablesId, counts } = await searchBoth(await similarityInput());
    expect(counts.stridscount).toBeGreaterThan(1);
    const setId = Number((await session(memoryId)).set_id);
    expect(await setRows(setId)).toBe(0);
    await expectSamePages(memoryId, tablesId);
    const scored = await memoryPage('structuretab', { sessionid: memoryId, pageNumber: 0, pageSize: 5 });
    expect(scored?.sortOrder).toEqual({ column: 'similarity', direction: 'desc' });
    expect(scored?.data[0]?.similarity).toBe(1);
    expect(await setRows(setId)).toBe(0);
    // A reader that needs the set tables has them written from memory with the scores held: the same pages.
    await t.app.services.results.session(callerOf(me), memoryId);
    expect(await setRows(setId)).toBeGreaterThan(0);
    await expectSamePages(memoryId, tablesId);
  }, 180_000);

  it('filters every tab from memory, with nothing written: counts, pages, sorts and charts equal the set tables', async () => {
    const { memoryId, tablesId } = await searchBoth(CASES['assay type OR mechanism']!);
    const setId = Number((await session(memoryId)).set_id);
    const chartOf = (sessionid: string, tab: ResultTabKey, chartKey: string) =>
      tablesCharts.chart(callerOf(me), { sessionid, tab, chartKey, resetFlg: false, sortType: 'count', sortOrder: 'desc', maxCount: 50 });
    const topValue = async (tab: ResultTabKey, chartKey: string) => (await chartOf(tablesId, tab, chartKey)).chartData[0]?.id;
    // Per tab: an include on a chart of one value per activity (counted in memory on the Activities
    // tab), one reaching the tab's rows through their activities, an exclude, a range.
    const year = await chartOf(tablesId, 'activitiestab', 'year');
    const filters: Record<ResultTabKey, object[]> = {
      activitiestab: [
        { chartKey: 'assaytype', include: [await topValue('activitiestab', 'assaytype')] },
        { chartKey: 'year', minValue: year.min, maxValue: Math.round(((year.min ?? 0) + (year.max ?? 0)) / 2) },
      ],
      structuretab: [{ chartKey: 'target', include: [await topValue('structuretab', 'target')] }],
      assaytab: [{ chartKey: 'mechanism', exclude: [await topValue('assaytab', 'mechanism')] }],
      documentstab: [{ chartKey: 'targetclass', include: [await topValue('documentstab', 'targetclass')] }],
      developmentcompoundstab: [{ chartKey: 'phase', include: [await topValue('developmentcompoundstab', 'phase')] }],
    };
    let narrowed = 0;
    for (const tab of RESULT_TAB_KEYS) {
      const wanted = filters[tab].filter((filter) => !('include' in filter) || (filter.include as unknown[])[0] !== undefined);
      if (!wanted.length) continue;
      const reference = await tablesResults.applyFilters(callerOf(me), tab, tablesId, wanted as never);
      const applied = await post(`/api/results/applyfilters/${tab}`, { sessionid: memoryId, filters: wanted });
      expect(applied.statusCode, applied.body).toBe(200);
      expect(applied.data.rowCount, `${tab} filtered rows`).toBe(reference.rowCount);
      expect(applied.data.filters).toEqual(reference.filters);
      if (reference.rowCount > 0) narrowed++;
    }
    // Most tabs have filters that keep some of their rows.
    expect(narrowed).toBeGreaterThanOrEqual(3);
    expect(await setRows(setId)).toBe(0);
    // Every tab's pages, key order both ways; a column sort of the filtered rows; the charts of filtered tabs.
    await expectSamePages(memoryId, tablesId);
    for (const tab of RESULT_TAB_KEYS) {
      const column = TAB_COLUMNS[tab].find((c) => c.sortable && c.type === 'text' && c.key !== TAB_MODELS[tab].defaultSort);
      if (column) await expectSameOrder({ memoryId, tablesId }, tablesResults, tab, { column: column.key, direction: 'desc' }, 10, 2);
    }
    for (const [tab, chartKey] of [
      ['activitiestab', 'target'],
      ['activitiestab', 'mechanism'],
      ['structuretab', 'assaytype'],
      ['assaytab', 'organism'],
    ] as const) {
      const reference = await chartOf(tablesId, tab, chartKey);
      const answer = await post('/api/results/chart', { sessionid: memoryId, type: tab, charttype: chartKey, maxCount: 50 });
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.data.chartData, `${tab} ${chartKey}`).toEqual(reference.chartData);
      expect(answer.data.rows).toBe(reference.rows);
    }
    const overview = await t.call({ method: 'GET', url: `/api/results/session/${memoryId}`, headers: authHeaders(me) });
    expect(overview.statusCode, overview.body).toBe(200);
    expect(overview.data.tabCounts).toEqual((await tablesResults.overview(callerOf(me), tablesId)).tabCounts);
    expect(await setRows(setId)).toBe(0);
  }, 180_000);

  it('sorts every tab by a column of each type from memory, both ways, with nothing written', async () => {
    const { memoryId, tablesId } = await searchBoth(CASES['assay type OR mechanism']!);
    const setId = Number((await session(memoryId)).set_id);
    for (const tab of RESULT_TAB_KEYS) {
      // One sortable column of each type (text, number, integer, date …): the sort's SQL is the
      // column's, the same on both paths; what differs is where the set comes from.
      const sortable = TAB_COLUMNS[tab].filter(
        (column) => column.sortable && column.key !== 'similarity' && column.key !== TAB_MODELS[tab].defaultSort,
      );
      const columns = [...new Map(sortable.map((column) => [column.type, column])).values()];
      for (const column of columns) {
        for (const direction of ['asc', 'desc'] as const) {
          // The second page: the order past its first rows (ties broken by id) too.
          await expectSameOrder({ memoryId, tablesId }, tablesResults, tab, { column: column.key, direction }, 20, 2);
        }
      }
    }
    expect(await setRows(setId)).toBe(0);
  }, 180_000);

  it('writes the set tables when a reader needs them, then answers the same from memory and from the tables', async () => {
    const { memoryId, tablesId } = await searchBoth(CASES['activity type']!);
    const before = await session(memoryId);
    // A reader that joins the set tables has them written now, from the sets held (the same answer, same version).
    await t.app.services.results.session(callerOf(me), memoryId);
    const after = await session(memoryId);
    expect(await setRows(Number(after.set_id))).toBeGreaterThan(0);
    expect(after.sets_version).toBe(before.sets_version);
    expect(after.counts).toEqual(before.counts);
    await expectSamePages(memoryId, tablesId);
  });

  it('exports ticked rows of every tab from memory, with nothing written, as it does once the tables are written', async () => {
    const { memoryId } = await searchBoth(CASES['value range']!);
    const setId = Number((await session(memoryId)).set_id);
    /** Each tab's first rows (and an id that is not in the search) exported as CSV: count and file. */
    const exportAll = async () => {
      const files: Record<string, { rows: number; csv: string }> = {};
      for (const tab of RESULT_TAB_KEYS) {
        const page = await memoryPage(tab, { sessionid: memoryId, pageNumber: 0, pageSize: 4 });
        if (!page) continue;
        const key = page.sortOrder.column;
        const selection = { selectedIds: [...page.data.map((row) => Number(row[key])), 999_999_999] };
        const counted = await post('/api/guidedsearch/exportdatacount', { sessionid: memoryId, tab, selection });
        expect(counted.statusCode, counted.body).toBe(200);
        expect(counted.data.rows, tab).toBe(page.data.length);
        // Every column of the tab (the page's keys; the inner grids and a search's similarity are no export column).
        const columns = Object.keys(page.data[0]!).filter((column) => column !== 'innerGrids' && column !== 'similarity');
        const started = await post('/api/export/start', { sessionid: memoryId, tab, selection, format: 'csv', columns });
        expect(started.statusCode, started.body).toBe(200);
        const file = await t.call({
          method: 'POST',
          url: '/api/dashboard/downloadfile',
          headers: authHeaders(me),
          payload: { fileId: started.data.fileId },
        });
        expect(file.statusCode, file.body).toBe(200);
        files[tab] = { rows: Number(counted.data.rows), csv: file.body };
      }
      return files;
    };
    const fromMemory = await exportAll();
    expect(Object.keys(fromMemory).length).toBeGreaterThan(2);
    expect(await setRows(setId)).toBe(0);
    // Once a reader has the tables written, the same exports read them.
    await t.app.services.results.session(callerOf(me), memoryId);
    expect(await setRows(setId)).toBeGreaterThan(0);
    expect(await exportAll()).toEqual(fromMemory);
  });

  it('a server that never saw the search recomputes the same sets from its definition; after the knowledge base changed, runs it again and holds it', async () => {
    const { memoryId, tablesId } = await searchBoth(CASES['assay type OR mechanism']!);
    const other = await searchServiceBeside(t, { sets: 'memory' });
    try {
      const otherDictionaries = new KbDictionaryCache(t.database.db);
      const otherResults = new ResultsService(t.database.db, other, t.app.services.chemEngine, otherDictionaries);
      // An Activities page makes no other set of a recompute; a Structures page the structures only.
      const onRead = (await other.heldSets(await session(memoryId), ['activities']))!.sets as SetsMadeOnRead;
      expect(onRead).toBeInstanceOf(SetsMadeOnRead);
      const madeSets = () => DERIVED_KINDS.filter((kind) => onRead.isMade(kind));
      for (const [tab, made] of [
        ['activitiestab', []],
        ['structuretab', ['structures']],
      ] as const) {
        const reference = await tablesResults.page(callerOf(me), tab, { sessionid: tablesId, pageNumber: 0, pageSize: 20 });
        const recomputed = await otherResults.page(callerOf(me), tab, { sessionid: memoryId, pageNumber: 0, pageSize: 20 });
        expect(recomputed?.data, tab).toEqual(reference?.data);
        expect(madeSets(), tab).toEqual(made);
      }
      // A background export of the Assays tab asks for its own set only (export-service.ts `write`).
      expect(await otherResults.holdsTab(await session(memoryId), 'assaytab')).toBe(true);
      expect(madeSets()).toEqual(['structures', 'assays']);
      for (const tab of RESULT_TAB_KEYS) {
        const reference = await tablesResults.page(callerOf(me), tab, { sessionid: tablesId, pageNumber: 0, pageSize: 20 });
        const recomputed = await otherResults.page(callerOf(me), tab, { sessionid: memoryId, pageNumber: 0, pageSize: 20 });
        expect(recomputed?.data, tab).toEqual(reference?.data);
      }
      expect(madeSets()).toEqual([...DERIVED_KINDS]);
      // Charts on the recomputed sets (counted in memory and in SQL over them as relations): the set tables' answer.
      const otherCharts = new ChartService(t.database.db, otherResults, otherDictionaries);
      for (const [tab, chartKey] of [
        ['activitiestab', 'target'],
        ['activitiestab', SQL_CHART],
        ['assaytab', 'targetclass'],
        ['documentstab', 'year'],
      ]) {
        const query = {
          tab: tab as ResultTabKey,
          chartKey: chartKey!,
          resetFlg: false,
          sortType: 'count' as const,
          sortOrder: 'desc' as const,
          maxCount: 500,
        };
        const expected = await tablesCharts.chart(callerOf(me), { ...query, sessionid: tablesId });
        expect((await otherCharts.chart(callerOf(me), { ...query, sessionid: memoryId })).chartData, `${tab} ${chartKey}`).toEqual(
          expected.chartData,
        );
      }
      expect(other.setPaths.recomputed).toBe(1);
      expect(await setRows(Number((await session(memoryId)).set_id))).toBe(0);
      // Another knowledge-base version than the run's: not recomputed from memory (the tables are written instead).
      await t.database.db.updateTable('search_sessions').set({ kb_version: 'another version' }).where('id', '=', memoryId).execute();
      const fresh = await session(memoryId);
      const third = await searchServiceBeside(t, { sets: 'memory' });
      try {
        expect(await third.heldSets(fresh)).toBeNull();
        expect(third.setPaths.recomputed).toBe(0);
        // A reader there: the search is run again on the knowledge base as it is and held — the
        // same pages (nothing changed in the data), no set table written, the session's version now current.
        const thirdResults = new ResultsService(t.database.db, third, t.app.services.chemEngine, new KbDictionaryCache(t.database.db));
        for (const tab of RESULT_TAB_KEYS) {
          const reference = await tablesResults.page(callerOf(me), tab, { sessionid: tablesId, pageNumber: 0, pageSize: 20 });
          const rerun = await thirdResults.page(callerOf(me), tab, { sessionid: memoryId, pageNumber: 0, pageSize: 20 });
          expect(rerun?.data, tab).toEqual(reference?.data);
        }
        const after = await session(memoryId);
        expect(after.kb_version).not.toBe('another version');
        expect(after.sets_version).not.toBe(fresh.sets_version);
        expect(after.counts).toEqual(fresh.counts);
        expect(third.setPaths.written).toBe(0);
        expect(await setRows(Number(after.set_id))).toBe(0);
        expect(await third.heldSets(after)).not.toBeNull();
      } finally {
        await third.close();
      }
    } finally {
      await other.close();
    }
  });
  it("a recomputed similarity search: every tab's pages in score order equal the set tables', its Activities pages making no other set", async () => {
    const { memoryId, tablesId } = await searchBoth(await similarityInput());
    const other = await searchServiceBeside(t, { sets: 'memory' });
    try {
      const otherResults = new ResultsService(t.database.db, other, t.app.services.chemEngine, new KbDictionaryCache(t.database.db));
      /** The first pages of a tab in the search's default order (its score) on the recomputing server and from the tables. */
      const expectSame = async (tab: ResultTabKey) => {
        for (let pageNumber = 0; pageNumber < 3; pageNumber++) {
          const request = { pageNumber, pageSize: 7 };
          const reference = await tablesResults.page(callerOf(me), tab, { ...request, sessionid: tablesId }).catch(() => null);
          const recomputed = await otherResults.page(callerOf(me), tab, { ...request, sessionid: memoryId }).catch(() => null);
          expect(recomputed?.sortOrder, tab).toEqual(reference?.sortOrder);
          expect(recomputed?.data, `${tab} page ${pageNumber}`).toEqual(reference?.data);
          if (!reference) break;
        }
      };
      await expectSame('activitiestab');
      const onRead = (await other.heldSets(await session(memoryId), ['activities']))!.sets as SetsMadeOnRead;
      expect(DERIVED_KINDS.filter((kind) => onRead.isMade(kind))).toEqual([]);
      expect(other.setPaths.recomputed).toBe(1);
      for (const tab of RESULT_TAB_KEYS) await expectSame(tab);
    } finally {
      await other.close();
    }
  }, 180_000);
});
