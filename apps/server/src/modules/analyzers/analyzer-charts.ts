import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type {
  DistributionConfigSchema,
  DistributionDataSchema,
  HeatmapConfigSchema,
  HeatmapDataSchema,
  ScaffoldsDataSchema,
  ScatterConfigSchema,
  ScatterDataSchema,
  TreemapDataSchema,
  TreemapNode,
} from '@kb/contracts/analyzers';
import { ANALYZER_ENDPOINTS_MAX, ENDPOINT_ACTIVITY_TYPE_MAX, SCATTER_MAX_POINTS } from '@kb/contracts/analyzers';
import type { AnalyzerEndpoint, EndpointOption } from '@kb/contracts/analyzers';
import { badRequest } from '../../http/errors.ts';
import type { Database } from '../../db/schema.ts';
import type { Sql } from '../results/tab-model.ts';
import { TAB_MODELS } from '../results/tab-model.ts';
import {
  PACTIVITY_SQL,
  endpointJoin,
  measureSql,
  requireActivities,
  sampleRank,
  tabActivities,
  tabRows,
  tabStructures,
} from './analyzer-scope.ts';
import type { TabScope } from './analyzer-scope.ts';

/**
 * The analyzer charts, each one aggregation in SQL over a tab's rows (docs/sar.md "Analyzers"):
 * only the figures drawn leave the database, so a 750,000-activity session answers in about a second.
 */

type Db = Kysely<Database>;
type ScatterData = z.infer<typeof ScatterDataSchema>;
type DistributionData = z.infer<typeof DistributionDataSchema>;
type HeatmapData = z.infer<typeof HeatmapDataSchema>;
type TreemapData = z.infer<typeof TreemapDataSchema>;
type ScaffoldsData = z.infer<typeof ScaffoldsDataSchema>;

/** Bins of a distribution's histogram (the same edges for every group). */
const HISTOGRAM_BINS = 20;
/** Most distinct structures whose scaffolds are computed; above, a fixed random sample of this many. */
const SCAFFOLD_MAX_STRUCTURES = 5_000;

const num = (value: unknown): number => Number(value);
const bounds = (min: unknown, max: unknown) => (min == null || max == null ? null : { min: num(min), max: num(max) });

/** Rows sampled by their fixed rank: the `limit` lowest ranks, read without sorting the whole set. */
function sampled(rows: Sql, total: number, limit: number): Sql {
  // A little over the share needed passes the rank test (about 10 % spare: short by chance only
  // with a vanishing probability), and the top-`limit` sort runs over those alone.
  const threshold = Math.min(4294967296, Math.ceil(Math.min(1, (limit * 1.1) / total) * 4294967296));
  return sql`SELECT * FROM (${rows}) r WHERE r.rank < ${threshold}::bigint ORDER BY r.rank LIMIT ${limit}`;
}

type ScatterConfig = z.infer<typeof ScatterConfigSchema>;
type ResolvedEndpoint = AnalyzerEndpoint & { targetName: string };

/**
 * The endpoint a scatter's pActivity is read on: on the Structures tab a chart with pActivity on
 * an axis or the colour needs one (a structure has many activities); the Activities tab's rows have
 * their own pActivity, so an endpoint there is refused rather than silently ignored. A target that
 * is not in the knowledge base is a 400 (an endpoint nothing was measured on draws no point, and the
 * note says so).
 */
