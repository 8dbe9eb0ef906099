import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { AppliedFilter } from '@kb/contracts/search';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import type { Database } from '../../db/schema.ts';
import type { DatabaseKind } from '../../db/database.ts';
import { int4ArrayParam } from '../../db/array-param.ts';
import type { KbDictionaries } from '../knowledge-base/kb-dictionaries.ts';
import { NONE, isRowValueChart, keyOf, keyOfValue, readSessionRows } from './row-values.ts';
import type { RowValueChart, SessionRows } from './row-values.ts';

/**
 * The Activities tab's filters evaluated in memory (issue 18: applying two filters to a
 * 750,000-activity session took 1.8 s at L, most of it joining the set with the assays and
 * documents tables): the session's rows are read packed once, each filter tests the row's value
 * from the knowledge-base dictionaries, and the ids that pass are written to result_filtered. The
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

/** Ids per INSERT: bounded parameters whatever the session (up to the 750,000-activity cap). */
const ROWS_PER_INSERT = 250_000;

/** Writes the session's activities that pass `filters` into result_filtered; answers how many. */
export async function writeFilteredActivities(trx: Kysely<Database>, d: KbDictionaries, setId: number, filters: readonly AppliedFilter[], kind: DatabaseKind): Promise<number> {
  const tests: RowTest[] = filters.map((f) => {
    const chart = f.chartKey as RowValueChart;
    return { chart, include: keys(d, chart, f.include), exclude: keys(d, chart, f.exclude), min: f.minValue ?? null, max: f.maxValue ?? null };
  });
  const rows = await readSessionRows(trx, sql`sa.set_id = ${setId}::bigint`, 'act_id');
  const passed: number[] = [];
  for (let k = 0; k < rows.count; k++) if (passes(d, tests, rows, k)) passed.push(rows.act![k]!);
  // Sent as the search sets are (binary int4[] on a server): ids are 32-bit (the dictionaries check).
  const ids = Int32Array.from(passed);
  for (let at = 0; at < ids.length; at += ROWS_PER_INSERT) {
    await sql`INSERT INTO result_filtered (set_id, tab, id)
      SELECT ${setId}::bigint, 'activitiestab', unnest(${int4ArrayParam(ids.subarray(at, at + ROWS_PER_INSERT), kind)}::int[])`.execute(trx);
  }
  return ids.length;
}
