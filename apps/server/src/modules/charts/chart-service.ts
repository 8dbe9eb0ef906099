import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { ChartItem, ChartResponse } from '@kb/contracts/charts';
import { NO_VALUE_ID, NO_VALUE_LABEL, chartDefinition } from '@kb/contracts/charts';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import type { Database } from '../../db/schema.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import { HttpError, badRequest } from '../../http/errors.ts';
import { ERROR_CODES } from '@kb/contracts/errors';
import type { ResultsService } from '../results/results-service.ts';
import { sessionFilters } from '../results/result-sessions.ts';
import { factsFor } from '../results/tab-model.ts';
import { setTables } from '../results/set-source.ts';
import type { SetSource } from '../results/set-source.ts';
import type { Facts, Sql } from '../results/tab-model.ts';
import { dimensionOf, filteredRestriction } from '../results/tab-filters.ts';
import { rowsOfStructures } from '../results/tab-model.ts';
import { BIBLIOGRAPHY_LABELS, isIntegerColumn } from '../results/chart-dimensions.ts';
import { ChartBatches, sqlBatch } from './chart-batch.ts';
import type { ChartBatch, Group } from './chart-batch.ts';
import { isRowValueChart } from '../results/row-values.ts';
import type { RowValueChart, SessionRows } from '../results/row-values.ts';
import type { ResultSession } from '../results/result-sessions.ts';
import type { KbDictionaries, KbDictionaryCache } from '../knowledge-base/kb-dictionaries.ts';
import { memoryBatch, readBatchRows } from './memory-batch.ts';
import type { Dimension } from '../results/chart-dimensions.ts';
import { binItems, binOf, rangeLayout } from './range-bins.ts';

/**
 * Charts of a results tab (docs/results.md "Charts"): each counts the tab's rows per value of one
 * property, over the rows that pass the tab's filters (so a chart adds up to the tab); `resetFlg`
 * counts every row of the tab.
 */

export interface ChartQuery {
  sessionid: string;
  tab: ResultTabKey;
  chartKey: string;
  resetFlg: boolean;
  sortType: 'label' | 'count';
  sortOrder: 'asc' | 'desc';
  maxCount: number;
  /** Left-hand filter: only values whose label contains this. */
  search?: string | undefined;
  /** Only the tab's rows of these structures ("go to"). */
  strIdList?: readonly number[] | undefined;
}

export class ChartService {
  private readonly batches = new ChartBatches<ChartBatch>();

