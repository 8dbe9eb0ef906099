import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Sql } from '../results/tab-model.ts';
import { NONE, ROW_VALUE_CHARTS, denseKeyBound, denseKeys, keyOf, readSessionRows, valueOf } from '../results/row-values.ts';
import type { RowValueChart, SessionRows } from '../results/row-values.ts';
import { DIMENSIONS, isIntegerColumn } from '../results/chart-dimensions.ts';
import type { ChartBatch, Group } from './chart-batch.ts';
import type { KbDictionaries } from '../knowledge-base/kb-dictionaries.ts';
import { binItems, binOf, rangeLayout } from './range-bins.ts';
import type { RangeAnswer } from './range-bins.ts';
import { tabSet } from '../results/set-source.ts';
import type { SetSource } from '../results/set-source.ts';
import { fitsIdArray } from '../../db/id-arrays.ts';
import { MainThreadTurns } from '../../workers/main-thread-turns.ts';

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

/**
 * A chart's keys counted: ids and codes (`denseKeys`, -1 for no value) in an array indexed by key
 * — at L a batch counts 750,000 rows six times, and counting them in Maps made the Structures
 * tab's batch about 1.7 s of the main thread — other keys (the year) in a Map.
 */
function groupsOf(d: KbDictionaries, chart: RowValueChart, dense: Int32Array | null, sparse: Map<number, number>, none: number): Group[] {
  const out: Group[] = [];
  if (none) out.push({ v: valueOf(d, chart, NONE), n: none });
  if (dense) for (let key = 0; key < dense.length; key++) if (dense[key]) out.push({ v: valueOf(d, chart, key), n: dense[key]! });
  for (const [key, n] of sparse) out.push({ v: valueOf(d, chart, key), n });
  return out;
}

/** Activities tab: every row counted once per chart under its value. */
async function countActivities(d: KbDictionaries, rows: SessionRows): Promise<ChartBatch> {
  const turns = new MainThreadTurns();
  const groups = new Map<RowValueChart, Group[]>();
  for (const chart of ROW_VALUE_CHARTS) {
    await turns.pause();
    const keys = denseKeys(d, chart, rows);
    const sparse = new Map<number, number>();
    let none = 0;
    if (keys) {
      const dense = new Int32Array(denseKeyBound(d, chart));
      for (let k = 0; k < keys.length; k++) {
        const key = keys[k]!;
        if (key < 0) none++;
        else dense[key]!++;
      }
      groups.set(chart, groupsOf(d, chart, dense, sparse, none));
      continue;
    }
    for (let k = 0; k < rows.count; k++) {
      const key = keyOf(d, chart, rows, k);
      if (key === NONE) none++;
      else sparse.set(key, (sparse.get(key) ?? 0) + 1);
    }
    groups.set(chart, groupsOf(d, chart, null, sparse, none));
  }
  return { rows: rows.count, groups, ranges: new Map() };
}

/**
 * Row indexes ordered by structure (rows of one structure in row order): one pass then sees each
 * structure's rows together. A counting sort over the structure ids: at L, 728,366 rows took
 * about 220 ms as a comparison sort and 20-30 ms this way (ids are dense, below a few million).
 */
function byStructure(str: Int32Array): Int32Array {
  let max = 0;
  for (let k = 0; k < str.length; k++) if (str[k]! > max) max = str[k]!;
  // An id far beyond any real one (a dangling id is read as the largest int4): compare instead.
  if (!fitsIdArray(max + 1, 4)) return Int32Array.from(str.keys()).sort((a, b) => str[a]! - str[b]! || a - b);
  // next[id]: where the next row of structure id goes.
  const next = new Int32Array(max + 2);
  for (let k = 0; k < str.length; k++) next[str[k]! + 1]! += 1;
  for (let id = 1; id < next.length; id++) next[id]! += next[id - 1]!;
  const order = new Int32Array(str.length);
  for (let k = 0; k < str.length; k++) order[next[str[k]!]!++] = k;
  return order;
}

