import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../src/modules/auth/demo-accounts.ts';
import { DATABASES } from './harness.ts';
import { TEST_RUN_ENV, imageFolder, openTestDatabase } from './test-databases.ts';
import type { TestDatabase } from './test-databases.ts';

const migrationFiles = fs.readdirSync(path.join(import.meta.dirname, '../src/db/migrations')).filter((f) => f.endsWith('.sql'));

/**
 * Test databases are copies of the run's template (test-databases.ts): each must hold what a fresh
 * database would, and what one test writes must reach neither the template nor another test.
 */
describe.each(DATABASES)('test databases copied from the run template on %s', (kind) => {
  const opened: TestDatabase[] = [];
  const open = async (content: Parameters<typeof openTestDatabase>[1]) => {
    const database = await openTestDatabase(kind, content);
    opened.push(database);
    return database;
  };
  afterAll(async () => {
    await Promise.all(opened.map((d) => d.close()));
  });

  const users = async (database: TestDatabase) =>
    (await database.handle.db.selectFrom('users').select('email').orderBy('email').execute()).map((r) => r.email);

  it('holds every migration and the demo users, and keeps each copy apart', async () => {
    const [a, b] = [await open({ users: true }), await open({ users: true })];
    const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(a.handle.db);
    expect(rows.map((r) => `${r.name}.sql`)).toEqual(migrationFiles.sort());
    expect(await users(a)).toEqual(DEMO_USERS.map((u) => u.email).sort());
    await a.handle.db.deleteFrom('users').where('email', '=', DEMO_USERS[0]!.email).execute();
    expect(await users(a)).toHaveLength(DEMO_USERS.length - 1);
    expect(await users(b)).toHaveLength(DEMO_USERS.length);
    const c = await open({ users: true });
    expect(await users(c)).toHaveLength(DEMO_USERS.length);
  });

  it('holds no users when none were asked for, and the demo chunks when they were', async () => {
    const empty = await open({});
    expect(await users(empty)).toEqual([]);
    const seeded = await open({ demoChunks: 1 });
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM structures`.execute(seeded.handle.db);
    expect(rows[0]?.n).toBe(1000);
  });

  it.runIf(kind === 'pglite' && process.env[TEST_RUN_ENV])(
    'starts each copy of a content from one image, built once in the run',
    async () => {
      const folder = imageFolder(process.env[TEST_RUN_ENV]!);
      const image = path.join(folder, 'pglite-u0.tar');
      const built = fs.statSync(image).mtimeMs;
      await open({ users: true });
      expect(fs.statSync(image).mtimeMs).toBe(built);
      expect(fs.readdirSync(folder).filter((f) => f.startsWith('pglite-u0'))).toEqual(['pglite-u0.tar']);
    },
  );
});
