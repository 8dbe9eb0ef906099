// `npm run bench -- sar-endpoints [--database-url postgres://...] [--rounds 5] [--max-compounds 5000]`:
// a SAR table of four endpoints with three difference columns (issue 37) against the same table of
// its first endpoint alone, in the same rounds (the ratio survives a noisy machine). The search is
// the target with the most IC50 compounds that still fits one SAR view (≤ --max-compounds); the
// SAR data is its Activities tab; the further endpoints are the three other pActivity endpoints on
// which most of its compounds were measured anywhere in the knowledge base (scope knowledgeBase) —
// the anti-targets of a selectivity table. Each round builds both tables afresh (a new service,
// so the table cache does not answer); the core is the most covering suggested scaffold.
import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import type { SarEndpoint, SarTableRequest } from '@kb/contracts/sar';
import { SearchCriteriaSchema } from '@kb/contracts/search';
import { benchUser, openBenchDatabase, summary, time, writeResult } from './support/bench-kit.ts';
import { SearchService } from '../apps/server/src/modules/search/search-service.ts';
import { RdkitChemEngine } from '../apps/server/src/modules/chemistry/rdkit-engine.ts';
import { ResultsService } from '../apps/server/src/modules/results/results-service.ts';
import { SarService } from '../apps/server/src/modules/sar/sar-service.ts';
import type { ExportService } from '../apps/server/src/modules/export/export-service.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    'database-url': { type: 'string' },
    rounds: { type: 'string', default: '5' },
    'max-compounds': { type: 'string', default: '5000' },
  },
});
const rounds = Number.parseInt(values.rounds ?? '5', 10);
const maxCompounds = Number.parseInt(values['max-compounds'] ?? '5000', 10);

const handle = await openBenchDatabase(values['database-url']);
const db = handle.db;
const engine = new RdkitChemEngine(db);
const search = new SearchService(db, engine, { bitmapCounts: true, databaseKind: handle.kind });
await search.bitmapsReady();
const results = new ResultsService(db, search, engine);
// The export service is not used by tables.
const newSar = () => new SarService(db, results, engine, undefined as unknown as ExportService);
const auth = await benchUser(db, 'sar-bench@bench.invalid');

// ---- the search: the target with the most IC50 compounds, its IC50 activities up to the value
// that keeps about `--max-compounds` × 0.8 compounds (a SAR view holds at most 5,000)
// (binding assays: a series' own target, not a safety panel's such as hERG).
const { rows: targets } = await sql<{
  target_id: number;
  name: string;
  n: number;
}>`SELECT a.target_id, t.name, count(DISTINCT a.str_id)::int AS n
  FROM activities a JOIN targets t ON t.target_id = a.target_id JOIN assays s ON s.assay_id = a.assay_id
  WHERE a.str_id IS NOT NULL AND a.std_activity_type = 'IC50' AND a.micro_molarvalue IS NOT NULL AND s.assay_type = 'binding'
  GROUP BY a.target_id, t.name ORDER BY n DESC, a.target_id LIMIT 1`.execute(db);
