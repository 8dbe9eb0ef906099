import { TEST_RUN_ENV, newTestRunId, removeRun } from './test-databases.ts';

/**
 * Names this vitest run, so its test processes share the run's database templates
 * (test/test-databases.ts), and removes the templates when the run ends. The test processes are
 * started after this and inherit the name from the environment.
 */
export default function setup(): () => Promise<void> {
  // Both projects (pglite, postgres) run this; the first names the run, the last one out cleans.
  const run = process.env[TEST_RUN_ENV] || newTestRunId();
  process.env[TEST_RUN_ENV] = run;
  return async () => {
    await removeRun(run);
  };
}
