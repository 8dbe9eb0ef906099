/**
 * `npm run bench -- import-release -- --file chembl.db [--database-url URL | --data-dir DIR] [--fresh]
 *    [--interrupt molecules@0.5,activities@0.5] [--update next.db] [--workers N]`
 *
 * A ChEMBL release through the command users run (`npm run import:chembl`), measured from outside
 * (issue 40): wall time of each run and of each step (the per-step lines the command prints),
 * the derived-data rebuild, the importer's peak resident memory (VmHWM of its process, RDKit
 * workers included) and PostgreSQL's (sum of the server processes' proportional set size, sampled
 * each second), and the database's size afterwards.
 *
 * `--interrupt step@fraction,...` kills the command (SIGKILL, as a power cut would) once that step
 * has read that fraction of its rows, then runs the same command again, until it completes. The
 * result says whether anything was lost (the knowledge base's counts against the counts the
 * generator reports for the file, bench/chembl-release.ts) or repeated (rows a resumed run found
 * already imported). `--update next.db` then imports the next release over it and times that.
 * `--fresh` drops and recreates the database (or empties the data folder) first.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { newestResult, writeResult } from './support/bench-kit.ts';

const REPO = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    file: { type: 'string' },
    'database-url': { type: 'string' },
    'data-dir': { type: 'string' },
    fresh: { type: 'boolean', default: false },
    interrupt: { type: 'string' },
    update: { type: 'string' },
    workers: { type: 'string' },
  },
});
if (!values.file) throw new Error('Pass --file (a ChEMBL SQLite file, e.g. made by `npm run bench -- chembl-release`)');
const file = path.resolve(values.file);
const url = values['database-url'];
const dataDir = path.resolve(values['data-dir'] ?? path.join(os.tmpdir(), 'kb-import-release'));

interface Interrupt {
  step: string;
  fraction: number;
}
const interrupts: Interrupt[] = (values.interrupt ?? '')
  .split(',')
  .filter(Boolean)
  .map((spec) => {
    const [step, fraction] = spec.split('@');
    if (!step || !fraction || !(Number(fraction) > 0 && Number(fraction) < 1))
      throw new Error(`--interrupt ${spec}: write step@fraction, e.g. molecules@0.5`);
    return { step, fraction: Number(fraction) };
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const parseNumber = (text: string) => Number(text.replaceAll(',', ''));

async function withAdmin<T>(work: (client: pg.Client, database: string) => Promise<T>, database?: string): Promise<T> {
  const target = new URL(url as string);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (database) target.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: target.toString() });
  await client.connect();
  try {
    return await work(client, name);
  } finally {
    await client.end();
  }
}

async function freshDatabase(): Promise<void> {
  if (url) {
    await withAdmin(async (client, name) => {
      await client.query(`DROP DATABASE IF EXISTS "${name.replaceAll('"', '""')}" WITH (FORCE)`);
      await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
    }, 'postgres');
  } else {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Resident kB of a process from /proc (0 when it is gone). */
function procStatus(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/**
 * Proportional set size (kB; shared buffers counted once across processes) of the PostgreSQL
 * processes that serve this import: the backends connected to its database and the server's own
 * (checkpointer, WAL writer ...: no database), not other databases' backends. Null when /proc does
 * not let us read them (a server run by another user).
 */
async function postgresPss(client: pg.Client): Promise<number | null> {
  const { rows } = await client.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database() OR datname IS NULL',
  );
  let total = 0;
  let read = 0;
  for (const { pid } of rows) {
    try {
      const match = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      total += match ? Number(match[1]) : 0;
      read++;
    } catch {
      // A backend that ended between the query and the read, or one we may not read.
    }
  }
  return read > 0 ? total : null;
}

interface StepLine {
  step: string;
  status: string;
  seconds: number;
  read: number;
  alreadyImported: number;
}
interface Run {
  file: string;
  seconds: number;
  exit: number | null;
  killedAt: string | null;
  steps: StepLine[];
  derived: Record<string, number>;
  importerPeakMb: number;
  postgresPeakMb: number | null;
  summary: {
    counts: Record<string, number>;
    complete: boolean;
    load: { kind: string; report: { changes: { entity: string; added: number; updated: number; retired: number }[] } | null };
  } | null;
}

