import { sql } from 'kysely';
import type { AppliedFilter } from '@kb/contracts/search';
import { NO_VALUE_ID } from '@kb/contracts/charts';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { badRequest } from '../../http/errors.ts';
import { DIMENSIONS, listBindType } from './chart-dimensions.ts';
import type { Dimension } from './chart-dimensions.ts';
import { TAB_MODELS, factsFor, levelJoin } from './tab-model.ts';
import type { Sql } from './tab-model.ts';
import { tabSet } from './set-source.ts';
import type { SetSource } from './set-source.ts';

/**
 * Chart filters as SQL (docs/results.md "Filters"): a row of a tab passes an include filter when it
 * has at least one record with a picked value, an exclude filter when it has none, a range filter
 * when it has a value inside [min, max]. Filters of different charts are ANDed.
 */

export type FilterValue = string | number;

export function dimensionOf(chartKey: string): Dimension {
  const dimension = DIMENSIONS[chartKey];
  if (!dimension) throw badRequest(`Unknown chart "${chartKey}".`, { chartKey });
  return dimension;
}

/** `value = ANY($list)` with the list bound as the dimension's SQL type. */
function valueIn(dimension: Dimension, values: readonly FilterValue[]): Sql {
  const bind = listBindType(dimension);
  if (bind === 'text') return sql`${dimension.value} = ANY(${values.map(String)}::text[])`;
  // Values were checked against the column (results/chart-bounds.ts) when the filter was applied.
  const numbers = values.map(Number).filter(Number.isFinite);
  if (dimension.tree) {
    // A tree node stands for itself and every node under it.
    const { table, key } = dimension.tree;
    return sql`${dimension.value} IN (WITH RECURSIVE sub(id) AS (
        SELECT ${sql.ref(key)} FROM ${sql.table(table)} WHERE ${sql.ref(key)} = ANY(${numbers}::bigint[])
        UNION SELECT n.${sql.ref(key)} FROM ${sql.table(table)} n JOIN sub ON n.parent_id = sub.id)
      SELECT id FROM sub)`;
  }
  return sql`${dimension.value} = ANY(${numbers}::${sql.raw(bind)}[])`;
}

/**
 * `value >= min AND value <= max`, each bound cast to the column's own type: a bound is never left
 * to the planner's guess (bounds were checked against the column when the filter was applied).
 */
function rangeConditions(dimension: Dimension, filter: AppliedFilter): Sql[] {
  const type = sql.raw(dimension.column);
  const conditions: Sql[] = [];
  if (filter.minValue != null) conditions.push(sql`${dimension.value} >= ${filter.minValue}::${type}`);
  if (filter.maxValue != null) conditions.push(sql`${dimension.value} <= ${filter.maxValue}::${type}`);
  return conditions;
}

/** Rows holding one of `values` (the "Not specified" id matches rows without a value). */
function valueMatch(dimension: Dimension, values: readonly FilterValue[]): Sql {
  const real = values.filter((v) => v !== NO_VALUE_ID);
  const parts: Sql[] = [];
  if (real.length) parts.push(valueIn(dimension, real));
  if (real.length !== values.length) parts.push(sql`${dimension.value} IS NULL`);
  return parts.length === 1 ? parts[0]! : sql`(${sql.join(parts, sql` OR `)})`;
}

/** Ids of the tab's rows whose records satisfy `condition`. */
function rowsWhere(tab: ResultTabKey, sets: SetSource, dimension: Dimension, condition: Sql): Sql {
  const facts = factsFor(tab, dimension.level, sets);
  return sql`SELECT ${facts.entity} FROM ${facts.from} ${dimension.joins ?? sql``} WHERE ${facts.where} AND ${facts.entity} IS NOT NULL AND ${condition}`;
}

/**
 * Ids of the tab's rows that pass all its filters: every row, INTERSECT the rows an include or range
 * filter keeps, EXCEPT the rows an exclude filter names. Set operations hash whole id sets, which
 * stays fast however wrong the optimiser's guess about a fresh set's size is.
 */
