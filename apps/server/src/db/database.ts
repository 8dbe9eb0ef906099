import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Database } from './schema.ts';

export type DatabaseKind = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /**
   * Runs a multi-statement SQL script (migrations). PGlite's prepared-statement path refuses
   * several commands at once, so it goes through PGlite's `exec`; on a server, the simple protocol.
   */
  execScript(db: Kysely<unknown>, script: string): Promise<void>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** A PostgreSQL URL; unset means embedded PGlite. */
  url?: string | undefined;
  /** PGlite data directory; unset means in memory (tests). */
  pgliteDir?: string | undefined;
  /** On a server: work inside this schema (tests give each file its own). */
  schema?: string | undefined;
}

// Postgres `bigint` (int8) and `numeric` come back as strings by default; counts fit in a JS number.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

/** Opens the database the configuration names: a PostgreSQL server or embedded PGlite. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.url) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: 10,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      kind: 'postgres',
      execScript: async (conn, script) => {
        await sql.raw(script).execute(conn);
      },
      close: () => db.destroy(),
    };
  }
  if (options.pgliteDir) fs.mkdirSync(path.dirname(options.pgliteDir), { recursive: true });
  const client = await PGlite.create({
    ...(options.pgliteDir ? { dataDir: options.pgliteDir } : {}),
    parsers: { 20: (v: string) => Number.parseInt(v, 10) },
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
  return {
    db,
    kind: 'pglite',
    // PGlite is one session: inside a Kysely transaction this runs in that same transaction.
    execScript: async (_conn, script) => {
      await client.exec(script);
    },
    close: async () => {
      await db.destroy();
      if (!client.closed) await client.close();
    },
  };
}
