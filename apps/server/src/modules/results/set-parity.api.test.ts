import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { SearchCriteriaInput } from '@kb/contracts/search';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { LoginResult } from '@kb/contracts/auth';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { RESULT_TAB_KEYS } from '@kb/contracts/result-tabs';
import { CHART_CATALOGUE } from '@kb/contracts/charts';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { callerOf, searchServiceBeside } from '../../../test/search-services.ts';
import { CHART_SORTS_COMPARED, SetParity, sortableColumns, tablesPathBeside } from '../../../test/set-parity.ts';
import type { TablesPath } from '../../../test/set-parity.ts';
import { ResultsService } from './results-service.ts';
import { ChartService } from '../charts/chart-service.ts';
import { KbDictionaryCache } from '../knowledge-base/kb-dictionaries.ts';
import { TAB_MODELS } from './tab-model.ts';
import { DERIVED_KINDS, SetsMadeOnRead } from '../search/bitmaps/sets-made-on-read.ts';
import { TAB_COLUMNS } from './tab-columns.ts';

/**
 * Sets held in memory (issue 62; docs/results.md "Sets held in memory") against the set tables:
 * the app holds a search's sets in memory (SEARCH_SETS=memory, the default), services beside it
 * write them to the tables as before (test/set-parity.ts, shared with the ChEMBL subset's parity);
 * every tab's pages (both directions, several page sizes, inner grids included), every sortable
 * column of every tab both ways, every chart of every tab by count and by label, a filter on every
 * chart of every tab, whole-tab exports (CSV, byte for byte), the SAR view's sets and the
 * analyzers' inputs must be equal, row for row. A second server that never saw the search
 * recomputes the same sets from the session's definition. Filters, charts counted in SQL and every
 * page read the held sets (as relations sent with the SQL, set-source.ts): nothing is written to
 * the set tables unless a reader that still needs them asks (`ResultsService.session` with its tables).
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
  let tables: TablesPath;
  let parity: SetParity;
  const post = (url: string, payload: object) => parity.post(url, payload);
  const setRows = (setId: number) => parity.setRows(setId);
  const session = (id: string) => parity.session(id);
  const searchBoth = (input: SearchCriteriaInput) => parity.searchBoth(input);
  const memoryPage = (tab: ResultTabKey, body: object) => parity.memoryPage(tab, body);
  const expectSamePages = (memoryId: string, tablesId: string, results: ResultsService = tables.results) =>
    parity.expectSamePages({ memoryId, tablesId }, results);

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { demoChunks: 2 });
    me = await t.login(demoEmailForRole('FULL_USER'));
    // The partial demo seed leaves its load running; finished, the knowledge base is at rest, as a
    // server's usually is (charts are counted in memory only then).
    await sql`UPDATE kb_loads SET status = 'complete', finished_at = now() WHERE finished_at IS NULL`.execute(t.database.db);
    tables = await tablesPathBeside(t);
    parity = new SetParity(t, me, tables);
    // The app's bitmap columns and dictionaries, read as a server reads them at start.
    await t.app.services.search.bitmapsReady();
    await t.app.services.kbDictionaries?.current();
  }, 180_000);
  afterAll(async () => {
    await tables?.close();
    await t?.close();
  });

  it.each(Object.keys(CASES))('%s: pages and charts from memory equal the set tables, with nothing written', async (name) => {
    const { memoryId, tablesId, counts } = await searchBoth(CASES[name]!);
    // A case that found nothing would compare empty tabs with empty tabs.
    expect(counts.actidscount, name).toBeGreaterThan(0);
    await parity.expectHeldAndWritten({ memoryId, tablesId });
    const held = await session(memoryId);
    await expectSamePages(memoryId, tablesId);
    const expectSameChart = (tab: ResultTabKey, chartKey: string) => parity.expectSameChart({ memoryId, tablesId }, tab, chartKey);
    for (const tab of ['activitiestab', 'structuretab'] as const)
      for (const chartKey of MEMORY_CHARTS) await expectSameChart(tab, chartKey);
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
      tables.charts.chart(callerOf(me), { sessionid, tab, chartKey, resetFlg: false, sortType: 'count', sortOrder: 'desc', maxCount: 50 });
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
      if ((await parity.expectSameApply({ memoryId, tablesId }, tab, wanted as never)) > 0) narrowed++;
    }
    // Most tabs have filters that keep some of their rows.
    expect(narrowed).toBeGreaterThanOrEqual(3);
    expect(await setRows(setId)).toBe(0);
    // Every tab's pages, key order both ways; a column sort of the filtered rows; the charts of filtered tabs.
    await expectSamePages(memoryId, tablesId);
    for (const tab of RESULT_TAB_KEYS) {
      const column = TAB_COLUMNS[tab].find((c) => c.sortable && c.type === 'text' && c.key !== TAB_MODELS[tab].defaultSort);
      if (column) await parity.expectSameOrder({ memoryId, tablesId }, tab, { column: column.key, direction: 'desc' }, 10, 2);
    }
    for (const [tab, chartKey] of [
      ['activitiestab', 'target'],
      ['activitiestab', 'mechanism'],
      ['structuretab', 'assaytype'],
      ['assaytab', 'organism'],
    ] as const)
      await parity.expectSameChart({ memoryId, tablesId }, tab, chartKey, CHART_SORTS_COMPARED[0], 50);
    const overview = await t.call({ method: 'GET', url: `/api/results/session/${memoryId}`, headers: authHeaders(me) });
    expect(overview.statusCode, overview.body).toBe(200);
    expect(overview.data.tabCounts).toEqual((await tables.results.overview(callerOf(me), tablesId)).tabCounts);
    expect(await setRows(setId)).toBe(0);
  }, 180_000);

  it('sorts every tab by every sortable column from memory, both ways, with nothing written', async () => {
    const ids = await searchBoth(CASES['assay type OR mechanism']!);
    const setId = Number((await session(ids.memoryId)).set_id);
    // Every sortable column of every tab, both ways (its SQL is the column's on both paths; what
    // differs is where the set comes from and, in memory, that the whole order is kept with the
    // held sets): the first 20 rows, ties broken by id; and for a column of each type (text,
    // number, integer, date …) the second page too, the order past its first rows.
    const deeper = new Set(
      RESULT_TAB_KEYS.flatMap((tab) => {
        const sortable = TAB_COLUMNS[tab].filter(
          (column) => column.sortable && column.key !== 'similarity' && column.key !== TAB_MODELS[tab].defaultSort,
        );
        return [...new Map(sortable.map((column) => [column.type, `${tab} ${column.key}`])).values()];
      }),
    );
    const compared = await parity.expectSameSorts(ids, 20, (tab, column) => (deeper.has(`${tab} ${column}`) ? 2 : 1));
    // Orders compared with rows in them, of 2 × every sortable column (an empty tab's are not counted).
    expect(compared).toBeLessThanOrEqual(2 * RESULT_TAB_KEYS.reduce((n, tab) => n + sortableColumns(tab).length, 0));
    expect(compared).toBeGreaterThan(200);
    expect(await setRows(setId)).toBe(0);
  }, 300_000);

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
        const file = await parity.download(started.data.fileId as number);
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

  it('exports every tab whole as CSV from memory, byte for byte as the set tables path does, with nothing written', async () => {
    const ids = await searchBoth(CASES['value range']!);
    await parity.expectHeldAndWritten(ids);
    // Every row of every tab, every exportable column; the SQL path's export service writes its file from the set tables.
    const exported = await parity.expectSameExports(ids);
    expect(Object.keys(exported)).toEqual(RESULT_TAB_KEYS.filter((tab) => exported[tab]));
    expect(Object.keys(exported).length).toBeGreaterThanOrEqual(4);
    expect(exported.activitiestab).toBe(ids.counts.actidscount);
    expect(await setRows(await parity.setId(ids.memoryId))).toBe(0);
  });

  it('every chart of every tab, by count and by label, then a filter on every chart of every tab: from memory as from the set tables, with nothing written', async () => {
    const ids = await searchBoth(CASES['NOT with properties']!);
    await parity.expectHeldAndWritten(ids);
    // Fifteen charts on five tabs, most results first and A-Z: every value, its count, the totals, the range's bounds.
    const charts = await parity.expectSameCharts(ids);
    expect(charts.size).toBe(RESULT_TAB_KEYS.length * CHART_CATALOGUE.length);
    // On each chart of each tab, one at a time: its top value included (a range for a Range chart);
    // the filtered row count and the first page.
    const { compared, narrowed } = await parity.expectSameFilters(ids, charts);
    expect(compared).toBeGreaterThanOrEqual(60);
    expect(narrowed).toBeGreaterThanOrEqual(40);
    expect(await setRows(await parity.setId(ids.memoryId))).toBe(0);
  }, 300_000);

  it('puts the same rows into the SAR view and gives the analyzers the same inputs as the set tables, unfiltered and filtered, with nothing written', async () => {
    const ids = await searchBoth(CASES['assay type OR mechanism']!);
    await parity.expectHeldAndWritten(ids);
    const setId = await parity.setId(ids.memoryId);
    for (const filtered of [false, true]) {
      if (filtered) {
        // A filter on the two tabs the SAR view and the analyzers open from: their rows as filtered.
        for (const [tab, chartKey] of [
          ['activitiestab', 'target'],
          ['structuretab', 'assaytype'],
        ] as const) {
          const chart = await parity.expectSameChart(ids, tab, chartKey);
          expect(await parity.expectSameApply(ids, tab, [SetParity.filterOf(chart!)!])).toBeGreaterThan(0);
        }
      }
      const sar = await parity.expectSameSarSets(ids);
      expect(sar.activitiestab, `filtered: ${filtered}`).toBeGreaterThan(0);
      expect(sar.structuretab, `filtered: ${filtered}`).toBeGreaterThan(0);
      const inputs = await parity.expectSameAnalyzerInputs(ids);
      expect(inputs.activitiestab.rows).toBeGreaterThan(0);
      expect(inputs.structuretab.activities).toBeGreaterThan(0);
      if (!filtered) expect(inputs.activitiestab.rows).toBe(ids.counts.actidscount);
    }
    expect(await setRows(setId)).toBe(0);
  }, 180_000);

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
        const reference = await tables.results.page(callerOf(me), tab, { sessionid: tablesId, pageNumber: 0, pageSize: 20 });
        const recomputed = await otherResults.page(callerOf(me), tab, { sessionid: memoryId, pageNumber: 0, pageSize: 20 });
        expect(recomputed?.data, tab).toEqual(reference?.data);
        expect(madeSets(), tab).toEqual(made);
      }
      // A background export of the Assays tab asks for its own set only (export-service.ts `write`).
      expect(await otherResults.holdsTab(await session(memoryId), 'assaytab')).toBe(true);
      expect(madeSets()).toEqual(['structures', 'assays']);
      for (const tab of RESULT_TAB_KEYS) {
        const reference = await tables.results.page(callerOf(me), tab, { sessionid: tablesId, pageNumber: 0, pageSize: 20 });
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
        const expected = await tables.charts.chart(callerOf(me), { ...query, sessionid: tablesId });
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
          const reference = await tables.results.page(callerOf(me), tab, { sessionid: tablesId, pageNumber: 0, pageSize: 20 });
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
          const reference = await tables.results.page(callerOf(me), tab, { ...request, sessionid: tablesId }).catch(() => null);
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
