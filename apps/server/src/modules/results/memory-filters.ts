import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { AppliedFilter } from '@kb/contracts/search';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import type { Database } from '../../db/schema.ts';
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

/** Writes the session's activities that pass `filters` into result_filtered; answers how many. */
export async function writeFilteredActivities(trx: Kysely<Database>, d: KbDictionaries, setId: number, filters: readonly AppliedFilter[]): Promise<number> {
  const tests: RowTest[] = filters.map((f) => {
    const chart = f.chartKey as RowValueChart;
    return { chart, include: keys(d, chart, f.include), exclude: keys(d, chart, f.exclude), min: f.minValue ?? null, max: f.maxValue ?? null };
  });
  const rows = await readSessionRows(trx, sql`sa.set_id = ${setId}::bigint`, 'act_id');
  const ids: number[] = [];
  for (let k = 0; k < rows.count; k++) if (passes(d, tests, rows, k)) ids.push(rows.act![k]!);
  // In slices: one bound array of a few hundred thousand ids is megabytes of parameter text.
  for (let at = 0; at < ids.length; at += 100_000) {
    await sql`INSERT INTO result_filtered (set_id, tab, id)
      SELECT ${setId}::bigint, 'activitiestab', unnest(${ids.slice(at, at + 100_000)}::bigint[])`.execute(trx);
  }
  return ids.length;
}
