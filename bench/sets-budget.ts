// `npm run bench -- sets-budget [--database-url postgres://...] [--sessions 40] [--activities 700000] [--budget-mb 512]`:
// issue 62's memory aim with the held sets' budget full. One server's search, results and chart
// services (sets held in memory, the server's default) run `--sessions` searches of about
// `--activities` activities each (bench-kit `activitySearchOfSize`; near the 750,000 cap by
// default), each in a new session, and read what a user reads first: the Activities tab's first
// page and its assay-type chart (which keeps the session's activity rows with its sets, about 15 MB
// at the cap). After each: the bytes the held sets take, how many sessions are held, the process's
// resident memory. Then the first session again — evicted by then, recomputed from its
// definition — against the last one, still held: its page and chart timed both ways (the ratio is
// the cost of an eviction). Prints one line; writes bench/results/sets-budget-*.json.
import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import { TabRequestSchema } from '@kb/contracts/results';
import { activitySearchOfSize, benchUser, openBenchDatabase, summary, time, writeResult } from './support/bench-kit.ts';
import { processMemory } from './support/process-memory.ts';
import { RdkitChemEngine } from '../apps/server/src/modules/chemistry/rdkit-engine.ts';
import { ChartService } from '../apps/server/src/modules/charts/chart-service.ts';
import { KbDictionaryCache } from '../apps/server/src/modules/knowledge-base/kb-dictionaries.ts';
import { ResultsService } from '../apps/server/src/modules/results/results-service.ts';
import { SearchService } from '../apps/server/src/modules/search/search-service.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    'database-url': { type: 'string' },
    sessions: { type: 'string', default: '40' },
    activities: { type: 'string', default: '700000' },
    'budget-mb': { type: 'string', default: '512' },
  },
});
const sessions = Number.parseInt(values.sessions ?? '40', 10);
const wanted = Number.parseInt(values.activities ?? '700000', 10);
const budgetMb = Number.parseInt(values['budget-mb'] ?? '512', 10);
const handle = await openBenchDatabase(values['database-url']);
const db = handle.db;
const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
const rssMb = () => processMemory(process.pid) ?? { rssMb: mb(process.memoryUsage().rss), peakRssMb: 0 };

const engine = new RdkitChemEngine(db);
const search = new SearchService(db, engine, {
  bitmapCounts: true,
  databaseKind: handle.kind,
  sets: 'memory',
  setsBudgetBytes: budgetMb * 2 ** 20,
});
const [columnsMs] = await time(() => search.bitmapsReady());
const dictionaries = new KbDictionaryCache(db);
const results = new ResultsService(db, search, engine, dictionaries);
const charts = new ChartService(db, results, dictionaries);
const auth = await benchUser(db, 'sets-budget-bench@bench.invalid');
const { criteria, label } = await activitySearchOfSize(db, wanted, 0.97);

/** What a user reads first of a search: the Activities tab's first page and its assay-type chart. */
async function firstLook(sessionid: string): Promise<{ pageMs: number; chartMs: number }> {
  const [pageMs] = await time(() => results.page(auth, 'activitiestab', TabRequestSchema.parse({ sessionid })));
  const [chartMs] = await time(() =>
    charts.chart(auth, {
      sessionid,
      tab: 'activitiestab',
      chartKey: 'assaytype',
      resetFlg: false,
      sortType: 'count',
      sortOrder: 'desc',
      maxCount: 10,
    }),
  );
  return { pageMs, chartMs };
}

// A first search and look, so that what every server holds anyway (columns, dictionaries) is in the baseline.
const warm = crypto.randomUUID();
await search.run(auth, warm, criteria);
await search.settled(warm);
await firstLook(warm);
const baseline = rssMb();
const ids: string[] = [];
const steps: { session: number; searchMs: number; pageMs: number; chartMs: number; heldMb: number; held: number; rssMb: number }[] = [];
let counts = null as Awaited<ReturnType<typeof search.run>> | null;
for (let i = 0; i < sessions; i++) {
  const sessionid = crypto.randomUUID();
  ids.push(sessionid);
  const [searchMs, answered] = await time(async () => {
    const answer = await search.run(auth, sessionid, criteria);
    await search.settled(sessionid);
    return answer;
  });
  counts = answered;
  const look = await firstLook(sessionid);
  const usage = search.heldUsage ?? { bytes: 0, sessions: 0 };
  steps.push({ session: i, searchMs, ...look, heldMb: mb(usage.bytes), held: usage.sessions, rssMb: rssMb().rssMb });
}
const recomputedBefore = search.setPaths.recomputed;
const last = await firstLook(ids.at(-1)!);
const evicted = await firstLook(ids[0]!);
const recomputed = search.setPaths.recomputed - recomputedBefore;
const end = rssMb();
await engine.close();

const result = {
  date: new Date().toISOString(),
  database: handle.kind,
  search: label,
  activities: counts?.actidscount ?? 0,
  sessions,
  budgetMb,
  columnsReadMs: Math.round(columnsMs),
  baselineRssMb: baseline.rssMb,
  peakRssMb: end.peakRssMb,
  endRssMb: end.rssMb,
  heldMbMax: Math.max(...steps.map((s) => s.heldMb)),
  heldSessionsAtEnd: steps.at(-1)?.held ?? 0,
  searchMs: summary(steps.map((s) => s.searchMs)),
  pageMs: summary(steps.map((s) => s.pageMs)),
  chartMs: summary(steps.map((s) => s.chartMs)),
  lastSession: { pageMs: Math.round(last.pageMs), chartMs: Math.round(last.chartMs) },
  firstSessionAgain: { pageMs: Math.round(evicted.pageMs), chartMs: Math.round(evicted.chartMs), recomputed },
  evictionCost: (evicted.pageMs + evicted.chartMs) / (last.pageMs + last.chartMs),
  steps: steps.map((s) => ({ ...s, searchMs: Math.round(s.searchMs), pageMs: Math.round(s.pageMs), chartMs: Math.round(s.chartMs) })),
};
const file = writeResult('sets-budget', result);
console.log(
  `sets-budget (${handle.kind}): ${sessions} sessions of ${label} (${result.activities} activities), budget ${budgetMb} MB; ` +
    `held at most ${result.heldMbMax} MB, ${result.heldSessionsAtEnd} sessions at the end; resident ${baseline.rssMb} MB after a first search → ` +
    `${end.rssMb} MB (peak ${end.peakRssMb} MB); first look (page + chart) of a held session ${result.lastSession.pageMs} + ${result.lastSession.chartMs} ms, ` +
    `of an evicted one ${result.firstSessionAgain.pageMs} + ${result.firstSessionAgain.chartMs} ms (${recomputed} recomputed; ×${result.evictionCost.toFixed(2)}) → ${file}`,
);
await handle.close();