async function scatterEndpoint(db: Db, tab: TabScope['tab'], config: ScatterConfig): Promise<ResolvedEndpoint | null> {
  const usesPActivity = [config.x, config.y, config.color].includes('pactivity');
  if (tab === 'activitiestab') {
    if (config.endpoint) {
      throw badRequest(
        'An endpoint chooses a structure’s pActivity on the Structures tab; each row of the Activities tab has its own pActivity: leave the endpoint out.',
        { tab },
      );
    }
    return null;
  }
  if (!usesPActivity) return null;
  if (!config.endpoint) {
    throw badRequest(
      'pActivity on the Structures tab is each structure’s median over the activities of one endpoint: choose an endpoint (a target and an activity type), or chart pActivity from the Activities tab.',
      { measure: 'pactivity' },
    );
  }
  const { targetId, activityType } = config.endpoint;
  const target = await db.selectFrom('targets').select('name').where('target_id', '=', targetId).executeTakeFirst();
  if (!target)
    throw badRequest(`There is no target ${targetId} in the knowledge base: choose an endpoint from the list of the tab’s endpoints.`, {
      targetId,
    });
  return { targetId, activityType, targetName: target.name ?? `Target ${targetId}` };
}

export async function scatter(db: Db, scope: TabScope, config: ScatterConfig, maxPoints = SCATTER_MAX_POINTS): Promise<ScatterData> {
  const endpoint = await scatterEndpoint(db, scope.tab, config);
  const x = measureSql(scope.tab, config.x, endpoint !== null);
  const y = measureSql(scope.tab, config.y, endpoint !== null);
  const c = config.color ? measureSql(scope.tab, config.color, endpoint !== null) : sql`NULL::float8`;
  const tab = tabRows(scope);
  // A Structures-tab pActivity: each structure's median on the endpoint, joined to the tab's rows.
  const rows = endpoint ? { ...tab, from: sql`${tab.from} ${endpointJoin(scope.sets, endpoint)}` } : tab;
  // Count and bounds in one aggregate over the rows (a plain query, so PostgreSQL runs it in parallel).
  const {
    rows: [stats],
  } = await sql<{
    total: number;
    all_rows: number;
    color_missing: number;
    xmin: number;
    xmax: number;
    ymin: number;
    ymax: number;
    cmin: number;
    cmax: number;
  }>`
    SELECT count(*) FILTER (WHERE x IS NOT NULL AND y IS NOT NULL)::int AS total, count(*)::int AS all_rows,
      count(*) FILTER (WHERE x IS NOT NULL AND y IS NOT NULL AND c IS NULL)::int AS color_missing,
      min(x) FILTER (WHERE y IS NOT NULL) AS xmin, max(x) FILTER (WHERE y IS NOT NULL) AS xmax,
      min(y) FILTER (WHERE x IS NOT NULL) AS ymin, max(y) FILTER (WHERE x IS NOT NULL) AS ymax,
      min(c) FILTER (WHERE x IS NOT NULL AND y IS NOT NULL) AS cmin, max(c) FILTER (WHERE x IS NOT NULL AND y IS NOT NULL) AS cmax
    FROM (SELECT ${x} AS x, ${y} AS y, ${c} AS c FROM ${rows.from} WHERE ${rows.where}) v`.execute(db);
  // The sample's rank depends on the row id alone, so it is tested on the set's ids before any join:
  // only about 1.1 × maxPoints rows are joined to read their values.
  const total0 = stats?.total ?? 0;
  const share = Math.min(1, (maxPoints * 1.1) / Math.max(1, total0));
  const rankTest = total0 > maxPoints ? sql`AND ${sampleRank(rows.entity)} < ${Math.ceil(share * 4294967296)}::bigint` : sql``;
  const strId = TAB_MODELS[scope.tab].strId ?? sql`NULL::int`;
  const { rows: points } = await sql<{ id: number; x: number; y: number; c: number | null; s: number | null }>`
    SELECT id, x, y, c, s FROM (SELECT ${rows.entity} AS id, ${x} AS x, ${y} AS y, ${c} AS c, ${strId} AS s, ${sampleRank(rows.entity)} AS rank
      FROM ${rows.from} WHERE ${rows.where} ${rankTest}) v
    WHERE x IS NOT NULL AND y IS NOT NULL ORDER BY rank LIMIT ${maxPoints}`.execute(db);
  const total = stats?.total ?? 0;
  return {
    chart: 'scatter',
    x: config.x,
    y: config.y,
    color: config.color,
    endpoint,
    total,
    missing: (stats?.all_rows ?? 0) - total,
    colorMissing: config.color ? (stats?.color_missing ?? 0) : 0,
    sampled: total > maxPoints,
    points: points.map((p) => ({
      id: num(p.id),
      x: num(p.x),
      y: num(p.y),
      c: p.c == null ? null : num(p.c),
      s: p.s == null ? null : num(p.s),
    })),
    xBounds: bounds(stats?.xmin, stats?.xmax),
    yBounds: bounds(stats?.ymin, stats?.ymax),
    colorBounds: bounds(stats?.cmin, stats?.cmax),
  };
}

