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
import { SCATTER_MAX_POINTS } from '@kb/contracts/analyzers';
import type { Database } from '../../db/schema.ts';
import type { Sql } from '../results/tab-model.ts';
import { TAB_MODELS } from '../results/tab-model.ts';
import { PACTIVITY_SQL, measureSql, requireActivities, sampleRank, tabActivities, tabRows, tabStructures } from './analyzer-scope.ts';
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
export const HISTOGRAM_BINS = 20;
/** Most distinct structures whose scaffolds are computed; above, a fixed random sample of this many. */
export const SCAFFOLD_MAX_STRUCTURES = 5_000;

const num = (value: unknown): number => Number(value);
const bounds = (min: unknown, max: unknown) => (min == null || max == null ? null : { min: num(min), max: num(max) });

/** Rows sampled by their fixed rank: the `limit` lowest ranks, read without sorting the whole set. */
function sampled(rows: Sql, total: number, limit: number): Sql {
  // A little over the share needed passes the rank test (about 10 % spare: short by chance only
  // with a vanishing probability), and the top-`limit` sort runs over those alone.
  const threshold = Math.min(4294967296, Math.ceil((Math.min(1, (limit * 1.1) / total) * 4294967296)));
  return sql`SELECT * FROM (${rows}) r WHERE r.rank < ${threshold}::bigint ORDER BY r.rank LIMIT ${limit}`;
}

export async function scatter(db: Db, scope: TabScope, config: z.infer<typeof ScatterConfigSchema>, maxPoints = SCATTER_MAX_POINTS): Promise<ScatterData> {
  const x = measureSql(scope.tab, config.x);
  const y = measureSql(scope.tab, config.y);
  const c = config.color ? measureSql(scope.tab, config.color) : sql`NULL::float8`;
  const rows = tabRows(scope);
  // Count and bounds in one aggregate over the rows (a plain query, so PostgreSQL runs it in parallel).
  const { rows: [stats] } = await sql<{ total: number; all_rows: number; xmin: number; xmax: number; ymin: number; ymax: number; cmin: number; cmax: number }>`
    SELECT count(*) FILTER (WHERE x IS NOT NULL AND y IS NOT NULL)::int AS total, count(*)::int AS all_rows,
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
    total,
    missing: (stats?.all_rows ?? 0) - total,
    sampled: total > maxPoints,
    points: points.map((p) => ({ id: num(p.id), x: num(p.x), y: num(p.y), c: p.c == null ? null : num(p.c), s: p.s == null ? null : num(p.s) })),
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
  const { rows: groups } = await sql<{ k: string; label: string | null; n: number; lo: number; q1: number; med: number; q3: number; hi: number; bins: Record<string, number>; all_groups: number; range_lo: number; range_hi: number }>`
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
  if (!groups.length) return { chart: 'distribution', measure: config.measure, groupBy: config.groupBy, groups: [], edges: [], otherGroups: 0 };
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
export function histogramEdges(lo: number, hi: number): number[] {
  const width = (hi - lo) / HISTOGRAM_BINS;
  return Array.from({ length: HISTOGRAM_BINS + 1 }, (_, i) => Number((lo + i * width).toPrecision(12)));
}

export async function heatmap(db: Db, scope: TabScope, config: z.infer<typeof HeatmapConfigSchema>): Promise<HeatmapData> {
  requireActivities(scope.tab, 'heatmap');
  const rows = tabRows(scope);
  // Activities with a target, a pActivity and a structure: the most measured targets, then the
  // compounds most measured on them (a column per structure, so structureless activities are left out).
  const values = sql`SELECT sa.target_id AS t, sa.str_id AS c, ${PACTIVITY_SQL}::float8 AS p FROM ${rows.from}
    WHERE ${rows.where} AND sa.target_id IS NOT NULL AND sa.str_id IS NOT NULL AND ${PACTIVITY_SQL} IS NOT NULL`;
  const { rows: ranked } = await sql<{ kind: 't' | 'c'; id: number; label: string | null }>`
    WITH v AS (SELECT * FROM (${values}) v0),
      tt AS (SELECT t, count(*) AS n FROM v GROUP BY t ORDER BY n DESC, t LIMIT ${config.targets}),
      cc AS (SELECT c, count(*) AS n FROM v JOIN tt USING (t) GROUP BY c ORDER BY n DESC, c LIMIT ${config.compounds})
    SELECT 't' AS kind, tt.t AS id, tg.name AS label, tt.n FROM tt JOIN targets tg ON tg.target_id = tt.t
    UNION ALL SELECT 'c', cc.c, st.canonical_smiles, cc.n FROM cc JOIN structures st ON st.str_id = cc.c
    ORDER BY kind DESC, n DESC, id`.execute(db);
  const targets = ranked.filter((r) => r.kind === 't').map((r) => ({ id: num(r.id), name: r.label ?? `Target ${r.id}` }));
  const compounds = ranked.filter((r) => r.kind === 'c').map((r) => ({ strId: num(r.id), smiles: r.label ?? '' }));
  if (!targets.length || !compounds.length) return { chart: 'heatmap', targets, compounds, cells: [] };
  const { rows: cells } = await sql<{ t: number; c: number; med: number; n: number }>`
    SELECT t, c, percentile_cont(0.5) WITHIN GROUP (ORDER BY p) AS med, count(*)::int AS n FROM (${values}) v
    WHERE t = ANY(${targets.map((x) => x.id)}::bigint[]) AND c = ANY(${compounds.map((x) => x.strId)}::bigint[]) GROUP BY t, c`.execute(db);
  const tIndex = new Map(targets.map((x, i) => [x.id, i]));
  const cIndex = new Map(compounds.map((x, i) => [x.strId, i]));
  return {
    chart: 'heatmap',
    targets,
    compounds,
    cells: cells.map((cell) => ({ t: tIndex.get(num(cell.t))!, c: cIndex.get(num(cell.c))!, value: num(cell.med), n: cell.n })),
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
  const children = new Map<number | null, typeof rows[number][]>();
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

export async function scaffolds(db: Db, scope: TabScope, limit: number, scaffoldsOf: ScaffoldsOf, maxStructures = SCAFFOLD_MAX_STRUCTURES): Promise<ScaffoldsData> {
  const structures = sql`SELECT str_id, ${sampleRank(sql`str_id`)} AS rank FROM (${tabStructures(scope)}) d`;
  const { rows: [count] } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM (${structures}) s`.execute(db);
  const total = count?.n ?? 0;
  const isSampled = total > maxStructures;
  const { rows } = await sql<{ str_id: string | number }>`SELECT x.str_id FROM (${isSampled ? sampled(structures, total, maxStructures) : structures}) x
    JOIN structures st ON st.str_id = x.str_id ORDER BY x.str_id`.execute(db);
  const found = await scaffoldsOf(rows.map((r) => Number(r.str_id)));
  const counts = new Map<string, number>();
  for (const row of rows) {
    const scaffold = found.get(Number(row.str_id));
    if (scaffold) counts.set(scaffold, (counts.get(scaffold) ?? 0) + 1);
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, limit);
  return { chart: 'scaffolds', structures: rows.length, sampled: isSampled, scaffolds: ranked.map(([smiles, compounds]) => ({ smiles, compounds })) };
}
