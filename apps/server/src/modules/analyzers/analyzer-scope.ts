import { sql } from 'kysely';
import type { AnalyzerEndpoint, AnalyzerMeasure, AnalyzerTab } from '@kb/contracts/analyzers';
import { ANALYZER_MEASURE_LABELS, STRUCTURE_MEASURES } from '@kb/contracts/analyzers';
import { badRequest } from '../../http/errors.ts';
import { MOLAR } from '../sar/analysis/pactivity.ts';
import { TAB_MODELS } from '../results/tab-model.ts';
import type { Sql } from '../results/tab-model.ts';
import { filteredRestriction } from '../results/tab-filters.ts';
import { tabSet } from '../results/set-source.ts';
import type { SetSource } from '../results/set-source.ts';

/**
 * The rows an analyzer chart reads (docs/sar.md "Analyzers"): the rows of one results tab of a
 * session AS FILTERED, i.e. the rows the grid shows. Filters are those materialised in
 * result_filtered when they were applied (the results module's own restriction, not a copy).
 */
export interface TabScope {
  tab: AnalyzerTab;
  setId: number;
  /** Where the session's sets are read (held in memory, or the set tables). */
  sets: SetSource;
  /** The tab has applied filters: restrict to the rows that passed them. */
  filtered: boolean;
}

/** The tab's rows joined to what the grid reads (structure, activity, assay, target, document). */
export function tabRows(scope: TabScope): { from: Sql; where: Sql; entity: Sql } {
  const model = TAB_MODELS[scope.tab];
  const parts = [model.where(scope.setId)];
  if (scope.filtered) parts.push(filteredRestriction(scope.tab, scope.setId, model.entity));
  return { from: model.from(scope.setId, tabSet(scope.tab, scope.sets)), where: sql.join(parts, sql` AND `), entity: model.entity };
}

/**
 * The session's activities behind the tab's rows, as `search_activities sa`: on the Activities tab
 * the rows themselves, on the Structures tab the activities of its structures within this search.
 */
export function tabActivities(scope: TabScope): { from: Sql; where: Sql } {
  const set = sql`${scope.setId}::bigint`;
  if (scope.tab === 'activitiestab') {
    const rows = tabRows(scope);
    return { from: rows.from, where: rows.where };
  }
  const structures = tabRows(scope);
  return {
    from: tabSet('activitiestab', scope.sets),
    where: sql`sa.set_id = ${set} AND sa.str_id IN (SELECT ${structures.entity} FROM ${structures.from} WHERE ${structures.where})`,
  };
}

/** Distinct structures of the tab's rows: `SELECT str_id …`. */
export function tabStructures(scope: TabScope): Sql {
  if (scope.tab === 'activitiestab' && !scope.filtered) {
    // The structures of an unfiltered Activities tab are in the set's own rows: no join to the
    // 750,000 activities behind them (that join was 1.5 s of the cached scaffold chart).
    return sql`SELECT DISTINCT sa.str_id FROM ${tabSet('activitiestab', scope.sets)} WHERE sa.set_id = ${scope.setId}::bigint AND sa.str_id IS NOT NULL`;
  }
  const rows = tabRows(scope);
  const strId = TAB_MODELS[scope.tab].strId!;
  return sql`SELECT DISTINCT ${strId} AS str_id FROM ${rows.from} WHERE ${rows.where} AND ${strId} IS NOT NULL`;
}

/** `CASE trim(unit) WHEN 'nM' THEN 9 … END`: the power of ten of each molar unit of the SAR view's table (MOLAR). */
function molarPowerSql(unit: Sql): Sql {
  const cases = Object.entries(MOLAR).map(([name, factor]) => sql`WHEN ${sql.lit(name)} THEN ${sql.lit(Math.round(-Math.log10(factor)))}`);
  return sql`CASE trim(${unit}) ${sql.join(cases, sql` `)} END`;
}