/** Group key and label of each grouping, on an activity row (null key: "Not specified"). */
const GROUPINGS: Record<z.infer<typeof DistributionConfigSchema>['groupBy'], { key: Sql; label: Sql }> = {
  target: { key: sql`sa.target_id::text`, label: sql`t.name` },
  assayType: { key: sql`ay.assay_type`, label: sql`ay.assay_type` },
  year: { key: sql`d.year::text`, label: sql`d.year::text` },
  activityType: { key: sql`a.std_activity_type`, label: sql`a.std_activity_type` },
};

export async function distribution(db: Db, scope: TabScope, config: z.infer<typeof DistributionConfigSchema>): Promise<DistributionData> {
  requireActivities(scope.tab, 'distribution');
  const rows = tabRows(scope);
  const grouping = GROUPINGS[config.groupBy];
  const measure = measureSql(scope.tab, config.measure);
  // One query, one pass over the rows: the largest groups (ties by key), their five-number
  // summaries, and a histogram over edges shared by the groups shown (from their smallest to their
  // largest value; width_bucket puts the maximum itself in bucket n+1, counted in the last bin).
  const { rows: groups } = await sql<{
    k: string;
    label: string | null;
    n: number;
    lo: number;
    q1: number;
    med: number;
    q3: number;
    hi: number;
    bins: Record<string, number>;
    all_groups: number;
    range_lo: number;
    range_hi: number;
  }>`
    WITH v AS MATERIALIZED (SELECT coalesce(${grouping.key}, '') AS k, ${grouping.label} AS label, ${measure} AS m FROM ${rows.from} WHERE ${rows.where} AND (${measure}) IS NOT NULL),
      g AS (SELECT k, count(*) AS n FROM v GROUP BY k),
      top AS (SELECT k FROM g ORDER BY n DESC, k LIMIT ${config.groups}),
      vt AS MATERIALIZED (SELECT v.* FROM v JOIN top ON top.k = v.k),
      r AS (SELECT min(m) AS lo, CASE WHEN max(m) > min(m) THEN max(m) ELSE min(m) + 1 END AS hi FROM vt),
      h AS (SELECT k, least(width_bucket(m, r.lo, r.hi, ${HISTOGRAM_BINS}), ${HISTOGRAM_BINS}) AS b, count(*)::int AS n FROM vt, r GROUP BY 1, 2),
      hs AS (SELECT k, json_object_agg(b, n) AS bins FROM h GROUP BY k),
      st AS (SELECT k, min(label) AS label, count(*)::int AS n, min(m) AS lo, percentile_cont(0.25) WITHIN GROUP (ORDER BY m) AS q1,
          percentile_cont(0.5) WITHIN GROUP (ORDER BY m) AS med, percentile_cont(0.75) WITHIN GROUP (ORDER BY m) AS q3, max(m) AS hi FROM vt GROUP BY k)
    SELECT st.*, hs.bins, (SELECT count(*) FROM g)::int AS all_groups, r.lo AS range_lo, r.hi AS range_hi
    FROM st JOIN hs ON hs.k = st.k, r ORDER BY st.n DESC, st.k`.execute(db);
  if (!groups.length)
    return { chart: 'distribution', measure: config.measure, groupBy: config.groupBy, groups: [], edges: [], otherGroups: 0 };
  const edges = histogramEdges(num(groups[0]!.range_lo), num(groups[0]!.range_hi));
  const histogram = (bins: Record<string, number> | string) => {
    const counts = typeof bins === 'string' ? (JSON.parse(bins) as Record<string, number>) : bins;
    return Array.from({ length: HISTOGRAM_BINS }, (_, i) => Number(counts[String(i + 1)] ?? 0));
  };
  return {
    chart: 'distribution',
    measure: config.measure,
    groupBy: config.groupBy,
    groups: groups.map((g) => ({
      key: g.k,
      label: g.k === '' ? 'Not specified' : (g.label ?? g.k),
      count: g.n,
      min: num(g.lo),
      q1: num(g.q1),
      median: num(g.med),
      q3: num(g.q3),
      max: num(g.hi),
      histogram: histogram(g.bins),
    })),
    edges,
    otherGroups: Math.max(0, (groups[0]?.all_groups ?? 0) - groups.length),
  };
}