export function filteredIdsQuery(tab: ResultTabKey, sets: SetSource, filters: readonly AppliedFilter[]): Sql {
  if (tab === 'activitiestab' && filters.every((f) => singleValued(dimensionOf(f.chartKey)))) return activitiesInOnePass(sets, filters);
  const model = TAB_MODELS[tab];
  let query: Sql = sql`SELECT ${model.entity} AS id FROM ${model.from(sets.setId, tabSet(tab, sets))} WHERE ${model.where(sets.setId)}`;
  for (const filter of filters) {
    const dimension = dimensionOf(filter.chartKey);
    if (filter.include?.length)
      query = sql`(${query}) INTERSECT (${rowsWhere(tab, sets, dimension, valueMatch(dimension, filter.include))})`;
    if (filter.exclude?.length) query = sql`(${query}) EXCEPT (${rowsWhere(tab, sets, dimension, valueMatch(dimension, filter.exclude))})`;
    if (filter.minValue != null || filter.maxValue != null) {
      const bounds: Sql[] = [sql`${dimension.value} IS NOT NULL`, ...rangeConditions(dimension, filter)];
      query = sql`(${query}) INTERSECT (${rowsWhere(tab, sets, dimension, sql.join(bounds, sql` AND `))})`;
    }
  }
  return query;
}

/** An activity has at most one value of the chart (no joins to lists, no detour through its structure). */
function singleValued(dimension: Dimension): boolean {
  return !dimension.joins && dimension.level !== 'clinical';
}

/**
 * Activities tab whose filters are all single-valued: one pass over the set with each property
 * joined once and every filter a condition on the row (a 750,000-row set filters in well under a
 * second; the set operations above hash it once per filter).
 */
function activitiesInOnePass(sets: SetSource, filters: readonly AppliedFilter[]): Sql {
  const levels = [...new Set(filters.map((f) => dimensionOf(f.chartKey).level))];
  const joins = levels.map((level) => (level === 'activity' ? sql`JOIN activities a ON a.act_id = sa.act_id` : levelJoin(level, sets)));
  const conditions: Sql[] = [sql`sa.set_id = ${sets.setId}::bigint`];
  for (const filter of filters) {
    const dimension = dimensionOf(filter.chartKey);
    if (filter.include?.length) conditions.push(valueMatch(dimension, filter.include));
    if (filter.exclude?.length) conditions.push(sql`NOT coalesce(${valueMatch(dimension, filter.exclude)}, false)`);
    conditions.push(...rangeConditions(dimension, filter));
  }
  return sql`SELECT sa.act_id AS id FROM ${tabSet('activitiestab', sets)} ${sql.join(joins, sql` `)} WHERE ${sql.join(conditions, sql` AND `)}`;
}

/**
 * Rows of a filtered tab, as materialised in result_filtered (one packed array, migration 0029)
 * when its filters were applied: the ids that passed, or (`complement`, when most rows passed) those
 * that did not. `IS TRUE` / `IS NOT TRUE` keep the optimiser from turning the IN into a join: it
 * cannot see an array's length (it takes the ids for 10 rows), and as a join it unique-ified them
 * for 200 and probed an index once per id (0.55 s for 92,000 rows at M). Left a condition, the ids
 * are hashed once per query (only the branch taken: a hashed subplan is built when first asked) and
 * each row of the tab is looked up in the hash, whatever their number.
 */
export function filteredRestriction(tab: ResultTabKey, setId: number, entity: Sql): Sql {
  const stored = sql`FROM result_filtered rf WHERE rf.set_id = ${setId}::bigint AND rf.tab = ${tab}`;
  const listed = sql`${entity} IN (SELECT unnest(rf.ids) ${stored})`;
  return sql`(CASE WHEN (SELECT rf.complement ${stored}) THEN (${listed}) IS NOT TRUE ELSE (${listed}) IS TRUE END)`;
}

/** True when a filter restricts anything. */
export function isActive(filter: AppliedFilter): boolean {
  return !!(filter.include?.length || filter.exclude?.length || filter.minValue != null || filter.maxValue != null);
}