/**
 * pActivity (−log10 molar; docs/sar.md "Units and pActivity"), by the SAR view's rule (sar-values.ts
 * pActivityOf): pChEMBL when the source gives it, else the standard value converted from its molar
 * unit (trimmed; the units and factors of toPActivity) — only when its relation is '=' (or none).
 * A qualified value ('>' 10 µM) says where the value is not, so it has no pActivity here either;
 * other units (%, mg/kg) have none. PostgreSQL's log() of a double is base 10 (PGlite too).
 */
export const PACTIVITY_SQL: Sql = sql`coalesce(a.pchembl_value, CASE WHEN a.activity_value > 0 AND coalesce(trim(a.std_act_prefix), '') IN ('', '=')
    THEN -log(a.activity_value::float8) + ${molarPowerSql(sql`a.standard_uom`)} END)`;

const MEASURE_SQL: Record<AnalyzerMeasure, Sql> = {
  mw: sql`s.mol_weight`,
  clogp: sql`s.logp_calc`,
  psa: sql`s.psa`,
  hbd: sql`s.hb_donors`,
  hba: sql`s.hb_acceptor`,
  rotb: sql`s.rot_bonds`,
  pactivity: PACTIVITY_SQL,
  year: sql`d.year`,
};

/**
 * The measure's value on a row of the tab (as float8); a measure the tab has not is a 400. On the
 * Structures tab `pactivity` is the endpoint's median (`ep.p`, joined by `endpointJoin`) when the
 * chart has an endpoint.
 */
export function measureSql(tab: AnalyzerTab, measure: AnalyzerMeasure, withEndpoint = false): Sql {
  if (tab === 'structuretab' && measure === 'pactivity' && withEndpoint) return sql`ep.p`;
  if (tab === 'structuretab' && !STRUCTURE_MEASURES.includes(measure)) {
    const how =
      measure === 'pactivity'
        ? ' or choose an endpoint (a target and an activity type) to plot each structure’s median pActivity on it'
        : '';
    throw badRequest(
      `${ANALYZER_MEASURE_LABELS[measure]} belongs to an activity: chart it from the Activities tab${how} (a structure has many activities).`,
      { measure },
    );
  }
  return sql`(${MEASURE_SQL[measure]})::float8`;
}

/**
 * `LEFT JOIN (…) ep ON ep.str_id = ss.str_id`: per structure of the Structures tab, the median
 * pActivity (PACTIVITY_SQL, the SAR view's rule) of its activities within the search on one
 * endpoint — the session's activities of the tab's structures (`tabActivities`), whose target is
 * the endpoint's and whose standard activity type is its type. Activities without a pActivity
 * (a qualified value, a unit that is not molar) are left out of the median; a structure with none
 * has no value. Aggregated in SQL: one row per structure leaves the subquery.
 */
export function endpointJoin(sets: SetSource, endpoint: AnalyzerEndpoint): Sql {
  return sql`LEFT JOIN (SELECT m.str_id, percentile_cont(0.5) WITHIN GROUP (ORDER BY m.p) AS p
      FROM (SELECT sa.str_id, (${PACTIVITY_SQL})::float8 AS p FROM ${tabSet('activitiestab', sets)} JOIN activities a ON a.act_id = sa.act_id
        WHERE sa.set_id = ${sets.setId}::bigint AND sa.target_id = ${endpoint.targetId}::bigint AND a.std_activity_type = ${endpoint.activityType}) m
      WHERE m.p IS NOT NULL GROUP BY m.str_id) ep ON ep.str_id = ss.str_id`;
}

/** Charts that read activity rows one by one (a distribution of values, a target × compound heatmap). */
export function requireActivities(tab: AnalyzerTab, chart: string): void {
  if (tab !== 'activitiestab')
    throw badRequest(`The ${chart} reads activities one by one: open the analyzers of the Activities tab.`, { tab });
}

/**
 * A fixed pseudo-random rank of a row id in [0, 2^32): a multiplicative (Knuth) hash. Sampling by
 * this rank takes the same rows every time (a saved analysis reopens with the same points) and
 * needs no sort of the whole set by random().
 */
export function sampleRank(id: Sql): Sql {
  return sql`((${id})::bigint * 2654435761::bigint) % 4294967296::bigint`;
}
