import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { countsOf, failedOnlyByCrashes, filesOf, formatSeconds, mergeRerun, phaseTable, workerCrashesOf } from './test-report.mjs';

/** A report in the shape vitest's json reporter writes. */
function writeReport(dir, name, report) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify(report));
  return file;
}

describe('the test report of npm test', () => {
  it('prints each phase with its time and status, and a total that fails when any phase failed', () => {
    const table = phaseTable([
      { name: 'lint', seconds: 21.74, status: 'passed' },
      { name: 'unit and API on PGlite', seconds: 612, status: 'failed' },
    ]);
    const lines = table.split('\n');
    expect(lines[0]).toMatch(/^\| phase +\| +time \| status \|$/);
    expect(lines[2]).toMatch(/^\| lint +\| +21\.7 s \| passed \|$/);
    expect(lines[3]).toMatch(/^\| unit and API on PGlite \| 10 min 12 s \| failed \|$/);
    expect(lines[4]).toMatch(/^\| total +\| 10 min 34 s \| failed \|$/);
  });

  it('writes minutes with two-digit seconds', () => {
    expect(formatSeconds(59.94)).toBe('59.9 s');
    expect(formatSeconds(60)).toBe('1 min 00 s');
    expect(formatSeconds(3209.6)).toBe('53 min 30 s');
  });

  it('sums counts over reports and lists each file with its time', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-report-'));
    try {
      const a = writeReport(dir, 'vitest-pglite.json', {
        seconds: 600,
        passed: 3,
        failed: 1,
        skipped: 2,
        files: [{ project: 'pglite', file: 'apps/a.test.ts', seconds: 3.5, importSeconds: 0.4, passed: 3, failed: 1, skipped: 2 }],
      });
      const b = writeReport(dir, 'vitest-postgres.json', { seconds: 100, passed: 5, failed: 0, skipped: 1, files: [] });
      expect(countsOf([a, b])).toEqual({ passed: 8, failed: 1, skipped: 3 });
      expect(filesOf(a)).toEqual([
        {
          run: 'pglite (pglite)',
          project: 'pglite',
          file: 'apps/a.test.ts',
          seconds: 3.5,
          importSeconds: 0.4,
          passed: 3,
          failed: 1,
          skipped: 2,
        },
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('records a file whose worker process died of a signal as a crash, apart from failed tests (a real vitest run)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-crash-'));
    try {
      fs.writeFileSync(path.join(dir, 'vitest.config.mjs'), 'export default {};\n');
      fs.writeFileSync(
        path.join(dir, 'crash.test.mjs'),
        "import { it } from 'vitest';\nit('dies', () => { process.kill(process.pid, 'SIGSEGV'); });\n",
      );
      fs.writeFileSync(
        path.join(dir, 'fine.test.mjs'),
        "import { expect, it } from 'vitest';\nit('passes', () => { expect(1).toBe(1); });\n",
      );
      const report = path.join(dir, 'report.json');
      const root = path.resolve(import.meta.dirname, '..');
      const run = spawnSync(
        process.execPath,
        [
          path.join(root, 'node_modules/vitest/vitest.mjs'),
          'run',
          '--root',
          dir,
          '--pool',
          'forks',
          `--reporter=${path.join(root, 'scripts/file-times-reporter.mjs')}`,
        ],
        { cwd: root, encoding: 'utf8', env: { ...process.env, KB_TEST_REPORT: report } },
      );
      expect(run.status).not.toBe(0);
      const written = JSON.parse(fs.readFileSync(report, 'utf8'));
      expect(written.workerCrashes).toEqual([{ file: path.relative(root, path.join(dir, 'crash.test.mjs')), signal: 'SIGSEGV' }]);
      expect(written.failed).toBe(0);
      expect(failedOnlyByCrashes(written)).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds crashes in an error or its cause, only for crash signals', () => {
    const crash = (signal, file) => ({
      message: '[vitest-pool]: Worker forks emitted error.',
      cause: { message: `Worker exited unexpectedly with signal ${signal} during started state while running test file ${file}` },
    });
    expect(
      workerCrashesOf([crash('SIGSEGV', '/r/a.test.ts'), { message: 'TypeError: x is undefined' }, crash('SIGTERM', '/r/b.test.ts')]),
    ).toEqual([{ file: '/r/a.test.ts', signal: 'SIGSEGV' }]);
  });

  it('re-runs only when nothing but crashes failed, and merges the re-run into the report', () => {
    const file = (name, counts) => ({
      project: 'pglite',
      file: name,
      seconds: 1,
      importSeconds: 0.1,
      passed: 0,
      failed: 0,
      skipped: 0,
      ...counts,
    });
    const first = {
      seconds: 600,
      passed: 5,
      failed: 0,
      skipped: 20,
      files: [file('a.test.ts', { passed: 5 }), file('crashed.test.ts', { skipped: 20 })],
      workerCrashes: [{ file: 'crashed.test.ts', signal: 'SIGSEGV' }],
      unhandledErrors: 1,
    };
    expect(failedOnlyByCrashes(first)).toBe(true);
    expect(failedOnlyByCrashes({ ...first, files: [file('a.test.ts', { passed: 4, failed: 1 }), first.files[1]] })).toBe(false);
    expect(failedOnlyByCrashes({ ...first, unhandledErrors: 2 })).toBe(false);
    expect(failedOnlyByCrashes({ ...first, workerCrashes: [] })).toBe(false);
    const merged = mergeRerun(first, {
      seconds: 60,
      passed: 20,
      failed: 0,
      skipped: 0,
      files: [file('crashed.test.ts', { passed: 20 })],
      workerCrashes: [],
      unhandledErrors: 0,
    });
    expect(merged).toMatchObject({
      seconds: 660,
      passed: 25,
      failed: 0,
      skipped: 0,
      workerCrashes: [],
      unhandledErrors: 0,
      rerunAfterCrash: first.workerCrashes,
    });
    expect(merged.files.map((f) => [f.file, f.passed])).toEqual([
      ['a.test.ts', 5],
      ['crashed.test.ts', 20],
    ]);
  });

  it('passes the total when a phase was re-run after a crash and its re-run passed', () => {
    const table = phaseTable([
      { name: 'unit', seconds: 10, status: 'crash, re-run' },
      { name: 'unit: files re-run after a worker crash', seconds: 5, status: 'passed' },
    ]);
    expect(table.split('\n').at(-1)).toMatch(/^\| total +\| +15\.0 s \| passed +\|$/);
  });

  it('counts phases run side by side once, by the longest, in the total', () => {
    const table = phaseTable([
      { name: 'lint', seconds: 20, status: 'passed', group: 'lint + typecheck' },
      { name: 'typecheck', seconds: 40, status: 'passed', group: 'lint + typecheck' },
      { name: 'unit', seconds: 100, status: 'passed' },
    ]);
    const lines = table.split('\n');
    expect(lines[2]).toMatch(/^\| lint ∥ +\| +20\.0 s \| passed \|$/);
    expect(lines.at(-1)).toMatch(/^\| total +\| 2 min 20 s \| passed \|$/);
  });
});
