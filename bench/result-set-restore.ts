// `npm run bench -- result-set-restore [--database-url postgres://...] [--activities 200000]`:
// issue 59's aim that restoring a saved result set lands on the same counts and filtered rows as
// when it was saved. A search of about `--activities` activities and two chart filters on its
// Activities tab (the most frequent assay type, the upper half of the years), as bench/results.ts
// builds them; the page is saved as a result set (workspace/result-sets-service.ts) with its
// criteria, filters, counts and filtered counts; then, on a new search service (a server that never
// ran the search) and a new session, the state is read back and restored as the web app restores
// it: the criteria run again and the filters applied. Compared: the six counts, the filtered row
// count and the first page's rows (ids, in order). Timed: the search, the filters, the restore.
import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import { TabRequestSchema } from '@kb/contracts/results';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { ResultSetStateSchema } from '@kb/contracts/workspace';
import { activitySearchOfSize, benchUser, openBenchDatabase, time, writeResult } from './support/bench-kit.ts';
import { RdkitChemEngine } from '../apps/server/src/modules/chemistry/rdkit-engine.ts';
import { ChartService } from '../apps/server/src/modules/charts/chart-service.ts';
import { KbDictionaryCache } from '../apps/server/src/modules/knowledge-base/kb-dictionaries.ts';
import { ResultsService } from '../apps/server/src/modules/results/results-service.ts';
import { SearchService } from '../apps/server/src/modules/search/search-service.ts';
import { ResultSetsService } from '../apps/server/src/modules/workspace/result-sets-service.ts';
import { WorkspaceSharing } from '../apps/server/src/modules/workspace/workspace-sharing.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: { 'database-url': { type: 'string' }, activities: { type: 'string', default: '200000' } },
});
const wanted = Number.parseInt(values.activities ?? '200000', 10);
const handle = await openBenchDatabase(values['database-url']);
const db = handle.db;
const TAB: ResultTabKey = 'activitiestab';

/** A server's search and results services (the bitmap engine's columns read first). */
async function server() {
  const engine = new RdkitChemEngine(db);
  const search = new SearchService(db, engine, { bitmapCounts: true, databaseKind: handle.kind });
  const [readMs] = await time(() => search.bitmapsReady());
  const dictionaries = new KbDictionaryCache(db);
  const results = new ResultsService(db, search, engine, dictionaries);
  return { engine, search, results, charts: new ChartService(db, results, dictionaries), readMs };
}

const auth = await benchUser(db, 'restore-bench@bench.invalid');
const { criteria, label } = await activitySearchOfSize(db, wanted, 0.97);
const first = await server();
const saving = crypto.randomUUID();
const [searchMs, counts] = await time(async () => {
  const answered = await first.search.run(auth, saving, criteria);
  await first.search.settled(saving);
  return answered;
});
const chart = (sessionid: string, chartKey: string) =>
  first.charts.chart(auth, { sessionid, tab: TAB, chartKey, resetFlg: false, sortType: 'count', sortOrder: 'desc', maxCount: 10 });
const assayType = (await chart(saving, 'assaytype')).chartData[0]!;
const years = await chart(saving, 'year');
const filters = [
  { chartKey: 'assaytype', include: [assayType.id] },
  { chartKey: 'year', minValue: Math.round(((years.min ?? 2000) + (years.max ?? 2020)) / 2), maxValue: years.max ?? 2020 },
];
const [filterMs, applied] = await time(() => first.results.applyFilters(auth, TAB, saving, filters));
const pageIds = async (results: ResultsService, sessionid: string) => {
  const page = await results.page(auth, TAB, TabRequestSchema.parse({ sessionid }));
  return (page?.data ?? []).map((row) => Number(row.act_id));
};
const savedPage = await pageIds(first.results, saving);
const resultSets = new ResultSetsService(db, new WorkspaceSharing(db));
const [saveMs, saved] = await time(() =>
  resultSets.save(auth, {
    name: `restore bench ${new Date().toISOString()}`,
    description: '',
    state: ResultSetStateSchema.parse({
      tab: TAB,
      criteria,
      summary: label,
      filters: applied.filters,
      counts,
      filteredCounts: { [TAB]: applied.rowCount },
    }),
  }),
);
await first.engine.close();

// Restored on a server that never ran the search, in a new session: read the state, run its criteria, apply its filters.
const second = await server();
const restoring = crypto.randomUUID();
const [restoreMs, restored] = await time(async () => {
  const detail = await resultSets.get(auth, saved.id);
  const again = await second.search.run(auth, restoring, detail.state.criteria);
  await second.search.settled(restoring);
  const filtered = await second.results.applyFilters(auth, TAB, restoring, detail.state.filters);
  return { detail, counts: again, rowCount: filtered.rowCount };
});
const restoredPage = await pageIds(second.results, restoring);
await resultSets.delete(auth, saved.id);
await second.engine.close();

// Key by key: the stored state's counts come back in the contract's key order.
const savedCounts = (restored.detail.state.counts ?? {}) as Record<string, number>;
const sameCounts = Object.entries(restored.counts as Record<string, number>).every(([key, n]) => savedCounts[key] === n);
const sameFiltered = restored.rowCount === restored.detail.state.filteredCounts?.[TAB];
const samePage = JSON.stringify(restoredPage) === JSON.stringify(savedPage);
const result = {
  date: new Date().toISOString(),
  database: handle.kind,
  search: label,
  counts,
  restoredCounts: restored.counts,
  filters,
  filteredRows: applied.rowCount,
  kbVersionUnchanged: restored.detail.kbVersion === restored.detail.currentKbVersion,
  sameCounts,
  sameFilteredRows: sameFiltered,
  sameFirstPage: samePage,
  firstPageRows: savedPage.length,
  timingsMs: {
    columnsRead: [Math.round(first.readMs), Math.round(second.readMs)],
    search: Math.round(searchMs),
    applyFilters: Math.round(filterMs),
    save: Math.round(saveMs),
    restore: Math.round(restoreMs),
  },
};
const file = writeResult('result-set-restore', result);
console.log(
  `result-set-restore (${handle.kind}): ${label}; ${counts.actidscount} activities, ${applied.rowCount} after 2 filters; ` +
    `restored on a new server: counts ${sameCounts ? 'equal' : 'DIFFER'}, filtered rows ${sameFiltered ? 'equal' : 'DIFFER'}, first page ${samePage ? 'equal' : 'DIFFERS'} (${savedPage.length} rows); ` +
    `search ${result.timingsMs.search} ms, filters ${result.timingsMs.applyFilters} ms, save ${result.timingsMs.save} ms, restore ${result.timingsMs.restore} ms → ${file}`,
);
await handle.close();
if (!sameCounts || !sameFiltered || !samePage) process.exitCode = 1;
