// `npm run bench -- analyzers [--database-url postgres://...] [--activities 750000] [--rounds 3]`:
// every default analyzer chart (issue 15; docs/sar.md "Analyzers") over a session of `--activities`
// activities. The knowledge base is the given database (demo S seeded when empty); when it holds
// fewer activities than asked, copies of its activities are added (same structures, targets,
// assays and references; marked `activity_remarks = 'bench-analyzers'`) until it has enough. A
// synthetic set (its own negative set id, removed afterwards) holds the first `--activities`
// activities and their structures. Each chart runs as the server runs it (one transaction with
// the results' work_mem and jit settings), without the session lookup (one indexed row). The
// scaffold chart reads the scaffold cache (structure_scaffolds, derived data): the bench empties it
// first, so its first round computes every scaffold (RDKit on all workers, then stored) and the
// later rounds read them back.
//
// Issue 37 adds: the heatmap reading every measurement in the knowledge base of the tab's most
// measured compounds (`heatmap`), beside the same run's old heatmap of the search rows alone
// (`heatmapSearchRows`, its SQL kept here as the reference); both again over a one-target set (the
// activities of the most measured target: the usual search, `heatmapOneTarget*`); the Structures
// tab's scatter by each structure's median pActivity on the endpoint with the most structures
// (`structurePActivityScatter` on the y axis, `structurePActivityColour` as the colour) beside the
// plain `structureScatter`, and the endpoint list (`endpointOptions`). `--charts a,b` runs only those.
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { AnalyzerChartConfig } from '@kb/contracts/analyzers';
import type { Database } from '../apps/server/src/db/schema.ts';
import {
  distribution,
  endpointOptions,
  heatmap,
  scaffolds,
  scatter,
  treemap,
} from '../apps/server/src/modules/analyzers/analyzer-charts.ts';
import { PACTIVITY_SQL, tabRows } from '../apps/server/src/modules/analyzers/analyzer-scope.ts';
import type { TabScope } from '../apps/server/src/modules/analyzers/analyzer-scope.ts';
import { RdkitChemEngine } from '../apps/server/src/modules/chemistry/rdkit-engine.ts';
import { scaffoldsOf } from '../apps/server/src/modules/chemistry/scaffold-cache.ts';
import { setTables } from '../apps/server/src/modules/results/set-source.ts';
import { openBenchDatabase, summary, writeResult } from './support/bench-kit.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    'database-url': { type: 'string' },
    activities: { type: 'string', default: '750000' },
    rounds: { type: 'string', default: '3' },
    charts: { type: 'string' },
  },
});
const only = values.charts ? new Set(values.charts.split(',').map((c) => c.trim())) : null;
const activities = Number.parseInt(values.activities ?? '750000', 10);
const rounds = Number.parseInt(values.rounds ?? '3', 10);

const handle = await openBenchDatabase(values['database-url']);
const db = handle.db;
const SET = -7_015_015; // negative: never a real session's set id
const ONE_TARGET_SET = -7_015_016; // the activities of one target: a one-target search's set