  /**
   * `dictionaries`: the knowledge base's assay, reference and target values in memory, with which
   * the batched charts of the Activities and Structures tabs are counted without joins
   * (memory-batch.ts); null counts every chart in SQL (`SEARCH_BITMAPS=0`).
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly results: ResultsService,
    private readonly dictionaries: KbDictionaryCache | null = null,
    private readonly onMemoryFailure: (error: unknown) => void = () => undefined,
  ) {}

  async chart(auth: AuthContext, query: ChartQuery): Promise<ChartResponse> {
    const definition = chartDefinition(query.chartKey);
    if (!definition) throw badRequest(`Unknown chart "${query.chartKey}".`, { chartKey: query.chartKey });
    if (query.search && definition.chartType !== 'List' && definition.chartType !== 'Image') {
      throw badRequest(`${definition.chartLabel} is a ${definition.chartType} chart: its values cannot be searched by text.`, {
        chartKey: query.chartKey,
      });
    }
    const dimension = dimensionOf(query.chartKey);
    // A chart counted from the session's sets in memory needs no set table; any other reads them.
    let session = await this.results.session(auth, query.sessionid, 'definition');
    // The dictionaries are asked once (each asking reads the knowledge base's load state).
    const inMemory = await this.overAllRowsInMemory(query, session);
    const filteredInMemory = inMemory ? null : await this.filteredRowsInMemory(query, session);
    const heldRows =
      inMemory && isRowValueChart(query.chartKey)
        ? await this.results.heldActivityRows(session)
        : filteredInMemory && (await this.results.heldFilteredActivityRows(session, filteredInMemory.tab));
    const heldTypes = inMemory && query.chartKey === 'activitytype' ? await this.heldTypeGroups(query, session, inMemory) : null;
    let sets: SetSource = setTables(session.set_id);
    if (!heldRows && !heldTypes) ({ session, sets } = await this.results.sessionAndSets(auth, query.sessionid));
    const filters = sessionFilters(session)[query.tab];
    const applied = filters.find((f) => f.chartKey === query.chartKey) ?? null;
    const facts = factsFor(query.tab, dimension.level, sets);
    const where = this.where(query, sets, facts, filters.length > 0);
    const base = { tab: query.tab, ...definition, applied, maxCount: query.maxCount };
    if (heldTypes)
      return { ...base, ...(await this.present(this.db, dimension, heldTypes.groups, heldTypes.rows, query)), min: null, max: null };
    const batch = isRowValueChart(query.chartKey)
      ? await this.batchFor(query, session, sets, where, heldRows || null, inMemory ?? filteredInMemory?.dictionaries ?? null)
      : null;
    if (batch) return { ...base, ...(await this.fromBatch(batch, dimension, query.chartKey as RowValueChart, query)) };
    return this.results.withWorkMem(async (trx) => {
      if (dimension.type === 'Range') return { ...base, ...(await this.range(trx, facts, dimension, where)) };
      if (dimension.type === 'Tree')
        return {
          ...base,
          ...(await this.tree(trx, facts, dimension, where)),
          rows: await this.rowsCounted(trx, facts, dimension, where),
          min: null,
          max: null,
        };
      return { ...base, ...(await this.list(trx, facts, dimension, where, query)), min: null, max: null };
    });
  }

  /**
   * The batch a row-value chart is read from: counted in memory on the Activities and Structures
   * tabs when the dictionaries are current, else in one SQL scan on the Activities tab; null for
   * the other tabs (each chart its own query). A failed memory count falls back to SQL.
   */
  /**
   * Whether the chart may be counted in memory over all of the session's rows: the Activities or
   * Structures tab, no filter, no "go to", a chart of one value per activity, the dictionaries current
   * (answered: null when it may not).
   */
  private async overAllRowsInMemory(query: ChartQuery, session: ResultSession): Promise<KbDictionaries | null> {
    const unfiltered = query.resetFlg || sessionFilters(session)[query.tab].length === 0;
    const batched = query.tab === 'activitiestab' || query.tab === 'structuretab';
    const perActivity = isRowValueChart(query.chartKey) || query.chartKey === 'activitytype';
    if (!batched || !unfiltered || query.strIdList?.length || !perActivity) return null;
    return (await this.dictionaries?.ifCurrent()) ?? null;
  }

  /**
   * Whether a row-value chart of a filtered Activities or Structures tab may be counted in memory
   * over the held rows that pass the filters (no "go to", the dictionaries current): answered, the
   * dictionaries and the tab (one of the two); null when it may not.
   */
  private async filteredRowsInMemory(
    query: ChartQuery,
    session: ResultSession,
  ): Promise<{ dictionaries: KbDictionaries; tab: 'activitiestab' | 'structuretab' } | null> {
    const { tab } = query;
    if (tab !== 'activitiestab' && tab !== 'structuretab') return null;
    if (query.resetFlg || query.strIdList?.length || !isRowValueChart(query.chartKey)) return null;
    if (!sessionFilters(session)[tab].length) return null;
    const dictionaries = await this.dictionaries?.ifCurrent();
    return dictionaries ? { dictionaries, tab } : null;
  }

  /**
   * The activity-type chart's groups from the sets in memory, each type named as stored (the
   * dictionaries' spellings); null when a type's spelling is not known for sure: counted in SQL.
   */
  private async heldTypeGroups(
    query: ChartQuery,
    session: ResultSession,
    dictionaries: KbDictionaries,
  ): Promise<{ groups: Group[]; rows: number } | null> {
    const spellings = dictionaries.activityTypes;
    const held = spellings ? await this.results.heldActivityTypeGroups(session, query.tab === 'structuretab') : null;
    if (!spellings || !held) return null;
    const groups: Group[] = [];
    for (const [lower, n] of held.groups) {
      const stored = lower === null ? null : spellings.get(lower);
      if (stored === undefined) return null;
      groups.push({ v: stored, n });
    }
    return { groups, rows: held.rows };
  }

