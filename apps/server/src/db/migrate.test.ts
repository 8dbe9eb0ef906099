import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase } from './database.ts';
import { migrateToLatest } from './migrate.ts';

describe('migrations', () => {
  it('creates the schema on an empty embedded database and is a no-op the second time', async () => {
    const handle = await openDatabase({});
    try {
      const first = await migrateToLatest(handle);
      expect(first).toContain('0001_accounts');
      const second = await migrateToLatest(handle);
      expect(second).toEqual([]);
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from users`.execute(handle.db);
      expect(rows[0]?.n).toBe(0);
    } finally {
      await handle.close();
    }
  }, 120_000);
});

describe('migration 0016 (administration)', () => {
  it('makes organisations from the typed names but places only administrator-subscribed users in them, never self-registered evaluators', async () => {
    const partial = await fs.mkdtemp(path.join(os.tmpdir(), 'kb-migrations-'));
    const all = path.join(import.meta.dirname, 'migrations');
    for (const file of await fs.readdir(all)) if (file < '0016') await fs.copyFile(path.join(all, file), path.join(partial, file));
    const handle = await openDatabase({});
    try {
      await migrateToLatest(handle, partial);
      await sql`INSERT INTO users (email, organisation) VALUES ('client@acme.test', 'Acme'), ('evaluator@acme.test', ' acme '), ('nobody@beta.test', 'Beta')`.execute(
        handle.db,
      );
      await sql`INSERT INTO subscriptions (user_id, role_name, contract_id, end_date)
        SELECT id, CASE email WHEN 'client@acme.test' THEN 'FULL_USER' ELSE 'EVALUATE_USER' END, 'C-1', now() + interval '30 days'
        FROM users WHERE email <> 'nobody@beta.test'`.execute(handle.db);
      await migrateToLatest(handle);
      const { rows: organisations } = await sql<{ name: string }>`SELECT name FROM organisations ORDER BY name`.execute(handle.db);
      expect(organisations.map((o) => o.name)).toEqual(['Acme', 'Beta']);
      const { rows: users } = await sql<{ email: string; organisation: string | null }>`
        SELECT u.email, o.name AS organisation FROM users u LEFT JOIN organisations o ON o.id = u.organisation_id ORDER BY u.email`.execute(
        handle.db,
      );
      expect(users).toEqual([
        { email: 'client@acme.test', organisation: 'Acme' },
        { email: 'evaluator@acme.test', organisation: null },
        { email: 'nobody@beta.test', organisation: null },
      ]);
    } finally {
      await handle.close();
      await fs.rm(partial, { recursive: true, force: true });
    }
  }, 120_000);
});