/** HISTOGRAM_BINS + 1 equal-width edges from lo to hi (hi = lo + 1 when every value is the same). */
function histogramEdges(lo: number, hi: number): number[] {
  const width = (hi - lo) / HISTOGRAM_BINS;
  return Array.from({ length: HISTOGRAM_BINS + 1 }, (_, i) => Number((lo + i * width).toPrecision(12)));
}

/**
 * The selectivity heatmap (docs/sar.md "Analyzers"): the `compounds` structures of the tab's rows
 * most measured (rows with a target and a pActivity), then EVERY measurement of those compounds in
 * the knowledge base — any target, not only the search's rows, so a one-target search (the usual
 * case) still shows where else its compounds were measured. The `targets` targets with the most
 * such measurements are the rows; a cell is a compound's median pActivity on a target. Each target
 * says whether the tab's rows of these compounds are on it. Bounded: at most 200 compounds' own
 * activities are read (activities_str_idx), aggregated in SQL.
 */
export async function heatmap(db: Db, scope: TabScope, config: z.infer<typeof HeatmapConfigSchema>): Promise<HeatmapData> {
  requireActivities(scope.tab, 'heatmap');
  const rows = tabRows(scope);
  const { rows: chosen } = await sql<{ c: number; smiles: string | null }>`
    WITH cc AS (SELECT sa.str_id AS c, count(*) AS n FROM ${rows.from}
        WHERE ${rows.where} AND sa.target_id IS NOT NULL AND sa.str_id IS NOT NULL AND ${PACTIVITY_SQL} IS NOT NULL
        GROUP BY sa.str_id ORDER BY n DESC, sa.str_id LIMIT ${config.compounds})
    SELECT cc.c, st.canonical_smiles AS smiles FROM cc JOIN structures st ON st.str_id = cc.c ORDER BY cc.n DESC, cc.c`.execute(db);
  const compounds = chosen.map((r) => ({ strId: num(r.c), smiles: r.smiles ?? '' }));
  const empty: HeatmapData = { chart: 'heatmap', cellsFrom: 'knowledgeBase', targets: [], compounds, otherTargets: 0, cells: [] };
  if (!compounds.length) return empty;
  const ids = compounds.map((x) => x.strId);
  // The compounds' measurements in the knowledge base; the tab's own targets of them, for the marks.
  const { rows: found } = await sql<{
    kind: 't' | 'x';
    t: number;
    c: number | null;
    med: number | null;
    n: number;
    name: string | null;
    gene_symbol: string | null;
    in_search: boolean | null;
    all_targets: number;
  }>`
    WITH m AS MATERIALIZED (SELECT a.target_id AS t, a.str_id AS c, (${PACTIVITY_SQL})::float8 AS p FROM activities a
        WHERE a.str_id = ANY(${ids}::bigint[]) AND a.target_id IS NOT NULL AND ${PACTIVITY_SQL} IS NOT NULL),
      g AS (SELECT t, count(*) AS n FROM m GROUP BY t),
      tt AS (SELECT t, n FROM g ORDER BY n DESC, t LIMIT ${config.targets}),
      searched AS (SELECT DISTINCT sa.target_id AS t FROM ${rows.from} WHERE ${rows.where} AND sa.str_id = ANY(${ids}::bigint[]) AND sa.target_id IS NOT NULL)
    SELECT 't' AS kind, tt.t, NULL::bigint AS c, NULL::float8 AS med, tt.n::int AS n, tg.name, tg.gene_symbol, (tt.t IN (SELECT t FROM searched)) AS in_search,
        (SELECT count(*) FROM g)::int AS all_targets
      FROM tt LEFT JOIN targets tg ON tg.target_id = tt.t
    UNION ALL
    SELECT 'x', m.t, m.c, percentile_cont(0.5) WITHIN GROUP (ORDER BY m.p), count(*)::int, NULL, NULL, NULL, 0
      FROM m JOIN tt ON tt.t = m.t GROUP BY m.t, m.c
    ORDER BY 1 DESC, 5 DESC, 2`.execute(db);
  const targetRows = found.filter((r) => r.kind === 't');
  const targets = targetRows.map((r) => ({
    id: num(r.t),
    name: r.name ?? `Target ${r.t}`,
    geneSymbol: r.gene_symbol,
    inSearch: r.in_search === true,
  }));
  if (!targets.length) return empty;
  const tIndex = new Map(targets.map((x, i) => [x.id, i]));
  const cIndex = new Map(compounds.map((x, i) => [x.strId, i]));
  return {
    chart: 'heatmap',
    cellsFrom: 'knowledgeBase',
    targets,
    compounds,
    otherTargets: Math.max(0, (targetRows[0]?.all_targets ?? 0) - targets.length),
    cells: found
      .filter((r) => r.kind === 'x')
      .map((cell) => ({ t: tIndex.get(num(cell.t))!, c: cIndex.get(num(cell.c))!, value: num(cell.med), n: num(cell.n) })),
  };
}