  private async batchFor(
    query: ChartQuery,
    session: ResultSession,
    sets: SetSource,
    where: Sql,
    heldRows: SessionRows | null,
    /** The dictionaries when the caller already asked for them. */
    current: KbDictionaries | null,
  ): Promise<ChartBatch | null> {
    // The session's search (criteria_hash) and the tab's filters decide the rows counted.
    const filters = query.resetFlg ? [] : sessionFilters(session)[query.tab];
    const related = query.strIdList?.length ? query.strIdList.join(',') : '';
    const rowsKey = `${query.tab}:${session.set_id}:${session.criteria_hash}:${session.sets_version}:${query.resetFlg}:${JSON.stringify(filters)}:${related}`;
    const tab = query.tab;
    if (tab === 'activitiestab' || tab === 'structuretab') {
      const dictionaries = current ?? (await this.dictionaries?.ifCurrent());
      if (dictionaries) {
        try {
          // Unfiltered: the session's rows as the results service keeps them (filters read the same).
          // Held rows are the query's rows already: all of the session's, or those passing the tab's filters.
          const rows = () =>
            heldRows
              ? Promise.resolve(heldRows)
              : filters.length || related || sets.inMemory
                ? readBatchRows(this.db, tab, where, sets)
                : this.results.sessionRows.rows(session.set_id);
          return await this.batches.get(`memory:${dictionaries.version}:${rowsKey}`, async () =>
            memoryBatch(dictionaries, tab, await rows()),
          );
        } catch (error) {
          // Rows held in memory have no set table to count in SQL instead.
          if (heldRows) throw error;
          this.onMemoryFailure(error);
        }
      }
    }
    if (heldRows)
      throw new HttpError(409, {
        message: 'The knowledge base changed while this chart was counted. Reload the results.',
        code: ERROR_CODES.conflict,
      });
    return tab === 'activitiestab' ? this.batches.get(`sql:${rowsKey}`, () => sqlBatch(this.db, sets, where)) : null;
  }

  /** A batched chart out of its batch: Range charts binned (or binned already), List charts presented. */
  private async fromBatch(batch: ChartBatch, dimension: Dimension, chartKey: RowValueChart, query: ChartQuery) {
    const binned = batch.ranges?.get(chartKey);
    if (binned) return { ...binned, rows: batch.rows };
    const groups = batch.groups.get(chartKey) ?? [];
    // Activities tab: one value per row, so bins are sums of the values' counts.
    if (dimension.type === 'Range') return { ...binGroups(groups, isIntegerColumn(dimension.column)), rows: batch.rows };
    return { ...(await this.present(this.db, dimension, groups, batch.rows, query)), min: null, max: null };
  }

  /** The tab's rows the chart counts: those passing its filters, or all of them with resetFlg. */
  private where(query: ChartQuery, sets: SetSource, facts: Facts, filtered: boolean): Sql {
    const parts = [facts.where];
    if (filtered && !query.resetFlg) parts.push(filteredRestriction(query.tab, sets.setId, facts.entity));
    if (query.strIdList?.length) parts.push(sql`${facts.entity} IN (${rowsOfStructures(query.tab, sets, query.strIdList)})`);
    return sql.join(parts, sql` AND `);
  }

  private countExpr(facts: Facts, dimension: Dimension): Sql {
    return facts.unique && !dimension.joins ? sql`count(*)` : sql`count(DISTINCT ${facts.entity})`;
  }

  /** Rows of the tab the chart looks at (with or without a value). */
  private async rowsCounted(db: Kysely<Database>, facts: Facts, dimension: Dimension, where: Sql): Promise<number> {
    const { rows } = await sql<{
      n: number;
    }>`SELECT count(DISTINCT ${facts.entity})::int AS n FROM ${facts.from} ${dimension.joins ?? sql``} WHERE ${where}`.execute(db);
    return rows[0]?.n ?? 0;
  }

