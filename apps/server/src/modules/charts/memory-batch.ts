import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Sql } from '../results/tab-model.ts';
import { NONE, ROW_VALUE_CHARTS, keyOf, readSessionRows, valueOf } from '../results/row-values.ts';
import type { RowValueChart, SessionRows } from '../results/row-values.ts';
import { DIMENSIONS, isIntegerColumn } from '../results/chart-dimensions.ts';
import type { ChartBatch, Group } from './chart-batch.ts';
import type { KbDictionaries } from '../knowledge-base/kb-dictionaries.ts';
import { binItems, binOf, rangeLayout } from './range-bins.ts';
import type { RangeAnswer } from './range-bins.ts';
import { tabSet } from '../results/set-source.ts';
import type { SetSource } from '../results/set-source.ts';

/**
 * The batched charts (chart-batch.ts) counted in memory: the session's activity rows are read
 * once, packed (their assay, reference and target, and structure for the Structures tab), and
 * each row's values are looked up in the knowledge-base dictionaries (kb-dictionaries.ts). The
 * answers are those of the SQL path exactly (charts/memory-charts.api.test.ts compares them):
 *
 * - Activities tab: one value per row per chart, counted per value, as the GROUPING SETS scan.
 * - Structures tab: a structure has the values of its activities in the search, each counted once
 *   per structure (the SQL path's DISTINCT (value, structure) pairs); a Range chart's bins count
 *   the structures with a value in the bin.
 */

/** Range charts are binned per structure on the Structures tab (a structure may have several years). */
const RANGE_CHARTS: ReadonlySet<RowValueChart> = new Set(ROW_VALUE_CHARTS.filter((chart) => DIMENSIONS[chart]!.type === 'Range'));

function toGroups(d: KbDictionaries, chart: RowValueChart, counts: Map<number, number>): Group[] {
  return [...counts].map(([key, n]) => ({ v: valueOf(d, chart, key), n }));
}

/** Activities tab: every row counted once per chart under its value. */
function countActivities(d: KbDictionaries, rows: SessionRows): ChartBatch {
  const groups = new Map<RowValueChart, Group[]>();
  for (const chart of ROW_VALUE_CHARTS) {
    const counts = new Map<number, number>();
    for (let k = 0; k < rows.count; k++) {
      const key = keyOf(d, chart, rows, k);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    groups.set(chart, toGroups(d, chart, counts));
  }
  return { rows: rows.count, groups, ranges: new Map() };
}

/** Structure ids up to this are grouped by a counting sort (an Int32Array of this length: 256 MB at most). */
const MAX_COUNTED_ID = 64 * 1024 * 1024;

/**
 * Row indexes ordered by structure (rows of one structure in row order): one pass then sees each
 * structure's rows together. A counting sort over the structure ids: at L, 728,366 rows took
 * about 220 ms as a comparison sort and 20-30 ms this way (ids are dense, below a few million).
 */
function byStructure(str: Int32Array): Int32Array {
  let max = 0;
  for (let k = 0; k < str.length; k++) if (str[k]! > max) max = str[k]!;
  // An id far beyond any real one (a dangling id is read as the largest int4): compare instead.
  if (max > MAX_COUNTED_ID) return Int32Array.from(str.keys()).sort((a, b) => str[a]! - str[b]! || a - b);
  // next[id]: where the next row of structure id goes.
  const next = new Int32Array(max + 2);
  for (let k = 0; k < str.length; k++) next[str[k]! + 1]! += 1;
  for (let id = 1; id < next.length; id++) next[id]! += next[id - 1]!;
  const order = new Int32Array(str.length);
  for (let k = 0; k < str.length; k++) order[next[str[k]!]!++] = k;
  return order;
}

/** Structures tab: each structure counted once per distinct value of its rows. */
function countStructures(d: KbDictionaries, rows: SessionRows): ChartBatch {
  const str = rows.str!;
  const order = byStructure(str);
  const lists = ROW_VALUE_CHARTS.filter((chart) => !RANGE_CHARTS.has(chart));
  const counts = new Map<RowValueChart, Map<number, number>>(lists.map((chart) => [chart, new Map()]));
  // Range charts: each structure's distinct values, kept per structure to bin once bounds are known.
  const rangeValues = new Map<RowValueChart, { values: number[]; owners: number[] }>(
    [...RANGE_CHARTS].map((chart) => [chart, { values: [], owners: [] }]),
  );
  let structures = 0;
  // Counts a structure under one of its distinct values of `chart`.
  const record = (chart: RowValueChart, key: number) => {
    const range = rangeValues.get(chart);
    if (!range) {
      const chartCounts = counts.get(chart)!;
      chartCounts.set(key, (chartCounts.get(key) ?? 0) + 1);
    } else if (key !== NONE) {
      range.values.push(key);
      range.owners.push(structures);
    }
  };
  // A structure's distinct values per chart (a Set: a promiscuous compound has thousands of rows).
  const seen = new Set<number>();
  for (let start = 0; start < order.length; ) {
    let end = start + 1;
    while (end < order.length && str[order[end]!] === str[order[start]!]) end++;
    for (const chart of ROW_VALUE_CHARTS) {
      // Most structures have one activity in a search: no set to fill for them.
      if (end - start === 1) {
        record(chart, keyOf(d, chart, rows, order[start]!));
        continue;
      }
      seen.clear();
      for (let i = start; i < end; i++) seen.add(keyOf(d, chart, rows, order[i]!));
      for (const key of seen) record(chart, key);
    }
    structures++;
    start = end;
  }
  const groups = new Map<RowValueChart, Group[]>(lists.map((chart) => [chart, toGroups(d, chart, counts.get(chart)!)]));
  const ranges = new Map<RowValueChart, RangeAnswer>(
    [...rangeValues].map(([chart, pairs]) => [
      chart,
      binStructures(pairs.values, pairs.owners, isIntegerColumn(DIMENSIONS[chart]!.column)),
    ]),
  );
  return { rows: structures, groups, ranges };
}

/** Bins of (value, structure) pairs grouped by structure: a structure counts once in a bin. */
function binStructures(values: readonly number[], owners: readonly number[], integer: boolean): RangeAnswer {
  if (!values.length) return { chartData: [], distinct: 0, min: null, max: null };
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const layout = rangeLayout(lo, hi, integer);
  const bins = new Map<number, number>();
  const inStructure = new Set<number>();
  let lastOwner = -1;
  for (let k = 0; k < values.length; k++) {
    if (owners[k] !== lastOwner) {
      inStructure.clear();
      lastOwner = owners[k]!;
    }
    const bin = binOf(layout, values[k]!);
    if (inStructure.has(bin)) continue;
    inStructure.add(bin);
    bins.set(bin, (bins.get(bin) ?? 0) + 1);
  }
  const items = binItems(layout, bins);
  return { chartData: items, distinct: new Set(values).size, min: lo, max: hi };
}

/** The rows of the Activities or Structures tab `where` keeps (filters included), as the batch counts them. */
export function readBatchRows(
  db: Kysely<Database>,
  tab: 'activitiestab' | 'structuretab',
  where: Sql,
  sets: SetSource,
): Promise<SessionRows> {
  return readSessionRows(db, where, tab === 'structuretab' ? ['str_id'] : [], tabSet('activitiestab', sets));
}

/** The batch of the Activities or Structures tab over `rows` (the Structures tab needs their structure ids). */
export function memoryBatch(d: KbDictionaries, tab: 'activitiestab' | 'structuretab', rows: SessionRows): ChartBatch {
  return tab === 'activitiestab' ? countActivities(d, rows) : countStructures(d, rows);
}
