import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { AppliedFilter } from '@kb/contracts/search';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import type { Database } from '../../db/schema.ts';
import type { DatabaseKind } from '../../db/database.ts';
import { int4ArrayParam } from '../../db/array-param.ts';
import type { KbDictionaries } from '../knowledge-base/kb-dictionaries.ts';
import { NO_VALUE_ID } from '@kb/contracts/charts';
import { NONE, isRowValueChart, keyOf, keyOfValue, readSetRows } from './row-values.ts';
import type { RowValueChart, SessionRows } from './row-values.ts';
import type { Presence } from './filter-validation.ts';
import type { FilterValue } from './tab-filters.ts';

/**
 * The Activities tab's filters evaluated in memory (issue 18: applying two filters to a
 * 750,000-activity session took 1.8 s at L, most of it joining the set with the assays and
 * documents tables): the session's rows are read packed once, each filter tests the row's value
 * from the knowledge-base dictionaries, and the ids that pass are written to result_filtered. The
 * same rows say which filter values are in the search (filter-validation.ts asks it in SQL). The
 * rules are those of tab-filters.ts (`activitiesInOnePass`): include = the row's value is one of
 * them ("Not specified" = no value), exclude = it is none of them, a range = a value within it.
 * results/memory-filters.api.test.ts checks the rows written are the SQL path's.
 */

/** Filters this path can evaluate: the Activities tab, every filter on a chart of one value per row. */
export function filtersInMemory(tab: ResultTabKey, filters: readonly AppliedFilter[]): boolean {
  return tab === 'activitiestab' && filters.length > 0 && filters.every((f) => isRowValueChart(f.chartKey));
}

interface RowTest {
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

function passes(d: KbDictionaries, tests: readonly RowTest[], rows: SessionRows, k: number): boolean {
  for (const test of tests) {
    const key = keyOf(d, test.chart, rows, k);
    if (test.include && !test.include.has(key)) return false;
    if (test.exclude?.has(key)) return false;
    if ((test.min != null || test.max != null) && key === NONE) return false;
    if (test.min != null && key < test.min) return false;
    if (test.max != null && key > test.max) return false;
  }
  return true;
}

/** The session's rows as the filters read them (one packed read; sets do not change once written). */
function readFilterRows(db: Kysely<Database>, setId: number): Promise<SessionRows> {
  return readSetRows(db, setId, ['act_id']);
}

/**
 * filter-validation.ts's question answered from the rows: a value is in the search when some row
 * holds it ("Not specified" always is, as in SQL). The scan stops once every value was seen.
 */
export function presenceInRows(d: KbDictionaries, rows: SessionRows): Presence {
  return async (chartKey, values) => {
    const chart = chartKey as RowValueChart;
    const present = new Set<string>(values.includes(NO_VALUE_ID) ? [NO_VALUE_ID] : []);
    const wanted = new Map<number, FilterValue[]>();
    for (const value of values) {
      const key = value === NO_VALUE_ID ? undefined : keyOfValue(d, chart, value);
      if (key !== undefined && key !== NONE) wanted.set(key, [...(wanted.get(key) ?? []), value]);
    }
    for (let k = 0; k < rows.count && wanted.size > 0; k++) {
      const key = keyOf(d, chart, rows, k);
      const found = wanted.get(key);
      if (!found) continue;
      for (const value of found) present.add(String(value));
      wanted.delete(key);
    }
    return present;
  };
}

/** Writes the session's activities that pass `filters` into result_filtered (`rows`: read already); answers how many. */
export async function writeFilteredActivities(
  trx: Kysely<Database>,
  d: KbDictionaries,
  setId: number,
  filters: readonly AppliedFilter[],
  kind: DatabaseKind,
  rows?: SessionRows,
): Promise<number> {
  const tests: RowTest[] = filters.map((f) => {
    const chart = f.chartKey as RowValueChart;
    return {
      chart,
      include: keys(d, chart, f.include),
      exclude: keys(d, chart, f.exclude),
      min: f.minValue ?? null,
      max: f.maxValue ?? null,
    };
  });
  const session = rows ?? (await readFilterRows(trx, setId));
  const passed: number[] = [];
  const failed: number[] = [];
  for (let k = 0; k < session.count; k++) (passes(d, tests, session, k) ? passed : failed).push(session.act![k]!);
  // One packed row (migration 0029), the smaller of the two lists (every filtered query hashes
  // it), sent as the search sets are (binary int4[] on a server): ids are 32-bit (the dictionaries check).
  const complement = failed.length < passed.length;
  const ids = Int32Array.from(complement ? failed : passed);
  await sql`INSERT INTO result_filtered (set_id, tab, ids, complement)
    VALUES (${setId}::bigint, 'activitiestab', ${int4ArrayParam(ids, kind)}::int[]::bigint[], ${complement})`.execute(trx);
  return passed.length;
}
