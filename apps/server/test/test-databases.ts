import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../src/db/database.ts';
import type { DatabaseHandle, DatabaseKind } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { seedDemoUsers } from '../src/seed/demo-users.ts';
import { seedDemoKnowledgeBase } from '../src/modules/knowledge-base/demo/demo-seed.ts';
import { buildOnce, memoise } from './build-once.ts';

/**
 * Test databases built once per test run and copied for each test: migrating (31 migrations),
 * seeding the demo users (argon2) and demo chunks (about 2–5 s each), and on PGlite its own start
 * (initdb, about 3–4 s) are paid once per kind of database and per content, not once per test app.
 *
 * - PGlite: the template is an image file (PGlite's `dumpDataDir`) each test's in-memory database
 *   starts from.
 * - PostgreSQL: the template is a database; each test gets `CREATE DATABASE … TEMPLATE` (~0.1 s).
 *
 * Templates live for one run (vitest's global setup names it, test/global-setup.ts, and removes
 * them at its end): the demo data is dated relative to today, and a template kept across runs
 * would drift and outlive the code that made it. Without a run (a script importing the harness)
 * each database is built from nothing, as before.
 */

/** What a test database holds besides the schema. */
export interface DatabaseContent {
  /** The demo users of seed/demo-users.ts (one per role). */
  users?: boolean;
  /** Demo knowledge-base chunks (1,000 structures and about 11,000 activities each). */
  demoChunks?: number;
}

/** Environment variable naming the test run (set by test/global-setup.ts). */
export const TEST_RUN_ENV = 'KB_TEST_RUN';

/** A run id: time first (sortable, so stale runs can be told), then randomness; safe in a database name. */
export function newTestRunId(): string {
  return `${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}`;
}

function currentRun(): string | undefined {
  const run = process.env[TEST_RUN_ENV]?.trim();
  return run && /^[a-z0-9]+$/.test(run) ? run : undefined;
}

/** The folder of a run's PGlite images. */
export function imageFolder(run: string): string {
  return path.join(os.tmpdir(), `kb-test-${run}`);
}

/** The key of a content in file and database names: `u1` = users and one chunk, `m0` = migrated only. */
function contentKey(content: DatabaseContent): string {
  return `${content.users ? 'u' : 'm'}${content.demoChunks ?? 0}`;
}

/** Migrates, then seeds what `content` asks for: the one recipe of a fresh test database. */
async function fill(handle: DatabaseHandle, content: DatabaseContent): Promise<void> {
  await migrateToLatest(handle);
  if (content.users) await seedDemoUsers(handle.db);
  if (content.demoChunks) await seedDemoKnowledgeBase(handle, { size: 'S', maxChunks: content.demoChunks });
}

// ---------------------------------------------------------------------------------------------
// PGlite

/** Images this process has built or found, by file. */
const images = new Map<string, Promise<string>>();

/** The image file of `content` for this run, built once across the run's test processes. */
function pgliteImage(run: string, content: DatabaseContent): Promise<string> {
  const file = path.join(imageFolder(run), `pglite-${contentKey(content)}.tar`);
  return memoise(images, file, () =>
    buildOnce(file, async (partial) => {
      const handle = await openDatabase({});
      try {
        await fill(handle, content);
        await handle.dumpTo!(partial);
      } finally {
        await handle.close();
      }
    }),
  );
}

