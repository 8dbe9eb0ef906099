import crypto from 'node:crypto';
import { expect } from 'vitest';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import type { LoginResult } from '@kb/contracts/auth';
import type { SearchCriteria, SearchCriteriaInput, AppliedFilter } from '@kb/contracts/search';
import { SearchCriteriaSchema } from '@kb/contracts/search';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { RESULT_TAB_KEYS } from '@kb/contracts/result-tabs';
import type { TabPage } from '@kb/contracts/results';
import { SIMILARITY_COLUMN } from '@kb/contracts/results';
import type { ChartResponse } from '@kb/contracts/charts';
import { CHART_CATALOGUE, MAX_CHART_VALUES } from '@kb/contracts/charts';
import type { AnalyzerTab } from '@kb/contracts/analyzers';
import { ANALYZER_TABS, AnalyzerChartConfigSchema } from '@kb/contracts/analyzers';
import { authHeaders } from './harness.ts';
import type { TestApp } from './harness.ts';
import { callerOf, searchServiceBeside } from './search-services.ts';
import { HttpError } from '../src/http/errors.ts';
import { FileStore } from '../src/db/file-store.ts';
import { SEARCH_SET_TABLES } from '../src/db/tables/search-tables.ts';
import type { SearchService } from '../src/modules/search/search-service.ts';
import { ResultsService } from '../src/modules/results/results-service.ts';
import type { SessionSets } from '../src/modules/results/results-service.ts';
import { sessionFilters } from '../src/modules/results/result-sessions.ts';
import { TAB_MODELS } from '../src/modules/results/tab-model.ts';
import type { Sql } from '../src/modules/results/tab-model.ts';
import { TAB_COLUMNS } from '../src/modules/results/tab-columns.ts';
import { DIMENSIONS, isIntegerColumn } from '../src/modules/results/chart-dimensions.ts';
import { ChartService } from '../src/modules/charts/chart-service.ts';
import { KbDictionaryCache } from '../src/modules/knowledge-base/kb-dictionaries.ts';
import { ExportService } from '../src/modules/export/export-service.ts';
import { ExportJobRunner } from '../src/modules/export/export-jobs.ts';
import { exportableColumns } from '../src/modules/export/export-columns.ts';
import { SarService } from '../src/modules/sar/sar-service.ts';
import { AnalyzerService } from '../src/modules/analyzers/analyzer-service.ts';
import { tabActivities, tabRows, tabStructures } from '../src/modules/analyzers/analyzer-scope.ts';
import type { TabScope } from '../src/modules/analyzers/analyzer-scope.ts';

/**
 * Parity of a search's sets held in memory (SEARCH_SETS=memory, the default) with the set tables
 * (SEARCH_SETS=tables, the SQL path; issue 62, docs/results.md "Sets held in memory"): the app
 * answers one session from memory through its API, services built beside it over the same
 * database answer another session of the same criteria from the set tables, and every reader
 * must answer both alike — pages of every tab, every sortable column both ways, every chart of
 * every tab by count and by label, a filter on every chart of every tab, whole-tab exports, the
 * SAR view's sets and the analyzers' inputs. results/set-parity.api.test.ts (demo data, both
 * databases) and knowledge-base/chembl/chembl-subset.test.ts (the real subset, PGlite) share it.
 */

/** The SQL path's services beside a test app: built as services.ts builds the app's, over the set tables. */
export interface TablesPath {
  search: SearchService;
  dictionaries: KbDictionaryCache;
  results: ResultsService;
  charts: ChartService;
  exports: ExportService;
  exportJobs: ExportJobRunner;
  sar: SarService;
  analyzers: AnalyzerService;
  close(): Promise<void>;
}

