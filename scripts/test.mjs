// `npm test`: every test, phase by phase, then a table of each phase's duration and one closing
// line of counts. The phases stop at the first that fails (its name is in the table). Each vitest
// run writes a per-file JSON report under test-results/ (git-ignored, file-times-reporter.mjs);
// `node scripts/test-report.mjs` lists the slowest files from them.
//
// `.ci/run` passes the times of its browser and install steps (KB_BROWSER_SECONDS, KB_INSTALL_SECONDS)
// so the table covers the whole CI run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureBrowser } from './ensure-browser.mjs';
import { chosenDatabases } from './test-databases.mjs';
import { buildWebIfNeeded } from './web-build.mjs';
import { countsOf, formatSeconds, phaseTable } from './test-report.mjs';

const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, 'test-results');
fs.mkdirSync(results, { recursive: true });

/** @type {{ name: string, seconds: number, status: 'passed' | 'failed', report?: string }[]} */
const phases = [];
// What .ci/run did before calling npm test, timed there.
for (const [name, variable] of [['browser (.ci/run)', 'KB_BROWSER_SECONDS'], ['install (npm ci)', 'KB_INSTALL_SECONDS']]) {
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

/** vitest's own output, and the per-file report (file-times-reporter.mjs). */
const REPORTERS = ['--reporter=default', `--reporter=${path.join(root, 'scripts/file-times-reporter.mjs')}`];

/** A vitest run writing its per-file report. */
function vitest(name, reportName, args) {
  const report = path.join(results, `${reportName}.json`);
  fs.rmSync(report, { force: true });
  return phase(name, 'npx', ['vitest', 'run', ...args, ...REPORTERS], {
    env: { ...process.env, KB_TEST_REPORT: report },
    report,
  });
}

function run() {
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
  if (!phase('lint', 'npm', ['run', 'lint'])) return false;
  if (!phase('typecheck', 'npm', ['run', 'typecheck'])) return false;
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

const ok = run();
console.log(`\n${phaseTable(phases)}`);
const counts = countsOf(phases.flatMap((p) => (p.report && fs.existsSync(p.report) ? [p.report] : [])));
// The closing line CI reads: "N passed, N failed" alone on a line.
console.log(`tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(ok ? 0 : 1);