const target = targets[0]!;
const setup = newSar();
let sessionId = '';
let setSarDataMs = 0;
let data: Awaited<ReturnType<SarService['setSarData']>> | null = null;
for (let share = Math.min(1, (maxCompounds * 0.8) / target.n); !data; share *= 0.8) {
  const { rows } = await sql<{ v: number }>`SELECT percentile_disc(${share}::float8) WITHIN GROUP (ORDER BY micro_molarvalue) AS v
    FROM activities WHERE target_id = ${target.target_id} AND std_activity_type = 'IC50' AND micro_molarvalue IS NOT NULL`.execute(db);
  const criteria = SearchCriteriaSchema.parse({
    rows: [
      { selectedOption: 'target', operator: 'AND', targets: [{ label: target.name, ids: [Number(target.target_id)] }] },
      {
        selectedOption: 'activitytypes',
        activities: [{ activityType: 'IC50', activityUom: 'uM', prefix: '<=', minValue: Number(rows[0]!.v) }],
      },
    ],
  });
  sessionId = crypto.randomUUID();
  await search.run(auth, sessionId, criteria);
  await search.settled(sessionId);
  try {
    [setSarDataMs, data] = await time(() => setup.setSarData(auth, { sessionid: sessionId, tab: 'activitiestab' }));
  } catch (error) {
    // Over the SAR view's limit: a smaller share of the activities.
    if ((error as { statusCode?: number }).statusCode !== 400) throw error;
  }
}
const first = data.endpoints.find((e) => e.targetId === Number(target.target_id) && e.activityType === 'IC50')!;
const endpoint: SarEndpoint = { targetId: first.targetId, activityType: first.activityType, scope: 'set' };
const [coresMs, suggested] = await time(() => setup.cores(auth, { sessionid: sessionId, endpoint }));
const core = suggested.cores.find((c) => c.source === 'scaffold') ?? suggested.cores[0]!;
// The further endpoints: the three pActivity endpoints of every measurement on which most compounds of the table were measured.
const single = await setup.table(auth, { sessionid: sessionId, endpoint, cores: [{ kind: core.kind, text: core.text }] });
const offered = new Set(data.measuredEndpoints.filter((e) => e.molar).map((e) => `${e.targetId}|${e.activityType}`));
const { rows: overlap } = await sql<{ target_id: number; t: string }>`SELECT target_id, std_activity_type AS t FROM activities
  WHERE str_id = ANY(${single.rows.map((r) => r.strId)}::bigint[]) AND target_id <> ${endpoint.targetId} AND target_id IS NOT NULL AND std_activity_type IS NOT NULL
  GROUP BY 1, 2 ORDER BY count(DISTINCT str_id) DESC, 1, 2`.execute(db);
const more: SarEndpoint[] = overlap
  .filter((o) => offered.has(`${o.target_id}|${o.t}`))
  .slice(0, 3)
  .map((o) => ({ targetId: Number(o.target_id), activityType: o.t, scope: 'knowledgeBase' }));
setup.close();

const one: SarTableRequest = { sessionid: sessionId, endpoint, cores: [{ kind: core.kind, text: core.text }] };
const four: SarTableRequest = { ...one, moreEndpoints: more, differences: more.map((_, i) => ({ a: 0, b: i + 1 })) };
const times = { one: [] as number[], four: [] as number[], data: [] as number[] };
let last: { rows: number; measuredOnAll: number[]; differences: number[] } | null = null;
for (let round = 0; round < rounds; round++) {
  const sar = newSar();
  const [oneMs] = await time(() => sar.table(auth, one));
  const [fourMs, table] = await time(() => sar.table(auth, four));
  const [dataMs] = await time(() => sar.data(auth, sessionId));
  sar.close();
  times.one.push(oneMs);
  times.four.push(fourMs);
  times.data.push(dataMs);
  last = {
    rows: table.rows.length,
    measuredOnAll: table.endpoints.map((_, i) => table.rows.filter((row) => row.values[i] !== null).length),
    differences: table.differences.map((_, i) => table.rows.filter((row) => row.differences[i] !== null).length),
  };
}
await engine.close();
await handle.close();

const s = { one: summary(times.one), four: summary(times.four), data: summary(times.data) };
const result = {
  date: new Date().toISOString(),
  database: handle.kind,
  target: { id: Number(target.target_id), name: target.name, ic50Compounds: target.n },
  sarData: {
    compounds: data.compounds,
    activities: data.activities,
    endpoints: data.endpoints.length,
    measuredEndpoints: data.measuredEndpoints.length,
    setSarDataMs: Math.round(setSarDataMs),
  },
  core: { text: core.text, compounds: core.compounds, suggestMs: Math.round(coresMs) },
  endpoints: [endpoint, ...more],
  last,
  timings: s,
  ratio: Number((s.four.p50 / s.one.p50).toFixed(2)),
};
const file = writeResult('sar-endpoints', result);
console.log(
  `sar-endpoints: ${target.name} (${data.compounds} compounds, ${data.activities} activities; setSarData ${Math.round(setSarDataMs)} ms with ${data.measuredEndpoints.length} endpoints of every measurement); ` +
    `${last?.rows} rows, measured on each endpoint ${last?.measuredOnAll.join(' / ')}; 4 endpoints + 3 differences p50/p95 ${s.four.p50}/${s.four.p95} ms against 1 endpoint ${s.one.p50}/${s.one.p95} ms (${result.ratio} ×); SAR data p95 ${s.data.p95} ms → ${file}`,
);
