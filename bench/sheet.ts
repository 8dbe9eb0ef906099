// `npm run bench -- sheet [--database-url postgres://...] [--compounds 10000] [--endpoints 10] [--rounds 3] [--read memory|database]`:
// the compound × endpoint sheet (issue 59) of `--compounds` compounds × `--endpoints` endpoints.
// The compounds are those measured on the most measured targets (so the columns are filled as a
// project's are), taken as an id list. Per round, on a fresh service (nothing kept): the endpoint
// suggestions, the first page (cold: every column read and aggregated), then a sort by every
// column and a later page (warm: columns kept). Reference in the same rounds: the sheet's own read
// of the same measurements from the database, nothing computed; the ratio survives a noisy machine.
// `--read memory` (the default, as a server with the bitmap engine runs): the measurements come from
// the knowledge base's columns in memory, read once before the rounds (that time is reported apart);
// `--read database`: from PostgreSQL, as while the columns are being read.
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import type { SheetEndpoint, SheetRequest } from '@kb/contracts/sheet';
import { SheetRequestSchema } from '@kb/contracts/sheet';
import { benchUser, openBenchDatabase, summary, writeResult } from './support/bench-kit.ts';
import { SheetService } from '../apps/server/src/modules/sheet/sheet-service.ts';
import { CompoundSources } from '../apps/server/src/modules/workspace/compound-source.ts';
import { endpointMeasurements } from '../apps/server/src/modules/sheet/sheet-queries.ts';
import { loadKbColumns } from '../apps/server/src/modules/search/bitmaps/kb-columns.ts';
import { loadsVersion } from '../apps/server/src/modules/knowledge-base/kb-loads.ts';
import type { ResultsService } from '../apps/server/src/modules/results/results-service.ts';
import type { ExportService } from '../apps/server/src/modules/export/export-service.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    'database-url': { type: 'string' },
    compounds: { type: 'string', default: '10000' },
    endpoints: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    read: { type: 'string', default: 'memory' },
  },
});
const wanted = Number.parseInt(values.compounds ?? '10000', 10);
const endpointCount = Number.parseInt(values.endpoints ?? '10', 10);
const rounds = Number.parseInt(values.rounds ?? '3', 10);

const handle = await openBenchDatabase(values['database-url']);
const db = handle.db;
const auth = await benchUser(db, 'sheet-bench@bench.invalid');
if (values.read !== 'memory' && values.read !== 'database') throw new Error('--read is memory or database');
const columnsStarted = performance.now();
const columns = values.read === 'memory' ? (await loadKbColumns(db, await loadsVersion(db))).columns : null;
const columnsReadMs = Math.round(performance.now() - columnsStarted);
// An id list needs neither a search session nor an export: those services are not used.
const newSheet = () =>
  new SheetService(
    db,
    new CompoundSources(db, undefined as unknown as ResultsService, () => Promise.resolve(columns?.allStructures ?? null)),
    undefined as unknown as ExportService,
    () => Promise.resolve(columns),
  );

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const value = await fn();
  return [performance.now() - started, value];
}

// ---- the compounds: those measured on the 2 × `endpoints` most measured targets, most measured first.
const { rows: picked } = await sql<{ str_id: number }>`WITH top AS (
    SELECT target_id FROM activities WHERE target_id IS NOT NULL GROUP BY target_id ORDER BY count(*) DESC LIMIT ${endpointCount * 2})
  SELECT a.str_id FROM activities a JOIN top USING (target_id)
  GROUP BY a.str_id ORDER BY count(*) DESC, a.str_id LIMIT ${wanted}`.execute(db);
const strIds = picked.map((row) => Number(row.str_id));
const source = { kind: 'ids' as const, strIds };

const times = { suggest: [] as number[], first: [] as number[], sort: [] as number[], later: [] as number[], reference: [] as number[] };
let endpoints: SheetEndpoint[] = [];
let last: { rowCount: number; withValue: number[] } | null = null;
for (let round = 0; round < rounds; round++) {
  const sheet = newSheet();
  const [suggestMs, suggested] = await time(() => sheet.suggest(auth, source));
  endpoints = suggested.targets.slice(0, endpointCount).map((option) => option.endpoint);
  const request = (extra: Partial<SheetRequest>): SheetRequest => SheetRequestSchema.parse({ source, endpoints, ...extra });
  const [firstMs, first] = await time(() => sheet.page(auth, request({})));
  const sorts: number[] = [];
  for (const column of [...endpoints.map((_, i) => `e${i}`), 'mw', 'clogp']) {
    const [ms] = await time(() => sheet.page(auth, request({ sort: { column, direction: round % 2 ? 'asc' : 'desc' } })));
    sorts.push(ms);
  }
  const [laterMs] = await time(() => sheet.page(auth, request({ sort: { column: 'e0', direction: 'desc' }, page: 20 })));
  // The floor: the same measurements read once by the sheet's own query, with nothing computed.
  const [referenceMs] = await time(() =>
    endpointMeasurements(
      db,
      [...strIds].sort((a, b) => a - b),
      endpoints,
    ),
  );
  times.suggest.push(suggestMs);
  times.first.push(firstMs);
  times.sort.push(Math.max(...sorts));
  times.later.push(laterMs);
  times.reference.push(referenceMs);
  last = { rowCount: first.rowCount, withValue: first.columns.map((c) => c.withValue) };
}
await handle.close();

const s = {
  suggest: summary(times.suggest),
  first: summary(times.first),
  slowestSort: summary(times.sort),
  later: summary(times.later),
  reference: summary(times.reference),
};
const result = {
  date: new Date().toISOString(),
  database: handle.kind,
  read: values.read,
  columnsReadMs: columns ? columnsReadMs : null,
  compounds: strIds.length,
  endpoints,
  last,
  timings: s,
  ratioFirstToReference: Number((s.first.p50 / Math.max(1, s.reference.p50)).toFixed(2)),
};
const file = writeResult('sheet', result);
console.log(
  `sheet: ${strIds.length} compounds × ${endpoints.length} endpoints (${last?.withValue.join(' / ')} with a value); ` +
    `measurements from ${values.read}${columns ? ` (columns read once in ${columnsReadMs} ms)` : ''}; suggest p50 ${s.suggest.p50} ms; first page p50/max ${s.first.p50}/${s.first.max} ms (${result.ratioFirstToReference} × the read of its measurements alone, ${s.reference.p50} ms); ` +
    `slowest sort of ${endpoints.length + 2} columns p50/max ${s.slowestSort.p50}/${s.slowestSort.max} ms; page 20 ${s.later.p50} ms → ${file}`,
);
