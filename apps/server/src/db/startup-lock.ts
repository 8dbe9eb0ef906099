import { sql } from 'kysely';
import type { DatabaseHandle } from './database.ts';

/** How often a process waiting for the lock asks again. */
const RETRY_MS = 250;

/**
 * Runs `work` while this process holds the PostgreSQL advisory lock `name`, so that of several
 * servers starting on one database only one at a time does it. For first-start seeding: two
 * processes that both read "no demo users yet" both insert them, and the second dies on the
 * unique e-mail (seen with two servers started together, docs/scaling.md).
 *
 * The lock is held by one pooled connection for the whole of `work` (a session lock, released
 * after it or when the connection ends with a crashed process); `work` itself runs on the pool.
 * The wait polls `pg_try_advisory_lock` rather than blocking in `pg_advisory_lock`, which the
 * statement timeout would cut short while another process seeds for minutes. PGlite serves one
 * process: there is no one to wait for.
 */
export async function withStartupLock<T>(database: DatabaseHandle, name: string, work: () => Promise<T>): Promise<T> {
  if (database.kind === 'pglite') return work();
  return database.db.connection().execute(async (connection) => {
    for (;;) {
      const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_lock(hashtext(${name})) AS locked`.execute(connection);
      if (rows[0]?.locked) break;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
    try {
      return await work();
    } finally {
      await sql`SELECT pg_advisory_unlock(hashtext(${name}))`.execute(connection);
    }
  });
}