async function openPglite(content: DatabaseContent): Promise<TestDatabase> {
  const run = currentRun();
  if (!run) {
    const handle = await openDatabase({});
    await fill(handle, content);
    return { handle, close: () => handle.close() };
  }
  const handle = await openDatabase({ pgliteImage: await pgliteImage(run, content) });
  return { handle, close: () => handle.close() };
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

/** TEST_DATABASE_URL with another database name. */
export function urlOfDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** Runs statements on one short-lived connection to the server's maintenance database. */
export async function onServer<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** SQLSTATE 55006: the template had another session at that instant (a copy being made from it). */
const OBJECT_IN_USE = '55006';

/** Templates this process knows exist, by name. */
const templates = new Map<string, Promise<string>>();

/** The template database of `content` for this run, built under an advisory lock when missing. */
function postgresTemplate(url: string, run: string, content: DatabaseContent): Promise<string> {
  const name = `kb_tpl_${run}_${contentKey(content)}`;
  return memoise(templates, name, () => buildTemplateOnce(url, name, content));
}

async function buildTemplateOnce(url: string, name: string, content: DatabaseContent): Promise<string> {
  return onServer(url, async (client) => {
    // One builder per template across the run's test processes; the others wait here.
    const lockKey = Number.parseInt(crypto.createHash('sha1').update(name).digest('hex').slice(0, 8), 16);
    await client.query('SELECT pg_advisory_lock($1)', [lockKey]);
    try {
      const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount) return name;
      // Built under another name and renamed when whole: a build that dies leaves no half template.
      const building = `${name}_b`;
      await client.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${building}`);
      const handle = await openDatabase({ url: urlOfDatabase(url, building) });
      try {
        await fill(handle, content);
      } finally {
        await handle.close();
      }
      await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      return name;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [lockKey]);
    }
  });
}

async function copyDatabase(url: string, template: string, copy: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await onServer(url, (client) => client.query(`CREATE DATABASE ${copy} TEMPLATE ${template}`));
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== OBJECT_IN_USE || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * Drops a test's database once nothing is connected to it. Not with FORCE: a connection the app
 * still holds (a listener, a pool closing) would be cut with an error in the middle of other tests.
 * One still in use is left for the run's clean-up (`removeRun`), when the test processes are gone.
 */
async function dropWhenFree(url: string, name: string): Promise<void> {
  try {
    await onServer(url, (client) => client.query(`DROP DATABASE IF EXISTS ${name}`));
  } catch (error) {
    if ((error as { code?: string }).code !== OBJECT_IN_USE) throw error;
  }
}

async function openPostgres(content: DatabaseContent): Promise<TestDatabase> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('A PostgreSQL test database needs TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test).');
  const run = currentRun();
  const name = `kb_t_${run ?? `solo${newTestRunId()}`}_${crypto.randomBytes(5).toString('hex')}`;
  // In a run: a copy of its template; alone: an empty database filled here.
  if (run) await copyDatabase(url, await postgresTemplate(url, run, content), name);
  else await onServer(url, (client) => client.query(`CREATE DATABASE ${name}`));
  const handle = await openDatabase({ url: urlOfDatabase(url, name) });
  if (!run) await fill(handle, content);
  return {
    handle,
    close: async () => {
      await handle.close();
      await dropWhenFree(url, name);
    },
  };
}

// ---------------------------------------------------------------------------------------------

export interface TestDatabase {
  handle: DatabaseHandle;
  /** Closes the handle and, on a server, drops the test's database. */
  close(): Promise<void>;
}

/**
 * A migrated database of the given kind holding `content`: in memory on PGlite, a database of its
 * own on the PostgreSQL server (so test files run in parallel). Copied from the run's template.
 */
export function openTestDatabase(kind: DatabaseKind, content: DatabaseContent = {}): Promise<TestDatabase> {
  return kind === 'pglite' ? openPglite(content) : openPostgres(content);
}

/**
 * Removes a run's templates: its image folder, and on the server its template databases and any
 * test database a killed test left behind. Runs older than a day are removed too (a run that was
 * killed before its own clean-up).
 */
export async function removeRun(run: string): Promise<void> {
  const dayAgo = (Date.now() - 86_400_000).toString(36);
  fs.rmSync(imageFolder(run), { recursive: true, force: true });
  for (const folder of fs.readdirSync(os.tmpdir())) {
    const owner = /^kb-test-([a-z0-9]{8})/.exec(folder)?.[1];
    if (owner && owner < dayAgo) fs.rmSync(path.join(os.tmpdir(), folder), { recursive: true, force: true });
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  await onServer(url, async (client) => {
    const { rows } = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname ~ '^kb_(tpl|t)_[a-z0-9]+_'`);
    for (const { datname } of rows) {
      const owner = /^kb_(?:tpl|t)_([a-z0-9]+)_/.exec(datname)?.[1] ?? '';
      const stale = /^[a-z0-9]{8}/.test(owner) && owner.slice(0, 8) < dayAgo && !owner.startsWith('solo');
      if (owner === run || stale) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    }
  });
}
