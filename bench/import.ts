// `npm run bench -- import [--file path] [--database-url ...] [--workers n]`: imports a ChEMBL SQLite
// file (default: the real subset) into a fresh database (in-memory PGlite unless a URL is given) and
// reports rows per second. References measured in the same run, so ratios survive a noisy machine:
// reading the same SQLite rows without any writing, and RDKit alone on a sample of the structures.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { ChemPool } from '../apps/server/src/modules/knowledge-base/chem/chem-pool.ts';
import { importChembl, scanChembl } from '../apps/server/src/modules/knowledge-base/chembl/chembl-import.ts';

const DEFAULT_FILE = '/work/shared/data/chembl-subset/chembl_subset.db';
const RDKIT_SAMPLE = 2_000;

// `npm run bench -- import -- --file x.db` hands this script a literal `--` first: drop it.
const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: { file: { type: 'string', default: DEFAULT_FILE }, 'database-url': { type: 'string' }, workers: { type: 'string' } },
});
const file = values.file ?? DEFAULT_FILE;
const workers = values.workers ? Number.parseInt(values.workers, 10) : undefined;

/** RDKit throughput (full profile: InChI + fingerprints) on the first structures of the file. */
async function rdkitReference(): Promise<{ molecules: number; seconds: number }> {
  const sqlite = new Database(file, { readonly: true, fileMustExist: true });
  const smiles = sqlite
    .prepare('SELECT canonical_smiles FROM compound_structures WHERE canonical_smiles IS NOT NULL LIMIT ?')
    .pluck()
    .all(RDKIT_SAMPLE) as string[];
  sqlite.close();
  const pool = new ChemPool(workers);
  try {
    await pool.compute(['C']); // worker start-up is not throughput
    const started = performance.now();
    await pool.compute(smiles);
    return { molecules: smiles.length, seconds: (performance.now() - started) / 1000 };
  } finally {
    await pool.close();
  }
}

const scan = scanChembl(file);
const rdkit = await rdkitReference();
const handle = await openDatabase({ url: values['database-url'] });
await migrateToLatest(handle);
const summary = await importChembl(handle, file, workers === undefined ? {} : { workers });
await handle.close();

const molecules = summary.steps.find((s) => s.step === 'molecules');
const activities = summary.steps.find((s) => s.step === 'activities');
const rate = (n: number, seconds: number) => (seconds > 0 ? Math.round(n / seconds) : 0);
const result = {
  bench: 'import',
  file,
  database: handle.kind,
  cpus: os.availableParallelism(),
  loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
  seconds: Number(summary.seconds.toFixed(1)),
  rowsRead: summary.totals.read,
  rowsLoaded: summary.totals.loaded,
  rowsPerSecond: rate(summary.totals.read, summary.seconds),
  structures: molecules?.loaded.structures ?? 0,
  structuresPerSecond: rate(molecules?.loaded.structures ?? 0, molecules?.seconds ?? 0),
  moleculeStepSeconds: Number((molecules?.seconds ?? 0).toFixed(1)),
  activities: activities?.loaded.activities ?? 0,
  activitiesPerSecond: rate(activities?.loaded.activities ?? 0, activities?.seconds ?? 0),
  activityStepSeconds: Number((activities?.seconds ?? 0).toFixed(2)),
  reference: {
    sqliteReadOnly: { rows: scan.rows, seconds: Number(scan.seconds.toFixed(2)), rowsPerSecond: rate(scan.rows, scan.seconds) },
    rdkitOnly: {
      molecules: rdkit.molecules,
      seconds: Number(rdkit.seconds.toFixed(2)),
      moleculesPerSecond: rate(rdkit.molecules, rdkit.seconds),
    },
    // > 1: the import is slower than RDKit alone would be (database work not hidden behind RDKit).
    structuresVsRdkit: Number(
      (rdkit.molecules / rdkit.seconds / Math.max(1, rate(molecules?.read ?? 0, molecules?.seconds ?? 0))).toFixed(2),
    ),
    importVsReadOnly: Number((summary.seconds / Math.max(scan.seconds, 1e-3)).toFixed(1)),
  },
  counts: summary.counts,
  steps: summary.steps.map((s) => ({
    step: s.step,
    status: s.status,
    read: s.read,
    seconds: Number(s.seconds.toFixed(2)),
    loaded: s.loaded,
    skipped: s.skipped,
  })),
};
console.log(
  `import: ${result.rowsRead} rows in ${result.seconds} s = ${result.rowsPerSecond} rows/s ` +
    `(structures ${result.structuresPerSecond}/s, activities ${result.activitiesPerSecond}/s); ` +
    `reference: SQLite read only ${result.reference.sqliteReadOnly.rowsPerSecond} rows/s, RDKit only ${result.reference.rdkitOnly.moleculesPerSecond} molecules/s`,
);
const dir = path.join(import.meta.dirname, 'results');
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, `import-${Date.now()}.json`), JSON.stringify(result, null, 2));
