// `npm test`: every test, phase by phase, then a table of each phase's duration and one closing
// line of counts. The phases stop at the first that fails (its name is in the table). Each vitest
// run writes a per-file JSON report under test-results/ (git-ignored, file-times-reporter.mjs);
// `node scripts/test-report.mjs` lists the slowest files from them.
//
// `.ci/run` passes the times of its browser and install steps (KB_BROWSER_SECONDS, KB_INSTALL_SECONDS)
// so the table covers the whole CI run.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureBrowser } from './ensure-browser.mjs';
import { chosenDatabases } from './test-databases.mjs';
import { buildWebIfNeeded } from './web-build.mjs';
import { countsOf, failedOnlyByCrashes, formatSeconds, mergeRerun, phaseTable } from './test-report.mjs';

const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, 'test-results');
fs.mkdirSync(results, { recursive: true });

/** @type {{ name: string, seconds: number, status: 'passed' | 'failed', report?: string }[]} */
const phases = [];
// What .ci/run did before calling npm test, timed there.
for (const [name, variable] of [
  ['browser (.ci/run)', 'KB_BROWSER_SECONDS'],
  ['install (npm ci)', 'KB_INSTALL_SECONDS'],
]) {
  const seconds = Number(process.env[variable]);
  if (Number.isFinite(seconds) && seconds > 0) phases.push({ name, seconds, status: 'passed' });
}

/** Runs one phase's command; false when it failed. */
function phase(name, command, args, options = {}) {
  console.log(`\n=== ${name} ===`);
  const started = performance.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  const seconds = (performance.now() - started) / 1000;
  const status = result.status === 0 ? 'passed' : 'failed';
  if (result.error) console.error(`${name}: could not start ${command}: ${result.error.message}`);
  phases.push({ name, seconds, status, ...(options.report ? { report: options.report } : {}) });
  console.log(`=== ${name}: ${status} in ${formatSeconds(seconds)} ===`);
  return status === 'passed';
}

/**
 * Phases that need no other at the same time, run side by side (lint is mostly one core, tsc -b
 * one core): each one's output is printed whole when it ends, so the two never interleave.
 * Each row of the table is that phase's own time. True when all passed.
 */
async function phasesAtOnce(list) {
  const group = list.map((p) => p.name).join(' + ');
  console.log(`\n=== ${list.map((p) => p.name).join(' and ')}, side by side ===`);
  const outcomes = await Promise.all(
    list.map(
      ({ name, command, args }) =>
        new Promise((resolve) => {
          const started = performance.now();
          const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
          const output = [];
          child.stdout.on('data', (chunk) => output.push(chunk));
          child.stderr.on('data', (chunk) => output.push(chunk));
          const end = (status, error) => {
            const seconds = (performance.now() - started) / 1000;
            process.stdout.write(`\n--- ${name} ---\n${Buffer.concat(output).toString()}`);
            if (error) console.error(`${name}: could not start ${command}: ${error.message}`);
            console.log(`=== ${name}: ${status} in ${formatSeconds(seconds)} ===`);
            resolve({ name, seconds, status, group });
          };
          child.on('error', (error) => end('failed', error));
          child.on('close', (code) => end(code === 0 ? 'passed' : 'failed'));
        }),
    ),
  );
  phases.push(...outcomes);
  return outcomes.every((o) => o.status === 'passed');
}

/** vitest's own output, and the per-file report (file-times-reporter.mjs). */
const REPORTERS = ['--reporter=default', `--reporter=${path.join(root, 'scripts/file-times-reporter.mjs')}`];

/**
 * A vitest run writing its per-file report. When the run failed only because a worker process died
 * of a native crash (SIGSEGV and the like: the runtime's, seen once in CI in WebAssembly-heavy
 * files, never reproduced in hundreds of runs) and no test failed, the crashed files run once more
 * and their second result counts; the crash stays in the log, the table and the report. A test
 * that fails is never run again.
 */
