// `npm run bench -- export [--database-url postgres://...] [--rows 100000] [--formats csv,xlsx,sdf]`:
// exports of one search's Activities tab (about `--rows` activities, default 100,000 — where exports
// become background jobs) as CSV, XLSX and SDF, through the export service as the server runs them
// (rows fixed and charged, written in id batches into a database-held file). Figures: rows/s and
// file size per format. Reference in the same run: reading the same batches of rows with the same
// columns and writing nothing, so each format's cost is a ratio to the database's share.
import crypto from 'node:crypto';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import type { ExportFormat } from '@kb/contracts/exports';
import { activitySearchOfSize, benchUser, openBenchDatabase, time, writeResult } from './support/bench-kit.ts';
import { SearchService } from '../apps/server/src/modules/search/search-service.ts';
import { RdkitChemEngine } from '../apps/server/src/modules/chemistry/rdkit-engine.ts';
import { ResultsService } from '../apps/server/src/modules/results/results-service.ts';
import { exportableColumns } from '../apps/server/src/modules/export/export-columns.ts';
import { ExportService } from '../apps/server/src/modules/export/export-service.ts';
import { ExportJobRunner } from '../apps/server/src/modules/export/export-jobs.ts';
import { FileStore } from '../apps/server/src/db/file-store.ts';
import { TAB_MODELS } from '../apps/server/src/modules/results/tab-model.ts';
import { TAB_COLUMNS } from '../apps/server/src/modules/results/tab-columns.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    'database-url': { type: 'string' },
    rows: { type: 'string', default: '100000' },
    formats: { type: 'string', default: 'csv,xlsx,sdf' },
    batch: { type: 'string', default: '2000' },
  },
});
const wanted = Number.parseInt(values.rows ?? '100000', 10);
const formats = (values.formats ?? 'csv,xlsx,sdf').split(',') as ExportFormat[];
const batchRows = Number.parseInt(values.batch ?? '2000', 10);

const handle = await openBenchDatabase(values['database-url']);
const db = handle.db;

const engine = new RdkitChemEngine(db);
const search = new SearchService(db, engine);
const results = new ResultsService(db, search, engine);
const files = new FileStore(db);
const exports = new ExportService(db, results, files, (smiles) => engine.molblocks(smiles), { backgroundFromRows: 1, batchRows });
const runner = new ExportJobRunner(db, exports, { staleSeconds: 600, pollMs: 1000 });
const auth = await benchUser(db, 'export-bench@bench.invalid', 100_000_000);
const { criteria, label } = await activitySearchOfSize(db, wanted, 1.02);
const sessionId = crypto.randomUUID();
const [searchMs, counts] = await time(() => search.run(auth, sessionId, criteria));
const session = (await search.owned(auth, sessionId))!;
const tab = 'activitiestab' as const;
// The columns the grid shows by default, as a user exporting "what I see" would take.
const columns = TAB_COLUMNS[tab].filter((c) => !c.hidden && exportableColumns(tab).some((e) => e.key === c.key)).map((c) => c.key);

/** Reference: the same id batches and columns read from the database, nothing written. */
async function readOnly(): Promise<number> {
  const model = TAB_MODELS[tab];
  const values = TAB_COLUMNS[tab].filter((c) => columns.includes(c.key)).map((c) => sql`${c.value(session.set_id)} AS ${sql.ref(c.key)}`);
  const { rows: idRows } = await sql<{
    id: number;
  }>`SELECT ${model.entity} AS id FROM ${model.from(session.set_id)} WHERE ${model.where(session.set_id)} ORDER BY 1`.execute(db);
  const ids = idRows.map((r) => Number(r.id));
  const [ms] = await time(async () => {
    for (let i = 0; i < ids.length; i += batchRows) {
      await results.withWorkMem((trx) =>
        sql`SELECT ${sql.join(values)} FROM ${model.from(session.set_id)} WHERE ${model.where(session.set_id)} AND ${model.entity} = ANY(${ids.slice(i, i + batchRows)}::bigint[]) ORDER BY ${model.entity}`.execute(
          trx,
        ),
      );
    }
  });
  return ms;
}

await engine.molblocks(['C']); // workers started before any timing
const referenceMs = await readOnly();
const perFormat: Record<
  string,
  { rows: number; createMs: number; writeMs: number; rowsPerSecond: number; bytes: number; ratioToRead: number }
> = {};
for (const format of formats) {
  const [createMs, created] = await time(() => exports.create(auth, { sessionid: sessionId, tab, selection: null, format, columns }));
  const [writeMs] = await time(() => runner.runNow(created.jobId));
  const job = await exports.job(auth, created.jobId);
  if (job.status !== 'done') throw new Error(`${format} export ended ${job.status}: ${job.error}`);
  perFormat[format] = {
    rows: job.rows,
    createMs: Number(createMs.toFixed(0)),
    writeMs: Number(writeMs.toFixed(0)),
    rowsPerSecond: Math.round(job.rows / ((createMs + writeMs) / 1000)),
    bytes: job.fileSize ?? 0,
    ratioToRead: Number(((createMs + writeMs) / referenceMs).toFixed(2)),
  };
  await files.delete(job.fileId!);
}

await search.close();
await engine.close();
await handle.close();

const result = {
  bench: 'export',
  database: handle.kind,
  cpus: os.availableParallelism(),
  loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
  search: { label, activities: counts.actidscount, structures: counts.stridscount, ms: Number(searchMs.toFixed(0)) },
  columns,
  batchRows,
  reference: { readOnlyMs: Number(referenceMs.toFixed(0)) },
  formats: perFormat,
};
const file = writeResult('export', result);
console.log(
  `export on ${handle.kind}: Activities tab of "${label}" (${counts.actidscount.toLocaleString('en-US')} rows, ${columns.length} columns): ` +
    Object.entries(perFormat)
      .map(
        ([format, f]) =>
          `${format.toUpperCase()} ${f.rowsPerSecond.toLocaleString('en-US')} rows/s (${((f.createMs + f.writeMs) / 1000).toFixed(1)} s, ${(f.bytes / 1e6).toFixed(1)} MB, ×${f.ratioToRead} of read-only)`,
      )
      .join('; ') +
    `; read-only reference ${(referenceMs / 1000).toFixed(1)} s → ${file}`,
);