  private async list(db: Kysely<Database>, facts: Facts, dimension: Dimension, where: Sql, query: ChartQuery) {
    const unique = facts.unique && !dimension.joins;
    // One scan: a group per value and the rows of the tab in all. Rows that pair with several
    // records (a structure's many activities) are first reduced to distinct (value, row) pairs by
    // hashing, cheaper than sorting for count(DISTINCT) per value.
    const { rows } = unique
      ? await sql<Group & { total: number }>`SELECT ${dimension.value} AS v, count(*)::int AS n, GROUPING(${dimension.value}) AS total
          FROM ${facts.from} ${dimension.joins ?? sql``} WHERE ${where} AND ${facts.entity} IS NOT NULL GROUP BY GROUPING SETS ((${dimension.value}), ())`.execute(
          db,
        )
      : await sql<Group & { total: number }>`WITH pairs AS (SELECT DISTINCT ${dimension.value} AS v, ${facts.entity} AS e
            FROM ${facts.from} ${dimension.joins ?? sql``} WHERE ${where} AND ${facts.entity} IS NOT NULL)
          SELECT v, count(*)::int AS n, 0 AS total FROM pairs GROUP BY v
          UNION ALL SELECT NULL, count(DISTINCT e)::int, 1 FROM pairs`.execute(db);
    const all = rows.find((g) => Number(g.total) === 1)?.n ?? 0;
    return this.present(
      db,
      dimension,
      rows.filter((g) => Number(g.total) === 0),
      all,
      query,
    );
  }

  /** Groups as chart items: sorted, cut to maxCount, labelled (all of them only when labels decide). */
  private async present(db: Kysely<Database>, dimension: Dimension, values: readonly Group[], all: number, query: ChartQuery) {
    // Images are structures: a row without one is no picture.
    const groups = dimension.type === 'Image' ? values.filter((g) => g.v != null) : values;
    // Count sorts need labels only for the values shown; label sorts and value searches need them all.
    const labelAll = query.sortType === 'label' || !!query.search;
    if (!labelAll) {
      const items = await this.label(db, dimension, topByCount(groups, query.sortOrder, query.maxCount));
      return { chartData: sortItems(items, query), distinct: groups.length, rows: all };
    }
    let items = await this.label(db, dimension, groups);
    if (query.search) {
      const text = query.search.toLowerCase();
      // A target is found by its gene symbol too ("jak2"), as its bar shows it.
      items = items.filter((item) => item.label.toLowerCase().includes(text) || !!item.short?.toLowerCase().includes(text));
    }
    return { chartData: sortItems(items, query).slice(0, query.maxCount), distinct: items.length, rows: all };
  }

  private async label(db: Kysely<Database>, dimension: Dimension, groups: readonly Group[]): Promise<ChartItem[]> {
    const ids = groups.filter((g) => g.v != null).map((g) => g.v as string | number);
    const labels = dimension.labels ? await dimension.labels(db, ids) : null;
    return groups.map((g) => {
      if (g.v == null) return { id: NO_VALUE_ID, label: NO_VALUE_LABEL, count: g.n };
      const key = String(g.v);
      const named = labels?.get(key);
      const id = typeof g.v === 'number' ? g.v : key;
      // A label query that selects a short label gives every value one (chart-dimensions.ts labelsFrom).
      if (named) return { id, ...named, count: g.n };
      return { id, label: BIBLIOGRAPHY_LABELS[key] ?? key, count: g.n };
    });
  }

  private async range(db: Kysely<Database>, facts: Facts, dimension: Dimension, where: Sql) {
    const value = dimension.value;
    const from = sql`FROM ${facts.from} ${dimension.joins ?? sql``} WHERE ${where}`;
    const { rows: bounds } = await sql<{
      lo: number | null;
      hi: number | null;
      values: number;
      rows: number;
    }>`SELECT min(${value})::float8 AS lo, max(${value})::float8 AS hi,
      count(DISTINCT ${value})::int AS values, ${this.countExpr(facts, dimension)}::int AS rows ${from}`.execute(db);
    const lo = bounds[0]?.lo ?? null;
    const hi = bounds[0]?.hi ?? null;
    const rowsAll = bounds[0]?.rows ?? 0;
    const filtered = sql`${from} AND ${value} IS NOT NULL`;
    if (lo == null || hi == null) return { chartData: [], distinct: 0, min: null, max: null, rows: rowsAll };
    const layout = rangeLayout(lo, hi, isIntegerColumn(dimension.column));
    const { rows } = await sql<{
      bin: number;
      n: number;
    }>`SELECT floor((${value} - ${layout.start}) / ${layout.width})::int AS bin, ${this.countExpr(facts, dimension)}::int AS n
      ${filtered} GROUP BY 1 ORDER BY 1`.execute(db);
    const chartData = binItems(
      layout,
      rows.map(({ bin, n }): [number, number] => [bin, n]),
    );
    return { chartData, distinct: bounds[0]?.values ?? 0, min: lo, max: hi, rows: rowsAll };
  }