export async function treemap(db: Db, scope: TabScope): Promise<TreemapData> {
  const acts = tabActivities(scope);
  // Each class counts the distinct compounds under it once (a compound on two kinases counts once for "Kinase").
  const { rows } = await sql<{ id: number; parent_id: number | null; name: string; n: number }>`
    WITH RECURSIVE f AS (SELECT DISTINCT tg.class_id AS v, sa.str_id AS e FROM ${acts.from} LEFT JOIN targets tg ON tg.target_id = sa.target_id WHERE ${acts.where}),
      up(leaf, node) AS (SELECT DISTINCT v, v FROM f WHERE v IS NOT NULL
        UNION SELECT up.leaf, n.parent_id FROM up JOIN target_classes n ON n.class_id = up.node WHERE n.parent_id IS NOT NULL)
    SELECT up.node AS id, n.parent_id, n.name, count(DISTINCT f.e)::int AS n
    FROM f JOIN up ON up.leaf = f.v JOIN target_classes n ON n.class_id = up.node GROUP BY up.node, n.parent_id, n.name
    UNION ALL SELECT -1, NULL, 'Unclassified target', count(DISTINCT e)::int FROM f WHERE v IS NULL HAVING count(*) > 0
    UNION ALL SELECT -2, NULL, '', count(DISTINCT e)::int FROM f`.execute(db);
  const total = rows.find((r) => num(r.id) === -2)?.n ?? 0;
  return { chart: 'treemap', total, root: nest(rows.filter((r) => num(r.id) !== -2)) };
}

/** Class rows (each with its parent) as a tree, largest first. */
function nest(rows: readonly { id: number; parent_id: number | null; name: string; n: number }[]): TreemapNode[] {
  const children = new Map<number | null, (typeof rows)[number][]>();
  for (const row of rows) {
    const parent = row.parent_id == null ? null : num(row.parent_id);
    children.set(parent, [...(children.get(parent) ?? []), row]);
  }
  const build = (parent: number | null): TreemapNode[] =>
    (children.get(parent) ?? [])
      .sort((a, b) => b.n - a.n || a.name.localeCompare(b.name))
      .map((row) => {
        const below = build(num(row.id));
        return below.length ? { name: row.name, value: row.n, children: below } : { name: row.name, value: row.n };
      });
  return build(null);
}

