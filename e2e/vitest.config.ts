import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Browser tests: one real server for the whole run (global setup), one spec file at a time — the
 * CI machine has two cores and every spec drives a headless Chromium against that server.
 */
export default defineConfig({
  root: path.resolve(import.meta.dirname, '..'),
  test: {
    include: ['e2e/**/*.spec.ts'],
    globalSetup: ['e2e/support/global-setup.ts'],
    fileParallelism: false,
    maxWorkers: 1,
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // A retry would hide flakiness that users would also meet.
    retry: 0,
    reporters: ['default'],
  },
});
