// `npm run import:chembl -- <chembl_NN.db> [--database-url postgres://...] [--batch-size 2000] [--workers n] [--restart] [--allow-mixed] [--progress-seconds s]`
// Imports a ChEMBL SQLite release into DATABASE_URL, else the embedded DB in DATA_DIR/db.
// Resumable: re-run the same command after an interruption and it continues from the last batch.
// Refuses a database that holds the synthetic demo data unless --allow-mixed is given.
// Exit codes: 0 loaded, 2 refused (not a ChEMBL release, or demo data in the database; nothing loaded),
// 3 loaded but parts of the file were unreadable.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { NotChemblFileError, importChembl } from '../modules/knowledge-base/chembl/chembl-import.ts';
import { refreshDerivedData } from '../modules/knowledge-base/derived-data.ts';
import { findDemoData, mixedDataMessage } from '../modules/knowledge-base/chembl/mixing.ts';
import { openChemblFile } from '../modules/knowledge-base/chembl/sqlite-source.ts';
import type { ImportProgress, ImportSummary } from '../modules/knowledge-base/chembl/chembl-import.ts';

const USAGE =
  'Usage: npm run import:chembl -- <chembl_NN.db> [--database-url URL] [--batch-size N] [--workers N] [--restart] [--allow-mixed] [--progress-seconds S]';

function progressBar(p: ImportProgress, startedAt: number): string {
  const width = 30;
  const fraction = p.rowsTotal > 0 ? Math.min(1, p.rowsRead / p.rowsTotal) : 0;
  const filled = Math.round(fraction * width);
  const seconds = (performance.now() - startedAt) / 1000;
  return (
    `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(100 * fraction).toFixed(0)}% ` +
    `step ${p.stepNumber}/${p.steps} ${p.step}: ${p.read.toLocaleString('en')}/${p.total.toLocaleString('en')} rows, ${seconds.toFixed(0)} s`
  );
}

function formatCounts(counts: Record<string, number>): string {
  const entries = Object.entries(counts);
  return entries.length === 0 ? '-' : entries.map(([k, v]) => `${k}: ${v.toLocaleString('en')}`).join(', ');
}

/** Human-readable summary: one block per step with read / loaded / skipped (with reasons). */
function printSummary(summary: ImportSummary): void {
  const lines = [`ChEMBL import of ${summary.file} (${summary.seconds.toFixed(1)} s)`];
  for (const s of summary.steps) {
    lines.push(`  ${s.step} [${s.status}] ${s.source} -> ${s.target}`);
    if (s.read > 0 || Object.keys(s.loaded).length > 0) {
      lines.push(`      read ${s.read.toLocaleString('en')}; loaded ${formatCounts(s.loaded)}; skipped ${formatCounts(s.skipped)}`);
    }
    if (Object.keys(s.info).length > 0) lines.push(`      note: ${formatCounts(s.info)}`);
    for (const note of s.notes) lines.push(`      ${note}`);
  }
  if (summary.missingTables.length > 0) lines.push(`Tables not in this file (skipped): ${summary.missingTables.join(', ')}`);
  for (const [table, why] of Object.entries(summary.tablesNotRead)) lines.push(`Not read: ${table} (${why})`);
  for (const warning of summary.warnings) lines.push(`WARNING: ${warning}`);
  lines.push(
    `Totals: read ${summary.totals.read.toLocaleString('en')}, loaded ${summary.totals.loaded.toLocaleString('en')}, skipped ${summary.totals.skipped.toLocaleString('en')}`,
  );
  lines.push(`Knowledge base now: ${formatCounts(summary.counts)}`);
  lines.push(...loadLines(summary));
  if (summary.complete) lines.push(`Done: dataset label "${summary.datasetLabel}".`);
  else if (summary.stopped) lines.push('Not complete: run the same command again to continue.');
  else
    lines.push(
      `Loaded what the file allows (dataset label "${summary.datasetLabel}"); a repaired or complete file can be imported on top.`,
    );
  console.log(lines.join('\n'));
}

const pct = (part: number, whole: number) => (whole > 0 ? `${((100 * part) / whole).toFixed(1)} %` : '-');