export async function tablesPathBeside(t: TestApp): Promise<TablesPath> {
  const { db } = t.database;
  const engine = t.app.services.chemEngine;
  const search = await searchServiceBeside(t, { sets: 'tables' });
  const dictionaries = new KbDictionaryCache(db);
  const results = new ResultsService(db, search, engine, dictionaries);
  const exports = new ExportService(db, results, new FileStore(db), (smiles) => engine.molblocks(smiles), {
    backgroundFromRows: t.config.exports.backgroundFromRows,
    batchRows: t.config.exports.batchRows,
  });
  await dictionaries.current();
  return {
    search,
    dictionaries,
    results,
    charts: new ChartService(db, results, dictionaries),
    exports,
    exportJobs: new ExportJobRunner(db, exports, t.config.exports),
    sar: new SarService(db, results, engine, exports),
    analyzers: new AnalyzerService(db, results, engine),
    close: () => search.close(),
  };
}

/** The two sessions of one search: the app's (sets held in memory) and the SQL path's (set tables). */
export interface SessionPair {
  memoryId: string;
  tablesId: string;
}

type Sort = { column: string; direction: 'asc' | 'desc' };
type ChartSort = { sortType: 'count' | 'label'; sortOrder: 'asc' | 'desc' };
/** What a call of the SQL path's services answered: its value, or the error it threw. */
type Outcome<T> = { value: T } | { error: unknown };

const outcome = <T>(call: Promise<T>): Promise<Outcome<T>> =>
  call.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
/**
 * The status the memory path must refuse with where the SQL path refused: only a refusal (an
 * HttpError below 500) stands for an answer; any other error of the reference fails the test, so
 * that two paths failing alike never pass as two paths answering alike.
 */
const statusOf = (error: unknown): number => {
  if (error instanceof HttpError && error.statusCode < 500) return error.statusCode;
  throw error;
};

/** The chart sorts compared: the default (most results first) and A-Z (sortType 'label'). */
export const CHART_SORTS_COMPARED: readonly ChartSort[] = [
  { sortType: 'count', sortOrder: 'desc' },
  { sortType: 'label', sortOrder: 'asc' },
];

/** Every sortable column of a tab but a similarity search's score (its default order, which `expectSamePages` compares). */
export function sortableColumns(tab: ResultTabKey): string[] {
  return TAB_COLUMNS[tab].filter((column) => column.sortable && column.key !== SIMILARITY_COLUMN).map((column) => column.key);
}

export class SetParity {
  constructor(
    readonly t: TestApp,
    readonly me: LoginResult,
    readonly tables: TablesPath,
  ) {}

  get caller() {
    return callerOf(this.me);
  }

  post(url: string, payload: object) {
    return this.t.call({ method: 'POST', url, headers: authHeaders(this.me), payload });
  }

