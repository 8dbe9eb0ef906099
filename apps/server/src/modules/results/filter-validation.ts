import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { AppliedFilter } from '@kb/contracts/search';
import { NO_VALUE_ID, chartDefinition } from '@kb/contracts/charts';
import { checkFilterValue, checkRangeBounds } from './chart-bounds.ts';
import { listBindType } from './chart-dimensions.ts';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import type { Database } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';
import { dimensionOf, isActive } from './tab-filters.ts';
import type { FilterValue } from './tab-filters.ts';
import { factsFor } from './tab-model.ts';
import type { SetSource } from './set-source.ts';

/**
 * Checks filters before a tab keeps them: unknown charts, bounds and values that do not fit the
 * chart's column (a fractional year, 1e300 for an id) and inverted ranges are refused (400);
 * values that are not in this search (any more) are dropped and reported, so a stale filter from a
 * saved query narrows nothing by surprise.
 */
export interface FilterCheck {
  kept: AppliedFilter[];
  ignored: { chartKey: string; values: FilterValue[] }[];
}

async function presentValues(
  db: Kysely<Database>,
  tab: ResultTabKey,
  sets: SetSource,
  chartKey: string,
  values: readonly FilterValue[],
): Promise<Set<string>> {
  const dimension = dimensionOf(chartKey);
  const real = values.filter((v) => v !== NO_VALUE_ID);
  const present = new Set<string>(values.includes(NO_VALUE_ID) ? [NO_VALUE_ID] : []);
  if (!real.length) return present;
  if (dimension.tree) {
    const { table, key } = dimension.tree;
    const numbers = real.map(Number).filter(Number.isFinite);
    const { rows } = await sql<{
      v: string;
    }>`SELECT ${sql.ref(key)}::text AS v FROM ${sql.table(table)} WHERE ${sql.ref(key)} = ANY(${numbers}::bigint[])`.execute(db);
    for (const row of rows) present.add(row.v);
    return present;
  }
  const facts = factsFor(tab, dimension.level, sets);
  // One EXISTS per value: a value in the results is found at its first row, so checking costs
  // little unless a value is absent (the rare stale filter).
  const bind = listBindType(dimension);
  const type = sql.raw(bind);
  const list = bind === 'text' ? real.map(String) : real.map(Number).filter(Number.isFinite);
  const { rows } = await sql<{ v: string }>`SELECT u.v::text AS v FROM unnest(${list}::${type}[]) AS u(v)
    WHERE EXISTS (SELECT 1 FROM ${facts.from} ${dimension.joins ?? sql``} WHERE ${facts.where} AND ${dimension.value} = u.v)`.execute(db);
  for (const row of rows) present.add(row.v);
  return present;
}

function checkShape(filter: AppliedFilter): void {
  const chart = chartDefinition(filter.chartKey);
  if (!chart) throw badRequest(`Unknown chart "${filter.chartKey}".`, { chartKey: filter.chartKey });
  const ranged = filter.minValue != null || filter.maxValue != null;
  if (ranged && chart.chartType !== 'Range')
    throw badRequest(`${chart.chartLabel} is not a range chart: pick values instead of a minimum and maximum.`, {
      chartKey: filter.chartKey,
    });
  const dimension = dimensionOf(filter.chartKey);
  checkRangeBounds(filter.chartKey, dimension, filter.minValue, filter.maxValue);
  for (const value of [...(filter.include ?? []), ...(filter.exclude ?? [])]) checkFilterValue(filter.chartKey, dimension, value);
}

/**
 * Which of a filter's values are in the search (as strings; "Not specified" always is). By default
 * asked in SQL; the Activities filters evaluated in memory answer it from the rows they read
 * (memory-filters.ts `presenceInRows`).
 */
export type Presence = (chartKey: string, values: readonly FilterValue[]) => Promise<Set<string>>;

export async function validateFilters(
  db: Kysely<Database>,
  tab: ResultTabKey,
  sets: SetSource,
  filters: readonly AppliedFilter[],
  presence?: Presence,
): Promise<FilterCheck> {
  const present = presence ?? ((chartKey, values) => presentValues(db, tab, sets, chartKey, values));
  const kept: AppliedFilter[] = [];
  const ignored: FilterCheck['ignored'] = [];
  for (const filter of filters) {
    checkShape(filter);
    const values = [...(filter.include ?? []), ...(filter.exclude ?? [])];
    const found = values.length ? await present(filter.chartKey, values) : new Set<string>();
    const keep = (list: readonly FilterValue[] | undefined) => list?.filter((v) => found.has(String(v)));
    const missing = values.filter((v) => !found.has(String(v)));
    if (missing.length) ignored.push({ chartKey: filter.chartKey, values: missing });
    const cleaned: AppliedFilter = { ...filter, include: keep(filter.include), exclude: keep(filter.exclude) };
    if (!cleaned.include?.length) delete cleaned.include;
    if (!cleaned.exclude?.length) delete cleaned.exclude;
    if (isActive(cleaned)) kept.push(cleaned);
  }
  return { kept, ignored };
}