  /** Every node above the values found, each counting the rows under it once. */
  private async tree(db: Kysely<Database>, facts: Facts, dimension: Dimension, where: Sql) {
    const { table, key } = dimension.tree!;
    const { rows } = await sql<{ id: number; parent_id: number | null; label: string; n: number; ids: number[] }>`
      WITH RECURSIVE f AS (SELECT DISTINCT ${dimension.value} AS v, ${facts.entity} AS e FROM ${facts.from} ${dimension.joins ?? sql``}
          WHERE ${where} AND ${dimension.value} IS NOT NULL),
        up(leaf, node) AS (SELECT DISTINCT v, v FROM f
          UNION SELECT up.leaf, n.parent_id FROM up JOIN ${sql.table(table)} n ON n.${sql.ref(key)} = up.node WHERE n.parent_id IS NOT NULL)
      SELECT up.node AS id, n.parent_id, n.name AS label, count(DISTINCT f.e)::int AS n, array_agg(DISTINCT up.leaf) AS ids
      FROM f JOIN up ON up.leaf = f.v JOIN ${sql.table(table)} n ON n.${sql.ref(key)} = up.node
      GROUP BY up.node, n.parent_id, n.name ORDER BY n.name`.execute(db);
    const chartData: ChartItem[] = rows.map((row) => ({
      id: row.id,
      label: row.label,
      count: row.n,
      parentId: row.parent_id,
      ids: row.ids.map(Number),
    }));
    return { chartData, distinct: chartData.length };
  }
}

/** Range bins from exact values with their row counts (rows have one value each, so counts add up). */
function binGroups(groups: readonly Group[], integer: boolean) {
  const present = groups.filter((g) => g.v != null).map((g) => ({ v: Number(g.v), n: g.n }));
  if (!present.length) return { chartData: [], distinct: 0, min: null, max: null };
  // A loop, not Math.min(...values): spreading a large array overflows the call stack.
  let lo = Infinity;
  let hi = -Infinity;
  for (const g of present) {
    if (g.v < lo) lo = g.v;
    if (g.v > hi) hi = g.v;
  }
  const layout = rangeLayout(lo, hi, integer);
  const bins = new Map<number, number>();
  for (const g of present) {
    const bin = binOf(layout, g.v);
    bins.set(bin, (bins.get(bin) ?? 0) + g.n);
  }
  const chartData = binItems(layout, bins);
  return { chartData, distinct: present.length, min: lo, max: hi };
}

/** One collator for every comparison: `localeCompare` with options builds one per call (slow over 30,000 values). */
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Spec §9 sorts: A-Z / Z-A by label, least / most results by count (ties by label). */
function sortItems(items: ChartItem[], order: { sortType: 'label' | 'count'; sortOrder: 'asc' | 'desc' }): ChartItem[] {
  const sign = order.sortOrder === 'asc' ? 1 : -1;
  const byLabel = (a: ChartItem, b: ChartItem) => collator.compare(a.label, b.label);
  // Equal labels (two references "Kim T. 2019, J. Med. Chem.") are ordered by id: the same order
  // whichever way the counts were found.
  const byId = (a: ChartItem, b: ChartItem) => (String(a.id) < String(b.id) ? -1 : String(a.id) > String(b.id) ? 1 : 0);
  return [...items].sort((a, b) =>
    order.sortType === 'label' ? sign * byLabel(a, b) || byId(a, b) : sign * (a.count - b.count) || byLabel(a, b) || byId(a, b),
  );
}

/**
 * The values a count-sorted chart shows, before labels exist: by count, then by id (labels, read
 * afterwards for these values only, order the ties of what is shown).
 */
function topByCount(groups: readonly Group[], order: 'asc' | 'desc', maxCount: number): Group[] {
  const sign = order === 'asc' ? 1 : -1;
  const id = (g: Group) => String(g.v ?? '');
  return [...groups].sort((a, b) => sign * (a.n - b.n) || (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0)).slice(0, maxCount);
}