/** Scaffold per str_id (the chemistry module's scaffold cache, scaffold-cache.ts). */
export type ScaffoldsOf = (strIds: readonly number[]) => Promise<Map<number, string | null>>;

export async function scaffolds(
  db: Db,
  scope: TabScope,
  limit: number,
  scaffoldsOf: ScaffoldsOf,
  maxStructures = SCAFFOLD_MAX_STRUCTURES,
): Promise<ScaffoldsData> {
  const structures = sql`SELECT str_id, ${sampleRank(sql`str_id`)} AS rank FROM (${tabStructures(scope)}) d`;
  const {
    rows: [count],
  } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM (${structures}) s`.execute(db);
  const total = count?.n ?? 0;
  const isSampled = total > maxStructures;
  const { rows } = await sql<{
    str_id: string | number;
  }>`SELECT x.str_id FROM (${isSampled ? sampled(structures, total, maxStructures) : structures}) x
    JOIN structures st ON st.str_id = x.str_id ORDER BY x.str_id`.execute(db);
  const found = await scaffoldsOf(rows.map((r) => Number(r.str_id)));
  const counts = new Map<string, number>();
  for (const row of rows) {
    const scaffold = found.get(Number(row.str_id));
    if (scaffold) counts.set(scaffold, (counts.get(scaffold) ?? 0) + 1);
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, limit);
  return {
    chart: 'scaffolds',
    structures: rows.length,
    sampled: isSampled,
    scaffolds: ranked.map(([smiles, compounds]) => ({ smiles, compounds })),
  };
}

/**
 * The endpoints (target × standard activity type) of the tab's activities that have a pActivity,
 * most structures first (then most activities, then the names): what a Structures-tab scatter can
 * plot as pActivity. At most ANALYZER_ENDPOINTS_MAX; `more` counts the rest. The idea of the SAR
 * view's endpoint list (sar-queries.ts endpointGroups), over the tab's activities and counting only
 * the activities with a pActivity.
 */
export async function endpointOptions(db: Db, scope: TabScope): Promise<{ endpoints: EndpointOption[]; more: number }> {
  const acts = tabActivities(scope);
  const join = scope.tab === 'activitiestab' ? sql`` : sql`JOIN activities a ON a.act_id = sa.act_id`;
  const { rows } = await sql<{
    target_id: number;
    target_name: string | null;
    activity_type: string;
    structures: number;
    activities: number;
    all_endpoints: number;
  }>`
    WITH e AS (SELECT sa.target_id, a.std_activity_type AS activity_type, count(DISTINCT sa.str_id)::int AS structures, count(*)::int AS activities
        FROM ${acts.from} ${join}
        WHERE ${acts.where} AND sa.target_id IS NOT NULL AND length(a.std_activity_type) BETWEEN 1 AND ${ENDPOINT_ACTIVITY_TYPE_MAX} AND ${PACTIVITY_SQL} IS NOT NULL
        GROUP BY sa.target_id, a.std_activity_type)
    SELECT e.target_id, tg.name AS target_name, e.activity_type, e.structures, e.activities, (SELECT count(*) FROM e)::int AS all_endpoints
    FROM e LEFT JOIN targets tg ON tg.target_id = e.target_id
    ORDER BY e.structures DESC, e.activities DESC, tg.name, e.activity_type LIMIT ${ANALYZER_ENDPOINTS_MAX}`.execute(db);
  return {
    endpoints: rows.map((r) => ({
      targetId: num(r.target_id),
      targetName: r.target_name ?? `Target ${r.target_id}`,
      activityType: r.activity_type,
      structures: num(r.structures),
      activities: num(r.activities),
    })),
    more: Math.max(0, (rows[0]?.all_endpoints ?? 0) - rows.length),
  };
}