/** What changed (per entity added / updated / retired) and the data-quality summary of the load. */
function loadLines(summary: ImportSummary): string[] {
  const { load } = summary;
  if (!load.report) return [`Load ${load.loadId} (${load.kind} ${load.label}) not finished yet.`];
  const n = (v: number) => v.toLocaleString('en');
  const lines = [
    `Load ${load.loadId}: ${load.kind} to ${load.label} — what changed:`,
    '  entity               added    updated    retired      total',
  ];
  for (const c of load.report.changes) {
    lines.push(
      `  ${c.entity.padEnd(18)} ${n(c.added).padStart(8)} ${n(c.updated).padStart(10)} ${n(c.retired).padStart(10)} ${n(c.total).padStart(10)}`,
    );
  }
  const q = load.report.quality;
  if (q) {
    lines.push(
      'Data quality:',
      `  activities ${n(q.activities.total)}: with a structure ${pct(q.activities.withStructure, q.activities.total)}, ` +
        `standardised ${pct(q.activities.standardised, q.activities.total)}, unit conversions to µM ${n(q.activities.unitConversions)}`,
      `  compounds ${n(q.compounds.total)}: with a structure ${pct(q.compounds.withStructure, q.compounds.total)}`,
    );
    for (const s of q.skipped) lines.push(`  skipped in ${s.step}: ${n(s.rows)} (${s.reason})`);
  }
  for (const note of load.report.notes) lines.push(`  note: ${note}`);
  return lines;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      'database-url': { type: 'string' },
      'batch-size': { type: 'string' },
      workers: { type: 'string' },
      restart: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      'allow-mixed': { type: 'boolean', default: false },
      'progress-seconds': { type: 'string' },
    },
  });
  const file = positionals[0];
  if (!file) {
    console.error(USAGE);
    return 2;
  }
  try {
    // Refuse a wrong file before touching (or creating) the database.
    openChemblFile(file).close();
  } catch (error) {
    if (!(error instanceof NotChemblFileError)) throw error;
    console.error(`Refused: ${error.message}`);
    return 2;
  }
  const config = loadConfig();
  const url = values['database-url'] ?? config.databaseUrl;
  const handle = await openDatabase({ url, pgliteDir: url ? undefined : path.join(config.dataDir, 'db') });
  try {
    await migrateToLatest(handle);
    // Synthetic and real records side by side would look alike in every search: refuse by default.
    const demo = await findDemoData(handle.db);
    if (demo && !values['allow-mixed']) {
      console.error(mixedDataMessage(demo));
      return 2;
    }
    if (demo) console.error('Warning: importing on top of synthetic demo data (--allow-mixed).');
    const startedAt = performance.now();
    const tty = process.stderr.isTTY;
    let lastLine = 0;
    // Without a terminal (logs, CI) one line every 5 s instead of a redrawn bar, unless told otherwise.
    const every = Math.max(0, Number(values['progress-seconds'] ?? (tty ? 0 : 5)) || 0) * 1000;
    const summary = await importChembl(handle, file, {
      restart: values.restart ?? false,
      ...(values['batch-size'] ? { batchSize: Number.parseInt(values['batch-size'], 10) } : {}),
      ...(values.workers ? { workers: Number.parseInt(values.workers, 10) } : {}),
      onProgress: (p) => {
        if (performance.now() - lastLine < every) return;
        lastLine = performance.now();
        process.stderr.write(`${tty ? '\r\x1b[K' : ''}${progressBar(p, startedAt)}${tty ? '' : '\n'}`);
      },
      // A long import's log keeps what each step did, even if a later step is interrupted.
      onStepDone: (s) => {
        if (s.read === 0) return;
        process.stderr.write(
          `${tty ? '\r\x1b[K' : ''}step ${s.step} ${s.status} in ${s.seconds.toFixed(1)} s: read ${s.read.toLocaleString('en')}; ` +
            `loaded ${formatCounts(s.loaded)}; skipped ${formatCounts(s.skipped)}\n`,
        );
      },
    });
    if (tty) process.stderr.write('\n');
    await refreshDerivedData(handle.db, (m) => console.error(m));
    if (values.json) console.log(JSON.stringify(summary, null, 2));
    else printSummary(summary);
    return summary.steps.some((s) => s.status === 'unreadable part') ? 3 : 0;
  } catch (error) {
    if (error instanceof NotChemblFileError) {
      console.error(`Refused: ${error.message}`);
      return 2;
    }
    throw error;
  } finally {
    await handle.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
