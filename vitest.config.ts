import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import type { TestProjectInlineConfiguration } from 'vitest/config';
import { chosenDatabases } from './scripts/test-databases.mjs';

/**
 * Unit and API tests (`*.test.ts` beside the code); browser tests live in e2e/ and run separately.
 *
 * One project per database (docs/testing.md):
 * - `pglite`: every file, on embedded PGlite; the server's URL is hidden from it, so a file that
 *   needs the server skips its suites there.
 * - `postgres` (when TEST_DATABASE_URL is set): again, on the PostgreSQL server, the files whose
 *   subject is the database, i.e. those that run over the harness's `DATABASES` or read
 *   TEST_DATABASE_URL themselves. `npm test` runs the two as separate phases.
 * `TEST_DATABASES=pglite` or `=postgres` keeps one of them (as Kysely's tests filter dialects).
 */
const INCLUDE = ['packages/**/src/**/*.test.ts', 'apps/server/**/*.test.ts', 'apps/web/src/**/*.test.{ts,tsx}', 'scripts/**/*.test.mjs'];
const SERVER_TESTS = 'apps/server';
/** A file runs on both databases when it names this (the harness's list) or reads the server's URL itself. */
const BOTH_DATABASES = /\bDATABASES\b|\bTEST_DATABASE_URL\b/;

function filesUnder(dir: string, suffix: RegExp): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...filesUnder(full, suffix));
    else if (suffix.test(entry.name)) found.push(full);
  }
  return found;
}

/** The server's test files whose subject is the database (relative paths, as vitest's include takes them). */
function databaseTestFiles(root: string): string[] {
  return filesUnder(path.join(root, SERVER_TESTS), /\.test\.ts$/)
    .filter((file) => BOTH_DATABASES.test(fs.readFileSync(file, 'utf8')))
    .map((file) => path.relative(root, file));
}

const root = import.meta.dirname;
const databases = chosenDatabases(process.env);

const projects: TestProjectInlineConfiguration[] = [];
if (databases.includes('pglite')) {
  projects.push({ test: { name: 'pglite', include: INCLUDE, env: { TEST_DATABASES: 'pglite', TEST_DATABASE_URL: '' } } });
}
if (databases.includes('postgres')) {
  projects.push({ test: { name: 'postgres', include: databaseTestFiles(root), env: { TEST_DATABASES: 'postgres' } } });
}

export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // vitest's default is one worker fewer than the cores: one on a 2-core machine. Most API tests
    // wait on a database thread, a worker pool or a timer, so two files at a time keep both cores busy
    // (docs/testing.md has the figures). `--maxWorkers=N` overrides.
    maxWorkers: 2,
    globalSetup: ['apps/server/test/global-setup.ts'],
    projects,
  },
});
