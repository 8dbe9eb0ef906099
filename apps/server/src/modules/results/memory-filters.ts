import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { AppliedFilter } from '@kb/contracts/search';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import type { Database } from '../../db/schema.ts';
import type { DatabaseKind } from '../../db/database.ts';
import { int4ArrayParam } from '../../db/array-param.ts';
import { fitsIdArray } from '../../db/id-arrays.ts';
import type { KbDictionaries } from '../knowledge-base/kb-dictionaries.ts';
import { NO_VALUE_ID } from '@kb/contracts/charts';
import { NONE, denseKeys, isRowValueChart, keyOf, keyOfLinks, keyOfValue } from './row-values.ts';
import type { RowValueChart, SessionRows } from './row-values.ts';
import type { Presence } from './filter-validation.ts';
import type { FilterValue } from './tab-filters.ts';
import { indexOfSorted } from '../search/session-sets.ts';
import { MainThreadTurns } from '../../workers/main-thread-turns.ts';

/**
 * Filters on the charts of one value per activity (row-values.ts) evaluated in memory (issue 18:
 * applying two filters to a 750,000-activity session took 1.8 s at L, most of it joining the set
 * with the assays and documents tables; issue 62: a Structures filter over sets held in memory
 * took 4.8 s at L, the held activity set unnested and joined to the activities table twice). The
 * session's activity rows are read packed once, each filter tests a value from the
 * knowledge-base dictionaries, and the ids that pass are written to result_filtered. The same rows
 * say which filter values are in the search (filter-validation.ts asks it in SQL otherwise).
 *
 * The rules are those of tab-filters.ts: a row passes an include filter when one of its records
 * has a picked value ("Not specified" = a record without one), an exclude filter when none has,
 * a range when one has a value within it. A tab row's records (tab-model.ts `factsFor`) are its own
 * for an assay's type and organism on the Assays tab and a reference's on the References tab, and
 * otherwise the session's activities of the row (a structure's, an assay's, a reference's). The
 * Development compounds tab and an assay's own target are left to SQL.
 * results/memory-filters.api.test.ts and set-parity.api.test.ts check the rows are the SQL path's.
 */

/** What the memory path reads. */
export interface FilterInput {
  /** The session's activities with their links. */
  rows: SessionRows;
  /** A tab's row ids, ascending (from the sets held in memory); null when the sets are not held: only the Activities tab is filtered in memory then. */
  tabIds: ((tab: ResultTabKey) => Int32Array) | null;
}

/** Where a tab row's records of a chart are: the row's own record, the session's activities of the row, or (null) SQL only. */
type Facts = 'own' | 'activities';

const REFERENCE_CHARTS: ReadonlySet<RowValueChart> = new Set(['bibliographyrefid', 'bibliography', 'year']);

function factsOf(tab: ResultTabKey, chart: RowValueChart): Facts | null {
  switch (tab) {
    case 'activitiestab':
    case 'structuretab':
      return 'activities';
    case 'assaytab':
      if (chart === 'target') return null; // the assay's own target: not in the dictionaries
      return chart === 'assaytype' || chart === 'organism' ? 'own' : 'activities';
    case 'documentstab':
      return REFERENCE_CHARTS.has(chart) ? 'own' : 'activities';
    case 'developmentcompoundstab':
      return null;
  }
}

/** Filters this path can evaluate: every filter on a chart of one value per activity, on a tab whose rows reach it in memory. */
export function filtersInMemory(tab: ResultTabKey, filters: readonly AppliedFilter[], tabIdsHeld: boolean): boolean {
  if (!filters.length || (tab !== 'activitiestab' && !tabIdsHeld)) return false;
  return filters.every((f) => isRowValueChart(f.chartKey) && factsOf(tab, f.chartKey) !== null);
}

/** The row of `tab` an activity belongs to (0: none, an activity without a structure on the Structures tab). */
function entityOf(tab: ResultTabKey, rows: SessionRows, k: number): number {
  switch (tab) {
    case 'structuretab':
      return rows.str![k]!;
    case 'assaytab':
      return rows.assay[k]!;
    case 'documentstab':
      return rows.ref[k]!;
    default:
      return rows.act![k]!;
  }
}

/** The key of a tab row's own record (an assay's on the Assays tab, a reference's on the References tab). */
function ownKey(d: KbDictionaries, tab: ResultTabKey, chart: RowValueChart, id: number): number {
  return tab === 'assaytab' ? keyOfLinks(d, chart, id, 0, 0) : keyOfLinks(d, chart, 0, id, 0);
}

