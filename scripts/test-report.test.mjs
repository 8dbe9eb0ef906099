import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { countsOf, filesOf, formatSeconds, phaseTable } from './test-report.mjs';

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
      expect(filesOf(a)).toEqual([{ run: 'pglite (pglite)', project: 'pglite', file: 'apps/a.test.ts', seconds: 3.5, importSeconds: 0.4, passed: 3, failed: 1, skipped: 2 }]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