  session(id: string) {
    return this.t.database.db.selectFrom('search_sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  async setId(id: string): Promise<number> {
    return Number((await this.session(id)).set_id);
  }

  /** Rows of a set in the set tables (0: nothing written). */
  async setRows(setId: number): Promise<number> {
    let rows = 0;
    for (const table of SEARCH_SET_TABLES) {
      const { rows: found } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)} WHERE set_id = ${setId}`.execute(
        this.t.database.db,
      );
      rows += found[0]!.n;
    }
    return rows;
  }

  /** Both paths' searches of `input`: the app's (held in memory) and the service's beside it (tables). */
  async searchBoth(input: SearchCriteriaInput): Promise<SessionPair & { counts: Record<string, number> }> {
    const criteria: SearchCriteria = SearchCriteriaSchema.parse(input);
    const memoryId = crypto.randomUUID();
    const answer = await this.post('/api/guidedsearch/allresultscount', { searchcriteria: input, sessionid: memoryId });
    expect(answer.statusCode, answer.body).toBe(200);
    const tablesId = crypto.randomUUID();
    await this.tables.search.run(this.caller, tablesId, criteria);
    // Counted early from the bitmaps, its sets are written after the answer.
    await this.tables.search.settled(tablesId);
    await this.analyseSetTables();
    return { memoryId, tablesId, counts: (answer.data.rows as Record<string, number>[])[0]! };
  }

  /**
   * The set tables analysed, as the app does after a large search (search-run.ts `analyseSets`, at
   * most once a minute) and autovacuum on a server: filled by the SQL path's searches of a few
   * thousand rows, the planner would take them for empty and join them row by row (1.3 s instead of
   * 30 ms an Assays column sort on PGlite). The answers are the same either way.
   */
  async analyseSetTables(): Promise<void> {
    await sql`ANALYZE ${sql.join(SEARCH_SET_TABLES.map((table) => sql.table(table)))}`.execute(this.t.database.db);
  }

  /** The memory session's sets are held (a version, nothing in the set tables); the SQL path's are in the tables. */
  async expectHeldAndWritten(ids: SessionPair): Promise<void> {
    const held = await this.session(ids.memoryId);
    expect(held.status).toBe('ready');
    expect(held.sets_version).toBeTruthy();
    expect(await this.setRows(Number(held.set_id))).toBe(0);
    const written = await this.setId(ids.tablesId);
    expect(written).not.toBe(Number(held.set_id));
    expect(await this.setRows(written)).toBeGreaterThan(0);
  }

  async memoryPage(tab: ResultTabKey, body: object): Promise<TabPage | null> {
    const answer = await this.post(`/api/results/${tab}`, body);
    expect([200, 204], answer.body).toContain(answer.statusCode);
    return answer.statusCode === 204 ? null : (answer.data as unknown as TabPage);
  }

  /**
   * The first `pages` pages of one tab in one order (none: the tab's default), equal on both
   * sessions: rows, row count, order answered; a page the SQL path refuses is refused alike.
   * Answers how many rows were compared (0: the tab was empty or refused on both paths).
   */
  async expectSameOrder(
    ids: SessionPair,
    tab: ResultTabKey,
    sortOrder: Sort | undefined,
    pageSize: number,
    pages = 3,
    results: ResultsService = this.tables.results,
  ): Promise<number> {
    const order = sortOrder ? { sortOrder } : {};
    let rowsCompared = 0;
    for (let pageNumber = 0; pageNumber < pages; pageNumber++) {
      const what = `${tab} page ${pageNumber} of ${pageSize} by ${sortOrder ? `${sortOrder.column} ${sortOrder.direction}` : 'default'}`;
      const [reference, answer] = await Promise.all([
        outcome(results.page(this.caller, tab, { sessionid: ids.tablesId, pageNumber, pageSize, ...order })),
        this.post(`/api/results/${tab}`, { sessionid: ids.memoryId, pageNumber, pageSize, ...order }),
      ]);
      if ('error' in reference) {
        expect(answer.statusCode, `${what}: ${String(reference.error)}`).toBe(statusOf(reference.error));
        return rowsCompared;
      }
      expect([200, 204], `${what}: ${answer.body}`).toContain(answer.statusCode);
      const held = answer.statusCode === 204 ? null : (answer.data as unknown as TabPage);
      if (!reference.value) {
        expect(held, what).toBeNull();
        return rowsCompared;
      }
      expect(held?.rowCount, `${what}: rows`).toBe(reference.value.rowCount);
      expect(held?.sortOrder, `${what}: order`).toEqual(reference.value.sortOrder);
      expect(held?.data, what).toEqual(reference.value.data);
      rowsCompared += reference.value.data.length;
      if ((pageNumber + 1) * pageSize >= reference.value.rowCount) return rowsCompared;
    }
    return rowsCompared;
  }

  /** Every tab's pages (two sizes, both directions; by score too in a similarity search) of the two sessions, equal. */
  async expectSamePages(ids: SessionPair, results: ResultsService = this.tables.results, pages = 3): Promise<void> {
    for (const tab of RESULT_TAB_KEYS) {
      for (const { pageSize, direction } of [
        { pageSize: 7, direction: 'asc' as const },
        { pageSize: 50, direction: 'desc' as const },
      ]) {
        const first = await results.page(this.caller, tab, { sessionid: ids.tablesId, pageNumber: 0, pageSize });
        // The default order (a similarity search's: its score) and the set's key order.
        const columns = new Set([first?.sortOrder.column ?? 'str_id', TAB_MODELS[tab].defaultSort]);
        for (const column of columns) await this.expectSameOrder(ids, tab, { column, direction }, pageSize, pages, results);
      }
    }
  }

  /**
   * Every sortable column of every tab, both ways: the first page of `pageSize` rows, and the
   * first `deeper(tab, column)` pages (the order past its first rows) where it says more than one.
   * Answers how many orders were compared with rows in them (an empty or refused order is not counted).
   */
  async expectSameSorts(ids: SessionPair, pageSize = 25, deeper: (tab: ResultTabKey, column: string) => number = () => 1): Promise<number> {
    let compared = 0;
    for (const tab of RESULT_TAB_KEYS) {
      for (const column of sortableColumns(tab)) {
        for (const direction of ['asc', 'desc'] as const) {
          if ((await this.expectSameOrder(ids, tab, { column, direction }, pageSize, Math.max(1, deeper(tab, column)))) > 0) compared++;
        }
      }
    }
    return compared;
  }

  /** One chart of one tab in one sort, from memory (the app's API) and from the set tables: every field equal. Answers the SQL path's. */
  async expectSameChart(
    ids: SessionPair,
    tab: ResultTabKey,
    chartKey: string,
    sort: ChartSort = CHART_SORTS_COMPARED[0]!,
    maxCount = MAX_CHART_VALUES,
  ): Promise<ChartResponse | null> {
    const what = `${tab} ${chartKey} by ${sort.sortType} ${sort.sortOrder}`;
    const query = { tab, chartKey, resetFlg: false, maxCount, ...sort };
    const [reference, answer] = await Promise.all([
      outcome(this.tables.charts.chart(this.caller, { ...query, sessionid: ids.tablesId })),
      this.post('/api/results/chart', { sessionid: ids.memoryId, type: tab, charttype: chartKey, maxCount, ...sort }),
    ]);
    if ('error' in reference) {
      expect(answer.statusCode, `${what}: ${String(reference.error)}`).toBe(statusOf(reference.error));
      return null;
    }
    expect(answer.statusCode, `${what}: ${answer.body}`).toBe(200);
    const { chartData, distinct, rows, min, max, applied } = reference.value;
    expect(answer.data.chartData, what).toEqual(chartData);
    expect({ distinct: answer.data.distinct, rows: answer.data.rows, min: answer.data.min, max: answer.data.max }, what).toEqual({
      distinct,
      rows,
      min,
      max,
    });
    expect(answer.data.applied ?? null, what).toEqual(applied);
    return reference.value;
  }

  /** Every chart of every tab, by count and by label: answers the SQL path's charts by count, by `tab chartKey`. */
  async expectSameCharts(ids: SessionPair, sorts: readonly ChartSort[] = CHART_SORTS_COMPARED): Promise<Map<string, ChartResponse>> {
    const byCount = new Map<string, ChartResponse>();
    for (const tab of RESULT_TAB_KEYS) {
      for (const { chartKey } of CHART_CATALOGUE) {
        for (const sort of sorts) {
          const reference = await this.expectSameChart(ids, tab, chartKey, sort);
          if (reference && sort.sortType === 'count' && sort.sortOrder === 'desc') byCount.set(`${tab} ${chartKey}`, reference);
        }
      }
    }
    return byCount;
  }

  /**
   * A filter of one chart's values: an include of its top value (a Tree chart's largest node
   * that narrows the tab, when one does), a range from its minimum to its middle for a Range chart.
   * Null when the chart has no value in these rows.
   */
  static filterOf(chart: ChartResponse): AppliedFilter | null {
    const { chartKey } = chart;
    if (chart.chartType === 'Range') {
      if (chart.min == null || chart.max == null) return null;
      const middle = (chart.min + chart.max) / 2;
      return { chartKey, minValue: chart.min, maxValue: isIntegerColumn(DIMENSIONS[chartKey]!.column) ? Math.floor(middle) : middle };
    }
    const values = [...chart.chartData].sort((a, b) => b.count - a.count);
    const top = chart.chartType === 'Tree' ? (values.find((item) => item.count < chart.rows) ?? values[0]) : values[0];
    return top ? { chartKey, include: [top.id] } : null;
  }

  /**
   * A filter on every chart of every tab (`filterOf`), one at a time: the filtered row count, the
   * filter kept and the first page, equal; each tab's filters are cleared after it. Answers how many
   * filters were compared and how many kept some rows but not all.
   */
  async expectSameFilters(ids: SessionPair, charts?: ReadonlyMap<string, ChartResponse>): Promise<{ compared: number; narrowed: number }> {
    let compared = 0;
    let narrowed = 0;
    const tabCounts = (await this.tables.results.overview(this.caller, ids.tablesId)).tabCounts;
    for (const tab of RESULT_TAB_KEYS) {
      const unfiltered = tabCounts[tab];
      if (!unfiltered) continue;
      for (const { chartKey } of CHART_CATALOGUE) {
        const chart =
          charts?.get(`${tab} ${chartKey}`) ??
          (await this.tables.charts.chart(this.caller, {
            sessionid: ids.tablesId,
            tab,
            chartKey,
            resetFlg: true,
            maxCount: MAX_CHART_VALUES,
            ...CHART_SORTS_COMPARED[0]!,
          }));
        const filter = SetParity.filterOf(chart);
        if (!filter) continue;
        const rows = await this.expectSameApply(ids, tab, [filter]);
        if (rows > 0 && rows < unfiltered) narrowed++;
        await this.expectSameOrder(ids, tab, undefined, 20, 1);
        compared++;
      }
      await this.expectSameApply(ids, tab, []);
    }
    return { compared, narrowed };
  }

  /** Filters applied to one tab of both sessions: the same row count, filters kept and values left out. */
  async expectSameApply(ids: SessionPair, tab: ResultTabKey, filters: readonly AppliedFilter[]): Promise<number> {
    const what = `${tab} filtered by ${JSON.stringify(filters)}`;
    const reference = await this.tables.results.applyFilters(this.caller, tab, ids.tablesId, filters);
    const applied = await this.post(`/api/results/applyfilters/${tab}`, { sessionid: ids.memoryId, filters });
    expect(applied.statusCode, `${what}: ${applied.body}`).toBe(200);
    expect(applied.data.rowCount, `${what}: rows`).toBe(reference.rowCount);
    expect(applied.data.filters, what).toEqual(reference.filters);
    expect(applied.data.ignored, what).toEqual(reference.ignored);
    return reference.rowCount;
  }

  /** The file of a finished export, as the download endpoint sends it. */
  /** A stored file downloaded by its owner through the app (200 expected). */
  async download(fileId: number | null): Promise<LightMyRequestResponse> {
    expect(fileId).not.toBeNull();
    const file = await this.t.call({
      method: 'POST',
      url: '/api/dashboard/downloadfile',
      headers: authHeaders(this.me),
      payload: { fileId },
    });
    expect(file.statusCode, file.body).toBe(200);
    return file;
  }

  /**
   * Every tab exported whole (no selection, every exportable column) as CSV from both sessions:
   * the same row count and the same file, byte for byte (a CSV holds no time of its own; the file
   * name, with the job's id and day, is not compared). Answers the rows of each tab exported.
   */
  async expectSameExports(ids: SessionPair): Promise<Partial<Record<ResultTabKey, number>>> {
    // Whole tabs cost a credit a row.
    await this.t.database.db.updateTable('users').set({ credit_balance: 1_000_000_000 }).where('id', '=', this.me.id).execute();
    const exported: Partial<Record<ResultTabKey, number>> = {};
    for (const tab of RESULT_TAB_KEYS) {
      const request = { tab, selection: null, format: 'csv' as const, columns: exportableColumns(tab).map((column) => column.key) };
      const reference = await outcome(this.tables.exports.create(this.caller, { ...request, sessionid: ids.tablesId }));
      const started = await this.post('/api/export/start', { ...request, sessionid: ids.memoryId });
      if ('error' in reference) {
        expect(started.statusCode, `${tab}: ${String(reference.error)}`).toBe(statusOf(reference.error));
        continue;
      }
      expect(started.statusCode, started.body).toBe(200);
      await this.tables.exportJobs.runNow(reference.value.jobId);
      const job = await this.tables.exports.job(this.caller, reference.value.jobId);
      expect([started.data.status, job.status], tab).toEqual(['done', 'done']);
      expect(started.data.rows, `${tab} rows exported`).toBe(job.rows);
      const [memory, tables] = [(await this.download(started.data.fileId as number)).body, (await this.download(job.fileId)).body];
      // Where they part, line by line first (readable), then byte for byte.
      const [held, written] = [memory.split('\n'), tables.split('\n')];
      const first = written.findIndex((line, i) => line !== held[i]);
      expect(
        { lines: held.length, first: first < 0 ? null : { line: first, memory: held[first], tables: written[first] } },
        `${tab} CSV`,
      ).toEqual({ lines: written.length, first: null });
      expect(memory === tables, `${tab} CSV byte for byte`).toBe(true);
      exported[tab] = job.rows;
    }
    return exported;
  }

  /**
   * The SAR view's set of each tab it opens from, the whole tab as filtered: the same answer (counts,
   * endpoints), and the same structures and activities written to its tables (sar_set_*). Answers the
   * compounds of each (null: refused alike, e.g. over SAR_MAX_COMPOUNDS).
   */
  async expectSameSarSets(ids: SessionPair): Promise<Record<'activitiestab' | 'structuretab', number | null>> {
    const [memorySet, tablesSet] = [await this.setId(ids.memoryId), await this.setId(ids.tablesId)];
    const found = { activitiestab: null as number | null, structuretab: null as number | null };
    for (const tab of ['activitiestab', 'structuretab'] as const) {
      const reference = await outcome(this.tables.sar.setSarData(this.caller, { sessionid: ids.tablesId, tab }));
      const answer = await this.post('/api/results/setSarData', { sessionid: ids.memoryId, tab });
      if ('error' in reference) {
        expect(answer.statusCode, `SAR ${tab}: ${String(reference.error)}`).toBe(statusOf(reference.error));
        expect(answer.data.message).toBe((reference.error as HttpError).body.message);
        continue;
      }
      expect(answer.statusCode, answer.body).toBe(200);
      const { sessionid: _memory, createdAt: _memoryAt, ...held } = answer.data;
      const { sessionid: _tables, createdAt: _tablesAt, ...written } = reference.value;
      expect(held, `SAR ${tab}`).toEqual(written);
      const rowsOf = async (setId: number) => ({
        structures: (
          await sql<{ str_id: string }>`SELECT str_id FROM sar_set_structures WHERE set_id = ${setId} ORDER BY str_id`.execute(
            this.t.database.db,
          )
        ).rows.map((row) => Number(row.str_id)),
        activities: (
          await sql<{ act_id: string; str_id: string; target_id: string | null }>`SELECT act_id, str_id, target_id FROM sar_set_activities
            WHERE set_id = ${setId} ORDER BY act_id`.execute(this.t.database.db)
        ).rows.map((row) => [Number(row.act_id), Number(row.str_id), row.target_id == null ? null : Number(row.target_id)]),
      });
      const [memoryRows, tablesRows] = [await rowsOf(memorySet), await rowsOf(tablesSet)];
      expect(memoryRows.structures.length, `SAR ${tab} structures`).toBe(written.compounds);
      expect(memoryRows, `SAR ${tab} set rows`).toEqual(tablesRows);
      found[tab] = written.compounds;
    }
    return found;
  }

  /**
   * What the analyzers read of each tab (analyzer-scope.ts: the tab's rows, their activities, their
   * structures, over the session's sets as filtered) and what they answer (endpoints, scatters,
   * distributions, the heatmap, the treemap): equal. Answers the rows, activities and structures read.
   */
  async expectSameAnalyzerInputs(ids: SessionPair): Promise<Record<AnalyzerTab, { rows: number; activities: number; structures: number }>> {
    const db = this.t.database.db;
    const scopeOf = ({ session, sets }: SessionSets, tab: AnalyzerTab): TabScope => ({
      tab,
      setId: Number(session.set_id),
      sets,
      filtered: sessionFilters(session)[tab].length > 0,
    });
    const idsOf = async (query: Sql) =>
      (await sql<{ id: string }>`SELECT DISTINCT q.id FROM (${query}) q ORDER BY 1`.execute(db)).rows.map((row) => Number(row.id));
    const inputsOf = async (scope: TabScope) => {
      const rows = tabRows(scope);
      const activities = tabActivities(scope);
      return {
        rows: await idsOf(sql`SELECT ${rows.entity} AS id FROM ${rows.from} WHERE ${rows.where}`),
        activities: await idsOf(sql`SELECT sa.act_id AS id FROM ${activities.from} WHERE ${activities.where}`),
        structures: await idsOf(sql`SELECT s.str_id AS id FROM (${tabStructures(scope)}) s`),
      };
    };
    const memorySets = await this.t.app.services.results.sessionAndSets(this.caller, ids.memoryId);
    expect(memorySets.held, 'the memory session is read from memory').not.toBeNull();
    const tablesSets = await this.tables.results.sessionAndSets(this.caller, ids.tablesId);
    expect(tablesSets.held).toBeNull();
    const sizes = {} as Record<AnalyzerTab, { rows: number; activities: number; structures: number }>;
    for (const tab of ANALYZER_TABS) {
      const [held, written] = [await inputsOf(scopeOf(memorySets, tab)), await inputsOf(scopeOf(tablesSets, tab))];
      expect(held, `analyzer inputs of ${tab}`).toEqual(written);
      sizes[tab] = { rows: written.rows.length, activities: written.activities.length, structures: written.structures.length };
      const endpoints = await this.expectSameAnalyzer(ids, tab, null);
      const endpoint = (endpoints as { endpoints: { targetId: number; activityType: string }[] }).endpoints[0];
      const configs: object[] =
        tab === 'activitiestab'
          ? [
              { chart: 'scatter', x: 'mw', y: 'pactivity', color: 'clogp' },
              { chart: 'distribution', measure: 'pactivity', groupBy: 'target' },
              { chart: 'distribution', measure: 'mw', groupBy: 'year' },
              { chart: 'heatmap' },
              { chart: 'treemap' },
            ]
          : [
              { chart: 'scatter', x: 'mw', y: 'clogp', color: 'psa' },
              ...(endpoint
                ? [
                    {
                      chart: 'scatter',
                      x: 'pactivity',
                      y: 'mw',
                      endpoint: { targetId: endpoint.targetId, activityType: endpoint.activityType },
                    },
                  ]
                : []),
              { chart: 'treemap' },
            ];
      for (const config of configs) await this.expectSameAnalyzer(ids, tab, config);
    }
    return sizes;
  }

  /** One analyzer answer (`config` null: the tab's endpoints) from memory and from the tables, equal; answers it. */
  private async expectSameAnalyzer(ids: SessionPair, tab: AnalyzerTab, config: object | null): Promise<unknown> {
    const what = `analyzer ${tab} ${JSON.stringify(config ?? 'endpoints')}`;
    const parsed = config && AnalyzerChartConfigSchema.parse(config);
    const reference = await outcome<unknown>(
      parsed
        ? this.tables.analyzers.visualization(this.caller, { sessionid: ids.tablesId, tab, config: parsed })
        : this.tables.analyzers.endpoints(this.caller, { sessionid: ids.tablesId, tab }),
    );
    const url = `/api/security/allmapping/search/visualization${parsed ? '' : '/endpoints'}`;
    const answer = await this.post(url, { sessionid: ids.memoryId, tab, ...(parsed ? { config: parsed } : {}) });
    if ('error' in reference) {
      expect(answer.statusCode, `${what}: ${String(reference.error)}`).toBe(statusOf(reference.error));
      return null;
    }
    expect(answer.statusCode, `${what}: ${answer.body}`).toBe(200);
    expect(answer.data, what).toEqual(reference.value);
    return reference.value;
  }
}