/** Calls `visit(key, entity)` for each record of the tab's rows under the chart, until it answers true. */
function eachFact(
  d: KbDictionaries,
  tab: ResultTabKey,
  chart: RowValueChart,
  input: FilterInput,
  visit: (key: number, entity: number) => boolean | void,
): void {
  if (factsOf(tab, chart) === 'own') {
    for (const id of input.tabIds!(tab)) if (visit(ownKey(d, tab, chart, id), id)) return;
    return;
  }
  const { rows } = input;
  for (let k = 0; k < rows.count; k++) {
    const entity = entityOf(tab, rows, k);
    if (entity !== 0 && visit(keyOf(d, chart, rows, k), entity)) return;
  }
}

/**
 * filter-validation.ts's question answered in memory: a value is in the search when some record of
 * the tab's rows holds it ("Not specified" always is, as in SQL). The scan stops once every value was seen.
 */
export function presenceInMemory(d: KbDictionaries, tab: ResultTabKey, input: FilterInput): Presence {
  return async (chartKey, values) => {
    const chart = chartKey as RowValueChart;
    const present = new Set<string>(values.includes(NO_VALUE_ID) ? [NO_VALUE_ID] : []);
    const wanted = new Map<number, FilterValue[]>();
    for (const value of values) {
      const key = value === NO_VALUE_ID ? undefined : keyOfValue(d, chart, value);
      if (key !== undefined && key !== NONE) wanted.set(key, [...(wanted.get(key) ?? []), value]);
    }
    if (!wanted.size) return present;
    eachFact(d, tab, chart, input, (key) => {
      const found = wanted.get(key);
      if (!found) return false;
      for (const value of found) present.add(String(value));
      wanted.delete(key);
      return wanted.size === 0;
    });
    return present;
  };
}

/** One filter as key tests. */
interface KeyTest {
  chart: RowValueChart;
  include: Set<number> | null;
  exclude: Set<number> | null;
  min: number | null;
  max: number | null;
}

function keys(d: KbDictionaries, chart: RowValueChart, values: readonly (string | number)[] | undefined): Set<number> | null {
  if (!values?.length) return null;
  const out = new Set<number>();
  for (const value of values) {
    const key = keyOfValue(d, chart, value);
    if (key !== undefined) out.add(key);
  }
  return out;
}

function keyTests(d: KbDictionaries, filters: readonly AppliedFilter[]): KeyTest[] {
  return filters.map((f) => {
    const chart = f.chartKey as RowValueChart;
    return {
      chart,
      include: keys(d, chart, f.include),
      exclude: keys(d, chart, f.exclude),
      min: f.minValue ?? null,
      max: f.maxValue ?? null,
    };
  });
}

const ranged = (test: KeyTest) => test.min != null || test.max != null;

function inRange(test: KeyTest, key: number): boolean {
  return key !== NONE && (test.min == null || key >= test.min) && (test.max == null || key <= test.max);
}

/** The rows of a tab that pass its filters, and those that do not, each ascending when the tab's ids are. */
export interface FilterOutcome {
  passed: Int32Array;
  failed: Int32Array;
}

/** Whether a key (NONE: no value) meets a filter's include, exclude and range tests. */
function meets(test: KeyTest, key: number): boolean {
  return (!test.include || test.include.has(key)) && !test.exclude?.has(key) && (!ranged(test) || inRange(test, key));
}

/**
 * Each session row's key of a chart, and what stands for "no value" in it: typed small integers
 * (denseKeys, -1) when the chart allows, else keyOf's keys (NONE). One loop per filter instead of
 * a key made per row and filter (issue 62: filters over 750,000 rows at L).
 */
function rowKeys(d: KbDictionaries, chart: RowValueChart, rows: SessionRows): { keys: ArrayLike<number>; none: number } {
  const dense = denseKeys(d, chart, rows);
  if (dense) return { keys: dense, none: -1 };
  return { keys: Float64Array.from({ length: rows.count }, (_, k) => keyOf(d, chart, rows, k)), none: NONE };
}

/** The ids at `pass` 1 and at 0, each in the order of `ids`. */
function split(ids: ArrayLike<number>, pass: Uint8Array): FilterOutcome {
  let passing = 0;
  for (let i = 0; i < pass.length; i++) passing += pass[i]!;
  const passed = new Int32Array(passing);
  const failed = new Int32Array(pass.length - passing);
  for (let i = 0, p = 0, f = 0; i < pass.length; i++) {
    if (pass[i]) passed[p++] = ids[i]!;
    else failed[f++] = ids[i]!;
  }
  return { passed, failed };
}

/** The Activities tab: an activity is its own one record, so each row is tested once per filter. */
async function activitiesPassing(
  d: KbDictionaries,
  tests: readonly KeyTest[],
  rows: SessionRows,
  turns: MainThreadTurns,
): Promise<FilterOutcome> {
  const pass = new Uint8Array(rows.count).fill(1);
  for (const test of tests) {
    await turns.pause();
    const { keys, none } = rowKeys(d, test.chart, rows);
    for (let k = 0; k < rows.count; k++) if (pass[k] && !meets(test, keys[k] === none ? NONE : keys[k]!)) pass[k] = 0;
  }
  return split(rows.act!, pass);
}

