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
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import type { AnalyzerChartConfig } from '@kb/contracts/analyzers';
import { distribution, heatmap, scaffolds, scatter, treemap } from '../apps/server/src/modules/analyzers/analyzer-charts.ts';
import type { TabScope } from '../apps/server/src/modules/analyzers/analyzer-scope.ts';
import { RdkitChemEngine } from '../apps/server/src/modules/chemistry/rdkit-engine.ts';
import { scaffoldsOf } from '../apps/server/src/modules/chemistry/scaffold-cache.ts';
import { openBenchDatabase, summary, writeResult } from './support/bench-kit.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    'database-url': { type: 'string' },
    activities: { type: 'string', default: '750000' },
    rounds: { type: 'string', default: '3' },
  },
});
const activities = Number.parseInt(values.activities ?? '750000', 10);
const rounds = Number.parseInt(values.rounds ?? '3', 10);

const handle = await openBenchDatabase(values['database-url']);
const db = handle.db;
const SET = -7_015_015; // negative: never a real session's set id

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
  await sql`DELETE FROM search_activities WHERE set_id = ${SET}`.execute(db);
  await sql`DELETE FROM search_structures WHERE set_id = ${SET}`.execute(db);
}

await enoughActivities();
await clear();
await sql`INSERT INTO search_activities (set_id, act_id, str_id, gvk_id, assay_id, ref_id, target_id)
  SELECT ${SET}, act_id, str_id, gvk_id, assay_id, ref_id, target_id FROM activities ORDER BY act_id LIMIT ${activities}`.execute(db);
await sql`INSERT INTO search_structures (set_id, str_id) SELECT DISTINCT ${SET}::bigint, str_id FROM search_activities WHERE set_id = ${SET}`.execute(db);
await sql`ANALYZE search_activities, search_structures`.execute(db);
const { rows: sizes } = await sql<{ acts: number; strs: number }>`SELECT (SELECT count(*)::int FROM search_activities WHERE set_id = ${SET}) AS acts,
  (SELECT count(*)::int FROM search_structures WHERE set_id = ${SET}) AS strs`.execute(db);

const engine = new RdkitChemEngine(db);
const scope = (tab: TabScope['tab']): TabScope => ({ tab, setId: SET, filtered: false });
const CHARTS: { name: string; tab: TabScope['tab']; config: AnalyzerChartConfig }[] = [
  { name: 'scatter', tab: 'activitiestab', config: { chart: 'scatter', x: 'mw', y: 'pactivity', color: 'year' } },
  { name: 'distribution', tab: 'activitiestab', config: { chart: 'distribution', measure: 'pactivity', groupBy: 'target', groups: 12 } },
  { name: 'heatmap', tab: 'activitiestab', config: { chart: 'heatmap', targets: 25, compounds: 60 } },
  { name: 'treemap', tab: 'activitiestab', config: { chart: 'treemap' } },
  { name: 'scaffolds', tab: 'activitiestab', config: { chart: 'scaffolds', limit: 12 } },
  { name: 'structureScatter', tab: 'structuretab', config: { chart: 'scatter', x: 'mw', y: 'clogp', color: 'psa' } },
];

async function draw(tab: TabScope['tab'], config: AnalyzerChartConfig): Promise<Record<string, unknown>> {
  if (config.chart === 'scaffolds') return scaffolds(db, scope(tab), config.limit, (strIds) => scaffoldsOf(db, engine, strIds));
  return db.transaction().execute(async (trx) => {
    await sql`SET LOCAL work_mem = '128MB'`.execute(trx);
    if (handle.kind !== 'pglite') await sql`SET LOCAL jit = off`.execute(trx);
    switch (config.chart) {
      case 'scatter':
        return scatter(trx, scope(tab), config);
      case 'distribution':
        return distribution(trx, scope(tab), config);
      case 'heatmap':
        return heatmap(trx, scope(tab), config);
      default:
        return treemap(trx, scope(tab));
    }
  });
}

const timings: Record<string, ReturnType<typeof summary>> = {};
const shape: Record<string, unknown> = {};
const firstCall: Record<string, number> = {};
// The chemistry workers started before timing (the server starts them at boot).
await engine.scaffolds(['c1ccccc1']);
await sql`DELETE FROM structure_scaffolds`.execute(db);
for (const chart of CHARTS) {
  const ms: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    const data = await draw(chart.tab, chart.config);
    ms.push(performance.now() - started);
    if (round === 0) {
      firstCall[chart.name] = Math.round(ms[0]!);
      shape[chart.name] = {
        points: Array.isArray(data.points) ? data.points.length : undefined,
        total: data.total,
        sampled: data.sampled,
        groups: Array.isArray(data.groups) ? data.groups.length : undefined,
        cells: Array.isArray(data.cells) ? data.cells.length : undefined,
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
const sqlCharts = ['scatter', 'distribution', 'heatmap', 'treemap'];
const result = {
  date: new Date().toISOString(),
  database: handle.kind,
  activities: sizes[0]!.acts,
  structures: sizes[0]!.strs,
  rounds,
  timings,
  firstCall,
  shape,
  activitiesBoardSqlP50Ms: Number(sqlCharts.reduce((total, name) => total + p50(name), 0).toFixed(1)),
};
const file = writeResult('analyzers', result);
console.log(
  `analyzers ${handle.kind}: ${result.activities} activities, ${result.structures} structures; p50 ms: ` +
    CHARTS.map((c) => `${c.name} ${p50(c.name)}`).join(', ') +
    ` (scaffolds: first call ${firstCall.scaffolds} ms with an empty cache, then cached)` +
    `; the four SQL charts of the Activities board together ${result.activitiesBoardSqlP50Ms} ms → ${file}`,
);
await handle.close();
