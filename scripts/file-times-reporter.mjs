// A vitest reporter writing one JSON report per run: each test file with its time (tests and hooks;
// vitest's own `json` reporter leaves the hooks out, which is where test apps and servers start),
// the time its import took, and its test counts. `npm test` passes it to every vitest run:
//
//   npx vitest run --reporter=default --reporter=./scripts/file-times-reporter.mjs
//
// It writes to KB_TEST_REPORT (default test-results/vitest-files.json); test-report.mjs reads it.
// A test file whose worker process was killed by a signal (a native crash of the runtime, not a
// failed test) is listed under `workerCrashes`: `npm test` runs such a file once more (test.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { totalsOf, workerCrashesOf } from './test-report.mjs';

const root = path.resolve(import.meta.dirname, '..');

export default class FileTimesReporter {
  /** @param {import('vitest/node').Vitest} vitest */
  onInit(vitest) {
    this.vitest = vitest;
    this.startedAt = Date.now();
  }

  /**
   * @param {ReadonlyArray<import('vitest/node').TestModule>} modules
   * @param {ReadonlyArray<unknown>} unhandledErrors
   */
  onTestRunEnd(modules, unhandledErrors = []) {
    const files = modules.map((module) => {
      const diagnostic = module.diagnostic();
      const counts = { passed: 0, failed: 0, skipped: 0 };
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed += 1;
        else if (state === 'failed') counts.failed += 1;
        else counts.skipped += 1;
      }
      // A file whose import or hooks failed has no failed test but failed all the same.
      if (module.state() === 'failed' && counts.failed === 0) counts.failed = 1;
      // `seconds`: tests and hooks, the figure vitest's default reporter prints beside the file.
      const importMs =
        diagnostic.environmentSetupDuration + diagnostic.prepareDuration + diagnostic.collectDuration + diagnostic.setupDuration;
      return {
        project: module.project.name,
        file: path.relative(root, module.moduleId),
        seconds: Math.round(diagnostic.duration) / 1000,
        importSeconds: Math.round(importMs) / 1000,
        ...counts,
      };
    });
    const totals = totalsOf(files);
    const out = process.env.KB_TEST_REPORT || path.join(root, 'test-results', 'vitest-files.json');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    const workerCrashes = workerCrashesOf(unhandledErrors).map((crash) => ({ ...crash, file: path.relative(root, crash.file) }));
    fs.writeFileSync(
      out,
      JSON.stringify(
        { seconds: (Date.now() - this.startedAt) / 1000, ...totals, files, workerCrashes, unhandledErrors: unhandledErrors.length },
        null,
        1,
      ),
    );
  }
}