/** Each id's position in the ascending `ids` (-1: not there): from an array indexed by id (id-arrays.ts), else (a stray large id) by a binary search. */
function positionsById(ids: Int32Array): (id: number) => number {
  const max = ids.length ? ids[ids.length - 1]! : 0;
  if (!fitsIdArray(max, 4)) return (id) => indexOfSorted(ids, id);
  const positions = new Int32Array(max + 1).fill(-1);
  for (let i = 0; i < ids.length; i++) positions[ids[i]!] = i;
  return (id) => (id > 0 && id < positions.length ? positions[id]! : -1);
}

/**
 * Another tab: each filter marks the tab rows one of whose records meets its include test, its
 * exclude test and its range, then a row passes when marked by every include and range and by no
 * exclude. The marks are per position in the tab's ascending ids.
 */
async function rowsPassing(
  d: KbDictionaries,
  tab: ResultTabKey,
  tests: readonly KeyTest[],
  input: FilterInput,
  turns: MainThreadTurns,
): Promise<FilterOutcome> {
  const ids = input.tabIds!(tab);
  const pass = new Uint8Array(ids.length).fill(1);
  let positionOf: ((id: number) => number) | null = null;
  const marked = (meetsKey: (key: number) => boolean, chart: RowValueChart): Uint8Array => {
    const marks = new Uint8Array(ids.length);
    if (factsOf(tab, chart) === 'own') {
      eachFact(d, tab, chart, input, (key, entity) => {
        const at = meetsKey(key) ? indexOfSorted(ids, entity) : -1;
        if (at >= 0) marks[at] = 1;
      });
      return marks;
    }
    // The session's activities of each row: their keys in one loop, each row's position by id.
    const { rows } = input;
    const { keys, none } = rowKeys(d, chart, rows);
    positionOf ??= positionsById(ids);
    for (let k = 0; k < rows.count; k++) {
      const entity = entityOf(tab, rows, k);
      const at = entity > 0 ? positionOf(entity) : -1;
      if (at >= 0 && marks[at] === 0 && meetsKey(keys[k] === none ? NONE : keys[k]!)) marks[at] = 1;
    }
    return marks;
  };
  for (const test of tests) {
    await turns.pause();
    const { include, exclude } = test;
    if (include)
      and(
        pass,
        marked((key) => include.has(key), test.chart),
        true,
      );
    if (exclude)
      and(
        pass,
        marked((key) => exclude.has(key), test.chart),
        false,
      );
    if (ranged(test))
      and(
        pass,
        marked((key) => inRange(test, key), test.chart),
        true,
      );
  }
  return split(ids, pass);
}

/** `pass[i]` kept where `marks[i]` is `wanted`. */
function and(pass: Uint8Array, marks: Uint8Array, wanted: boolean): void {
  for (let i = 0; i < pass.length; i++) if (!marks[i] === wanted) pass[i] = 0;
}

/**
 * The rows of `tab` that pass `filters` (all of them `filtersInMemory`). Each filter is a pass or
 * two over up to 750,000 rows: the main thread gives way between filters.
 */
export function filterInMemory(
  d: KbDictionaries,
  tab: ResultTabKey,
  filters: readonly AppliedFilter[],
  input: FilterInput,
): Promise<FilterOutcome> {
  const tests = keyTests(d, filters);
  const turns = new MainThreadTurns();
  return tab === 'activitiestab' ? activitiesPassing(d, tests, input.rows, turns) : rowsPassing(d, tab, tests, input, turns);
}

/** Writes (or replaces) a tab's filter outcome in result_filtered; answers how many rows passed. */
export async function writeFilterOutcome(
  trx: Kysely<Database>,
  setId: number,
  tab: ResultTabKey,
  outcome: FilterOutcome,
  kind: DatabaseKind,
): Promise<number> {
  // One packed row (migration 0029), the smaller of the two lists (every filtered query hashes
  // it), sent as the search sets are (binary int4[] on a server): ids are 32-bit (the dictionaries check).
  const complement = outcome.failed.length < outcome.passed.length;
  const ids = complement ? outcome.failed : outcome.passed;
  await sql`INSERT INTO result_filtered (set_id, tab, ids, complement)
    VALUES (${setId}::bigint, ${tab}, ${int4ArrayParam(ids, kind)}::int[]::bigint[], ${complement})
    ON CONFLICT (set_id, tab) DO UPDATE SET ids = EXCLUDED.ids, complement = EXCLUDED.complement`.execute(trx);
  return outcome.passed.length;
}