/** One run of the import command; kills it at `interrupt` if given. */
async function runImport(release: string, interrupt: Interrupt | null): Promise<Run> {
  // Progress every second: an interrupt fires close to its fraction, even in a short step.
  const args = [
    '--import',
    'tsx',
    path.join(REPO, 'apps/server/src/cli/import-chembl.ts'),
    release,
    '--json',
    '--progress-seconds',
    '1',
    ...(url ? ['--database-url', url] : []),
    ...(values.workers ? ['--workers', values.workers] : []),
  ];
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: REPO, env: { ...process.env, DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe'] });
  const run: Run = {
    file: path.basename(release),
    seconds: 0,
    exit: null,
    killedAt: null,
    steps: [],
    derived: {},
    importerPeakMb: 0,
    postgresPeakMb: null,
    summary: null,
  };
  let stdout = '';
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
  const onLine = (line: string) => {
    const done = /^step (.+) (loaded|unreadable part) in ([\d.]+) s: read ([\d,]+);(.*)$/.exec(line);
    if (done) {
      // The keyed steps' "already imported, unchanged" (not e.g. a synonym listed twice by the release).
      const already = [...(done[5] ?? '').matchAll(/already imported(?:, unchanged)?: ([\d,]+)/g)].reduce(
        (a, m) => a + parseNumber(m[1] ?? '0'),
        0,
      );
      run.steps.push({
        step: done[1] ?? '',
        status: done[2] ?? '',
        seconds: Number(done[3]),
        read: parseNumber(done[4] ?? '0'),
        alreadyImported: already,
      });
      return;
    }
    const derived = /^(Statistics refreshed|Autocomplete terms rebuilt|Tree counts rebuilt) in ([\d.]+) s/.exec(line);
    if (derived) run.derived[derived[1] ?? ''] = Number(derived[2]);
    const progress = /step \d+\/\d+ (.+): ([\d,]+)\/([\d,]+) rows/.exec(line);
    if (
      progress &&
      interrupt &&
      !run.killedAt &&
      progress[1] === interrupt.step &&
      parseNumber(progress[2] ?? '0') >= interrupt.fraction * parseNumber(progress[3] ?? '1')
    ) {
      run.killedAt = `${interrupt.step} ${progress[2]}/${progress[3]}`;
      // Progress is reported right after a commit: wait up to a second so the kill lands mid-batch.
      setTimeout(() => child.kill('SIGKILL'), Math.random() * 1_000);
    }
    if (/^(Error|Refused)/.test(line)) console.error(line);
  };
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let finished = false;
  void exited.then(() => {
    finished = true;
  });
  const client = url ? new pg.Client({ connectionString: url }) : null;
  await client?.connect();
  try {
    while (!finished) {
      // VmHWM is the kernel's high-water mark: a peak between two samples is not missed.
      run.importerPeakMb = Math.max(run.importerPeakMb, procStatus(child.pid ?? 0, 'VmHWM') / 1024);
      const pss = client ? await postgresPss(client) : null;
      if (pss !== null) run.postgresPeakMb = Math.max(run.postgresPeakMb ?? 0, pss / 1024);
      await sleep(1_000);
    }
  } finally {
    await client?.end();
  }
  run.exit = await exited;
  run.seconds = (performance.now() - started) / 1000;
  if (run.exit === 0) run.summary = JSON.parse(stdout.slice(stdout.indexOf('{'))) as Run['summary'];
  return run;
}

/** The generator's own counts for this file (the newest bench/results/chembl-release-*.json naming it). */
function expectedCounts(release: string): Record<string, number> | null {
  type Generated = { file?: string; expectedImport?: Record<string, number> };
  const result = newestResult<Generated>('chembl-release', (r) => !!r.file && path.resolve(r.file) === release && !!r.expectedImport);
  return result?.expectedImport ?? null;
}

async function databaseMb(): Promise<number> {
  if (url)
    return withAdmin(
      async (client) => Number((await client.query('SELECT pg_database_size(current_database()) AS b')).rows[0].b) / 2 ** 20,
    );
  const walk = (dir: string): number =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .reduce((sum, e) => sum + (e.isDirectory() ? walk(path.join(dir, e.name)) : fs.statSync(path.join(dir, e.name)).size), 0);
  return walk(path.join(dataDir, 'db')) / 2 ** 20;
}

if (values.fresh) await freshDatabase();
const runs: Run[] = [];
const queue = [...interrupts];
for (;;) {
  const run = await runImport(file, queue.shift() ?? null);
  runs.push(run);
  console.error(`run ${runs.length}: ${run.seconds.toFixed(0)} s, ${run.killedAt ? `killed at ${run.killedAt}` : `exit ${run.exit}`}`);
  if (!run.killedAt) break;
}
if (runs.length !== interrupts.length + 1)
  throw new Error(`${interrupts.length - runs.length + 1} interrupt(s) never fired: the run finished before the step reached its fraction`);
const last = runs[runs.length - 1] as Run;
if (!last.summary?.complete) throw new Error(`the import did not complete (exit ${last.exit})`);
const expected = expectedCounts(file);
const counts = last.summary.counts;
const lost = expected
  ? Object.fromEntries(
      Object.entries(expected)
        .map(([k, v]) => [k, v - (counts[k] ?? 0)])
        .filter(([, d]) => d !== 0),
    )
  : null;
const repeated = runs.flatMap((r) => r.steps).reduce((a, s) => a + s.alreadyImported, 0);
const sizeMb = await databaseMb();
const update = values.update ? await runImport(path.resolve(values.update), null) : null;

const stepTable = (run: Run) =>
  Object.fromEntries(
    run.steps.map((s) => [s.step, { seconds: s.seconds, read: s.read, rowsPerSecond: Math.round(s.read / Math.max(s.seconds, 1e-3)) }]),
  );
const result = {
  bench: 'import-release',
  file,
  fileMb: Math.round(fs.statSync(file).size / 2 ** 20),
  database: url ? 'postgres' : 'pglite',
  cpus: os.availableParallelism(),
  loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
  interrupts: values.interrupt ?? null,
  runs: runs.map((r) => ({
    seconds: Math.round(r.seconds),
    killedAt: r.killedAt,
    importerPeakMb: Math.round(r.importerPeakMb),
    postgresPeakMb: r.postgresPeakMb && Math.round(r.postgresPeakMb),
  })),
  seconds: Math.round(runs.reduce((a, r) => a + r.seconds, 0)),
  steps: runs.length === 1 ? stepTable(last) : runs.map(stepTable),
  derivedSeconds: last.derived,
  importerPeakMb: Math.round(Math.max(...runs.map((r) => r.importerPeakMb))),
  postgresPeakMb: runs.some((r) => r.postgresPeakMb !== null) ? Math.round(Math.max(...runs.map((r) => r.postgresPeakMb ?? 0))) : null,
  databaseMb: Math.round(sizeMb),
  counts,
  expected,
  lost,
  repeated,
  update: update && {
    file: update.file,
    seconds: Math.round(update.seconds),
    steps: stepTable(update),
    derivedSeconds: update.derived,
    importerPeakMb: Math.round(update.importerPeakMb),
    changes: update.summary?.load.report?.changes ?? null,
    complete: update.summary?.complete ?? false,
  },
};
const out = writeResult('import-release', result);
console.log(
  `import-release: ${path.basename(file)} on ${result.database} in ${result.seconds} s over ${runs.length} run(s)` +
    ` (molecules ${stepTable(last).molecules?.rowsPerSecond ?? '-'}/s, activities ${stepTable(last).activities?.rowsPerSecond ?? '-'}/s in the last run);` +
    ` importer peak ${result.importerPeakMb} MB, PostgreSQL peak ${result.postgresPeakMb ?? '-'} MB, database ${result.databaseMb} MB;` +
    ` lost ${lost ? JSON.stringify(lost) : '(no generator counts)'}, repeated ${repeated}` +
    `${update ? `; update ${update.file} in ${Math.round(update.seconds)} s` : ''} -> ${out}`,
);