async function enoughActivities(): Promise<void> {
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM activities`.execute(db);
  let have = rows[0]!.n;
  while (have < activities) {
    const batch = Math.min(have, activities - have);
    await sql`INSERT INTO activities (str_id, assay_id, ref_id, target_id, data_source_id, std_activity_type, std_act_prefix, activity_value, standard_uom,
        micro_molarvalue, pchembl_value, activity_remarks)
      SELECT str_id, assay_id, ref_id, target_id, data_source_id, std_activity_type, std_act_prefix, activity_value * (0.5 + random()), standard_uom,
        micro_molarvalue, pchembl_value, 'bench-analyzers' FROM activities ORDER BY act_id LIMIT ${batch}`.execute(db);
    have += batch;
    console.error(`bench-analyzers: ${have} activities`);
  }
}

async function clear() {
  await sql`DELETE FROM search_activities WHERE set_id IN (${SET}, ${ONE_TARGET_SET})`.execute(db);
  await sql`DELETE FROM search_structures WHERE set_id IN (${SET}, ${ONE_TARGET_SET})`.execute(db);
}

/**
 * The heatmap as it was before issue 37 (the reference of the same run): the most measured targets
 * of the search rows, then the compounds most measured on them, cells from the search rows alone.
 */
async function heatmapSearchRows(
  trx: Kysely<Database>,
  scope: TabScope,
  config: { targets: number; compounds: number },
): Promise<Record<string, unknown>> {
  const rows = tabRows(scope);
  const values = sql`SELECT sa.target_id AS t, sa.str_id AS c, ${PACTIVITY_SQL}::float8 AS p FROM ${rows.from}
    WHERE ${rows.where} AND sa.target_id IS NOT NULL AND sa.str_id IS NOT NULL AND ${PACTIVITY_SQL} IS NOT NULL`;
  const { rows: ranked } = await sql<{ kind: 't' | 'c'; id: number }>`
    WITH v AS (SELECT * FROM (${values}) v0),
      tt AS (SELECT t, count(*) AS n FROM v GROUP BY t ORDER BY n DESC, t LIMIT ${config.targets}),
      cc AS (SELECT c, count(*) AS n FROM v JOIN tt USING (t) GROUP BY c ORDER BY n DESC, c LIMIT ${config.compounds})
    SELECT 't' AS kind, tt.t AS id, tg.name AS label, tt.n FROM tt JOIN targets tg ON tg.target_id = tt.t
    UNION ALL SELECT 'c', cc.c, st.canonical_smiles, cc.n FROM cc JOIN structures st ON st.str_id = cc.c
    ORDER BY kind DESC, n DESC, id`.execute(trx);
  const targets = ranked.filter((r) => r.kind === 't').map((r) => Number(r.id));
  const compounds = ranked.filter((r) => r.kind === 'c').map((r) => Number(r.id));
  if (!targets.length || !compounds.length) return { targets, compounds, cells: [] };
  const { rows: cells } =
    await sql`SELECT t, c, percentile_cont(0.5) WITHIN GROUP (ORDER BY p) AS med, count(*)::int AS n FROM (${values}) v
    WHERE t = ANY(${targets}::bigint[]) AND c = ANY(${compounds}::bigint[]) GROUP BY t, c`.execute(trx);
  return { targets, compounds, cells };
}

await enoughActivities();
await clear();
await sql`INSERT INTO search_activities (set_id, act_id, str_id, gvk_id, assay_id, ref_id, target_id)
  SELECT ${SET}, act_id, str_id, gvk_id, assay_id, ref_id, target_id FROM activities ORDER BY act_id LIMIT ${activities}`.execute(db);
await sql`INSERT INTO search_structures (set_id, str_id) SELECT DISTINCT ${SET}::bigint, str_id FROM search_activities WHERE set_id = ${SET}`.execute(
  db,
);
// The one-target set: every activity of the target with the most activities (a search naming it).
const {
  rows: [busiest],
} = await sql<{
  t: number;
  name: string;
}>`SELECT a.target_id AS t, min(tg.name) AS name FROM activities a JOIN targets tg ON tg.target_id = a.target_id
  GROUP BY a.target_id ORDER BY count(*) DESC LIMIT 1`.execute(db);
await sql`INSERT INTO search_activities (set_id, act_id, str_id, gvk_id, assay_id, ref_id, target_id)
  SELECT ${ONE_TARGET_SET}, act_id, str_id, gvk_id, assay_id, ref_id, target_id FROM activities WHERE target_id = ${busiest!.t}`.execute(
  db,
);
await sql`INSERT INTO search_structures (set_id, str_id) SELECT DISTINCT ${ONE_TARGET_SET}::bigint, str_id FROM search_activities WHERE set_id = ${ONE_TARGET_SET}`.execute(
  db,
);
await sql`ANALYZE search_activities, search_structures`.execute(db);
const { rows: sizes } = await sql<{
  acts: number;
  strs: number;
  one_acts: number;
}>`SELECT (SELECT count(*)::int FROM search_activities WHERE set_id = ${SET}) AS acts,
  (SELECT count(*)::int FROM search_structures WHERE set_id = ${SET}) AS strs,
  (SELECT count(*)::int FROM search_activities WHERE set_id = ${ONE_TARGET_SET}) AS one_acts`.execute(db);

const engine = new RdkitChemEngine(db);
const scope = (tab: TabScope['tab'], setId = SET): TabScope => ({ tab, setId, sets: setTables(setId), filtered: false });
// The Structures tab's endpoint with the most structures (what the web offers first).
const endpointStarted = performance.now();
const { endpoints } = await db.transaction().execute((trx) => endpointOptions(trx, scope('structuretab')));
const endpointFirstMs = Math.round(performance.now() - endpointStarted);
const top = endpoints[0]!;
const endpoint = { targetId: top.targetId, activityType: top.activityType };
type Chart = {
  name: string;
  tab: TabScope['tab'];
  config: AnalyzerChartConfig;
  setId?: number;
  run?: (trx: Kysely<Database>) => Promise<Record<string, unknown>>;
};
const ALL_CHARTS: Chart[] = [
  { name: 'scatter', tab: 'activitiestab', config: { chart: 'scatter', x: 'mw', y: 'pactivity', color: 'year', endpoint: null } },
  { name: 'distribution', tab: 'activitiestab', config: { chart: 'distribution', measure: 'pactivity', groupBy: 'target', groups: 12 } },
  { name: 'heatmap', tab: 'activitiestab', config: { chart: 'heatmap', targets: 25, compounds: 60 } },
  { name: 'treemap', tab: 'activitiestab', config: { chart: 'treemap' } },
  { name: 'scaffolds', tab: 'activitiestab', config: { chart: 'scaffolds', limit: 12 } },
  { name: 'structureScatter', tab: 'structuretab', config: { chart: 'scatter', x: 'mw', y: 'clogp', color: 'psa', endpoint: null } },
  {
    name: 'structurePActivityScatter',
    tab: 'structuretab',
    config: { chart: 'scatter', x: 'mw', y: 'pactivity', color: 'clogp', endpoint },
  },
  {
    name: 'structurePActivityColour',
    tab: 'structuretab',
    config: { chart: 'scatter', x: 'mw', y: 'clogp', color: 'pactivity', endpoint },
  },
  { name: 'endpointOptions', tab: 'structuretab', config: { chart: 'treemap' }, run: (trx) => endpointOptions(trx, scope('structuretab')) },
  {
    name: 'heatmapSearchRows',
    tab: 'activitiestab',
    config: { chart: 'heatmap', targets: 25, compounds: 60 },
    run: (trx) => heatmapSearchRows(trx, scope('activitiestab'), { targets: 25, compounds: 60 }),
  },
  { name: 'heatmap200', tab: 'activitiestab', config: { chart: 'heatmap', targets: 60, compounds: 200 } },
  { name: 'heatmapOneTarget', tab: 'activitiestab', setId: ONE_TARGET_SET, config: { chart: 'heatmap', targets: 25, compounds: 60 } },
  {
    name: 'heatmapOneTargetSearchRows',
    tab: 'activitiestab',
    setId: ONE_TARGET_SET,
    config: { chart: 'heatmap', targets: 25, compounds: 60 },
    run: (trx) => heatmapSearchRows(trx, scope('activitiestab', ONE_TARGET_SET), { targets: 25, compounds: 60 }),
  },
];
const CHARTS = ALL_CHARTS.filter((c) => !only || only.has(c.name));

async function draw({ tab, config, setId, run }: Chart): Promise<Record<string, unknown>> {
  if (config.chart === 'scaffolds') return scaffolds(db, scope(tab, setId), config.limit, (strIds) => scaffoldsOf(db, engine, strIds));
  return db.transaction().execute(async (trx) => {
    await sql`SET LOCAL work_mem = '128MB'`.execute(trx);
    if (handle.kind !== 'pglite') await sql`SET LOCAL jit = off`.execute(trx);
    if (run) return run(trx);
    switch (config.chart) {
      case 'scatter':
        return scatter(trx, scope(tab, setId), config);
      case 'distribution':
        return distribution(trx, scope(tab, setId), config);
      case 'heatmap':
        return heatmap(trx, scope(tab, setId), config);
      default:
        return treemap(trx, scope(tab, setId));
    }
  });
}

const timings: Record<string, ReturnType<typeof summary>> = {};
const shape: Record<string, unknown> = {};
const firstCall: Record<string, number> = {};
// The chemistry workers started before timing (the server starts them at boot).
if (CHARTS.some((c) => c.config.chart === 'scaffolds')) {
  await engine.scaffolds(['c1ccccc1']);
  await sql`DELETE FROM structure_scaffolds`.execute(db);
}
for (const chart of CHARTS) {
  const ms: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    const data = await draw(chart);
    ms.push(performance.now() - started);
    if (round === 0) {
      firstCall[chart.name] = Math.round(ms[0]!);
      shape[chart.name] = {
        points: Array.isArray(data.points) ? data.points.length : undefined,
        total: data.total,
        sampled: data.sampled,
        groups: Array.isArray(data.groups) ? data.groups.length : undefined,
        cells: Array.isArray(data.cells) ? data.cells.length : undefined,
        targets: Array.isArray(data.targets) ? data.targets.length : undefined,
        compounds: Array.isArray(data.compounds) ? data.compounds.length : undefined,
        // The old-style reference answers target ids only (no marks).
        targetsInSearch:
          Array.isArray(data.targets) && typeof data.targets[0] === 'object'
            ? (data.targets as { inSearch?: boolean }[]).filter((t) => t.inSearch).length
            : undefined,
        missing: data.missing,
        colorMissing: data.colorMissing,
        endpoints: Array.isArray(data.endpoints) ? data.endpoints.length : undefined,
        structures: data.structures,
      };
    }
  }
  // The scaffold chart's first round fills the cache: its p50 is of the later (cached) rounds.
  timings[chart.name] = summary(chart.config.chart === 'scaffolds' && ms.length > 1 ? ms.slice(1) : ms);
}
await clear();
await engine.close();

const p50 = (name: string) => timings[name]?.p50 ?? 0;
const sqlCharts = ['scatter', 'distribution', 'heatmap', 'treemap'].filter((name) => timings[name]);
const ratio = (name: string, reference: string) =>
  timings[name] && timings[reference] ? Number((p50(name) / Math.max(0.1, p50(reference))).toFixed(2)) : undefined;
const result = {
  date: new Date().toISOString(),
  database: handle.kind,
  activities: sizes[0]!.acts,
  structures: sizes[0]!.strs,
  oneTargetSet: { target: busiest!.name, activities: sizes[0]!.one_acts },
  endpoint: { ...endpoint, targetName: top.targetName, structures: top.structures, firstCallMs: endpointFirstMs },
  rounds,
  timings,
  firstCall,
  shape,
  activitiesBoardSqlP50Ms: Number(sqlCharts.reduce((total, name) => total + p50(name), 0).toFixed(1)),
  // The new charts against the same run's old-style ones.
  ratios: {
    heatmapToSearchRows: ratio('heatmap', 'heatmapSearchRows'),
    heatmapOneTargetToSearchRows: ratio('heatmapOneTarget', 'heatmapOneTargetSearchRows'),
    structurePActivityScatterToPlain: ratio('structurePActivityScatter', 'structureScatter'),
    structurePActivityColourToPlain: ratio('structurePActivityColour', 'structureScatter'),
  },
};
const file = writeResult('analyzers', result);
console.log(
  `analyzers ${handle.kind}: ${result.activities} activities, ${result.structures} structures; p50 ms: ` +
    CHARTS.map((c) => `${c.name} ${p50(c.name)}`).join(', ') +
    (firstCall.scaffolds !== undefined ? ` (scaffolds: first call ${firstCall.scaffolds} ms with an empty cache, then cached)` : '') +
    `; endpoint ${top.targetName} · ${top.activityType} (${top.structures} structures); one-target set ${busiest!.name}, ${sizes[0]!.one_acts} activities` +
    `; ratios ${JSON.stringify(result.ratios)}` +
    `; the four SQL charts of the Activities board together ${result.activitiesBoardSqlP50Ms} ms → ${file}`,
);
await handle.close();