function vitest(name, reportName, args) {
  const report = path.join(results, `${reportName}.json`);
  fs.rmSync(report, { force: true });
  const env = { ...process.env, KB_TEST_REPORT: report };
  if (phase(name, 'npx', ['vitest', 'run', ...args, ...REPORTERS], { env, report })) return true;
  const first = fs.existsSync(report) ? JSON.parse(fs.readFileSync(report, 'utf8')) : null;
  if (!first || !failedOnlyByCrashes(first)) return false;
  const crashed = [...new Set(first.workerCrashes.map((c) => c.file))];
  console.log(
    `\n${name}: no test failed, but the worker of ${crashed.length} file(s) crashed: ${first.workerCrashes.map((c) => `${c.file} (${c.signal})`).join(', ')}. Running them once more.`,
  );
  const rerunReport = path.join(results, `${reportName}-rerun.json`);
  fs.rmSync(rerunReport, { force: true });
  const ok = phase(`${name}: files re-run after a worker crash`, 'npx', ['vitest', 'run', ...args, ...crashed, ...REPORTERS], {
    env: { ...env, KB_TEST_REPORT: rerunReport },
  });
  if (fs.existsSync(rerunReport)) {
    fs.writeFileSync(report, JSON.stringify(mergeRerun(first, JSON.parse(fs.readFileSync(rerunReport, 'utf8'))), null, 1));
    fs.rmSync(rerunReport, { force: true });
  }
  if (ok) {
    // The first run's row stays "failed" in the table only for the crash: mark it as such.
    const firstRow = phases.findLast((p) => p.name === name);
    if (firstRow) firstRow.status = 'crash, re-run';
  }
  return ok;
}

async function run() {
  let browser;
  const started = performance.now();
  try {
    browser = ensureBrowser();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    phases.push({ name: 'browser (find or install)', seconds: (performance.now() - started) / 1000, status: 'failed' });
    return false;
  }
  phases.push({ name: 'browser (find or install)', seconds: (performance.now() - started) / 1000, status: 'passed' });
  const checked = await phasesAtOnce([
    { name: 'lint', command: 'npm', args: ['run', 'lint'] },
    { name: 'typecheck', command: 'npm', args: ['run', 'typecheck'] },
  ]);
  if (!checked) return false;
  const databases = chosenDatabases(process.env);
  if (databases.includes('pglite') && !vitest('unit and API on PGlite', 'vitest-pglite', ['--project', 'pglite'])) return false;
  if (databases.includes('postgres')) {
    if (!vitest('API on PostgreSQL', 'vitest-postgres', ['--project', 'postgres'])) return false;
  } else if (!process.env.TEST_DATABASE_URL?.trim()) {
    console.log('\nTEST_DATABASE_URL is not set: the database tests ran on embedded PGlite only.');
  }
  const building = performance.now();
  try {
    buildWebIfNeeded();
    phases.push({ name: 'web app build (when stale)', seconds: (performance.now() - building) / 1000, status: 'passed' });
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    phases.push({ name: 'web app build (when stale)', seconds: (performance.now() - building) / 1000, status: 'failed' });
    return false;
  }
  // The e2e runner hands vitest the browser found above.
  const e2eReport = path.join(results, 'vitest-e2e.json');
  fs.rmSync(e2eReport, { force: true });
  return phase('browser tests', process.execPath, [path.join(root, 'scripts/run-e2e.mjs'), ...REPORTERS], {
    env: { ...process.env, CHROMIUM_PATH: browser, KB_TEST_REPORT: e2eReport },
    report: e2eReport,
  });
}

const ok = await run();
console.log(`\n${phaseTable(phases)}`);
const counts = countsOf(phases.flatMap((p) => (p.report && fs.existsSync(p.report) ? [p.report] : [])));
// The closing line CI reads: "N passed, N failed" alone on a line.
console.log(`tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(ok ? 0 : 1);
