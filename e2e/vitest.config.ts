import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { E2E_WORKERS } from './support/shared-server.ts';

/**
 * Browser tests: `E2E_WORKERS` spec files at a time (support/shared-server.ts), each worker with its
 * own shared server (global setup) and one Chromium per spec file; specs that search start a server
 * of their own on a copy of a prepared database (support/seeded-server.ts).
 */
export default defineConfig({
  root: path.resolve(import.meta.dirname, '..'),
  test: {
    include: ['e2e/**/*.spec.ts'],
    globalSetup: ['e2e/support/global-setup.ts'],
    fileParallelism: E2E_WORKERS > 1,
    maxWorkers: E2E_WORKERS,
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // A retry would hide flakiness that users would also meet.
    retry: 0,
    // expect.poll's own default (1 s) is shorter than a page's answer on two busy cores: three
    // specs failed by it on a slower machine while the page showed the right thing a moment later.
    // What a user waits for is bounded by the test's timeout; a poll with its own timeout keeps it.
    expect: { poll: { timeout: 10_000 } },
    reporters: ['default'],
  },
});