/** Each row's structure number (0, 1, … in `order`, where a structure's rows are adjacent), and how many structures. */
function ownersOf(str: Int32Array, order: Int32Array): { owner: Int32Array; structures: number } {
  const owner = new Int32Array(order.length);
  let structure = 0;
  for (let i = 1; i < order.length; i++) {
    if (str[order[i]!] !== str[order[i - 1]!]) structure++;
    owner[i] = structure;
  }
  return { owner, structures: order.length ? structure + 1 : 0 };
}

/** Whether a key is met for the first time in a structure: the last structure stamped per key, in an array when keys are below `bound`. */
function firstPerStructure(bound: number | null): (key: number, structure: number) => boolean {
  if (bound !== null) {
    const stamp = new Int32Array(bound).fill(-1);
    return (key, structure) => stamp[key] !== structure && ((stamp[key] = structure), true);
  }
  const last = new Map<number, number>();
  return (key, structure) => last.get(key) !== structure && (last.set(key, structure), true);
}

/**
 * Structures tab: each structure counted once per distinct value of its rows. A key's last
 * counting structure is stamped per key, so nothing is cleared between structures.
 */
async function countStructures(d: KbDictionaries, rows: SessionRows): Promise<ChartBatch> {
  const turns = new MainThreadTurns();
  const order = byStructure(rows.str!);
  await turns.pause();
  const { owner, structures } = ownersOf(rows.str!, order);
  const groups = new Map<RowValueChart, Group[]>();
  const ranges = new Map<RowValueChart, RangeAnswer>();
  for (const chart of ROW_VALUE_CHARTS) {
    await turns.pause();
    const keys = denseKeys(d, chart, rows, order);
    if (RANGE_CHARTS.has(chart)) {
      // Each structure's distinct values, binned once bounds are known (the year).
      const values: number[] = [];
      const owners: number[] = [];
      const first = firstPerStructure(keys ? denseKeyBound(d, chart) : null);
      for (let i = 0; i < order.length; i++) {
        const key = keys ? (keys[i]! < 0 ? NONE : keys[i]!) : keyOf(d, chart, rows, order[i]!);
        if (key === NONE || !first(key, owner[i]!)) continue;
        values.push(key);
        owners.push(owner[i]!);
      }
      ranges.set(chart, binStructures(values, owners, isIntegerColumn(DIMENSIONS[chart]!.column)));
      continue;
    }
    if (!keys) throw new Error(`The ${chart} chart has no keys to count by`);
    const bound = denseKeyBound(d, chart);
    const dense = new Int32Array(bound);
    const stamp = new Int32Array(bound).fill(-1);
    let none = 0;
    let noneStamp = -1;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const structure = owner[i]!;
      if (key < 0) {
        if (noneStamp !== structure) {
          noneStamp = structure;
          none++;
        }
      } else if (stamp[key] !== structure) {
        stamp[key] = structure;
        dense[key]!++;
      }
    }
    groups.set(chart, groupsOf(d, chart, dense, new Map(), none));
  }
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
  // Bins from `lo` to `hi` are few (rangeLayout's width): counted and stamped per bin in arrays.
  const bins = binOf(layout, hi) + 1;
  const counts = new Int32Array(bins);
  const stamp = new Int32Array(bins).fill(-1);
  for (let k = 0; k < values.length; k++) {
    const bin = binOf(layout, values[k]!);
    if (stamp[bin] === owners[k]) continue;
    stamp[bin] = owners[k]!;
    counts[bin]!++;
  }
  const counted: [number, number][] = [];
  counts.forEach((n, bin) => n && counted.push([bin, n]));
  return { chartData: binItems(layout, counted), distinct: new Set(values).size, min: lo, max: hi };
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

/**
 * The batch of the Activities or Structures tab over `rows` (the Structures tab needs their
 * structure ids). Each chart is a pass or two over up to 750,000 rows: the main thread gives way
 * between charts (a whole Structures batch held it 300–400 ms at L).
 */
export function memoryBatch(d: KbDictionaries, tab: 'activitiestab' | 'structuretab', rows: SessionRows): Promise<ChartBatch> {
  return tab === 'activitiestab' ? countActivities(d, rows) : countStructures(d, rows);
}
