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
