import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';
import { LanePool } from './lane-pool.ts';
import { PGliteWorkerClient, PGliteWorkerDialect } from './pglite-dialect.ts';

export type DatabaseKind = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /**
   * Runs a multi-statement SQL script (migrations). PGlite's prepared-statement path refuses
   * several commands at once, so it goes through PGlite's `exec`; on a server, the simple protocol.
   */
  execScript(db: Kysely<unknown>, script: string): Promise<void>;
  /**
   * Embedded only: writes the database as an image `openDatabase({ pgliteImage })` starts from.
   * Tests build their migrated and seeded databases once and start each test's from the image.
   */
  dumpTo?(file: string): Promise<void>;
  /** Why the database can no longer answer (the embedded database's thread died), else null: health answers 503. */
  failure(): string | null;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** A PostgreSQL URL; unset means embedded PGlite. */
  url?: string | undefined;
  /** PGlite data directory; unset means in memory (tests). */
  pgliteDir?: string | undefined;
  /** In memory: start from this image (a file `dumpTo` wrote) instead of an empty database. */
  pgliteImage?: string | undefined;
  /** On a server: work inside this schema (tests give each file its own). */
  schema?: string | undefined;
  /** On a server: longest a statement may run (ms; the API sets it, imports and seeds do not). */
  statementTimeoutMs?: number | undefined;
}

/**
 * The session time zone of every connection the app opens. Days are UTC calendar days everywhere
 * (usage dashboards, trackers, subscriptions); SQL that turns dates into instants must not depend
 * on the server's or the host's default zone. The SQL names UTC explicitly as well; this setting
 * is the second line of defence, so a forgotten `AT TIME ZONE` cannot shift a day.
 */
export const APP_TIME_ZONE = 'UTC';

// Postgres `bigint` (int8) and `numeric` come back as strings by default; counts fit in a JS number.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

/** Opens the database the configuration names: a PostgreSQL server or embedded PGlite. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.url) {
    const settings = [
      // Every connection in UTC (see APP_TIME_ZONE).
      `-c TimeZone=${APP_TIME_ZONE}`,
      ...(options.schema ? [`-c search_path=${options.schema}`] : []),
      ...(options.statementTimeoutMs ? [`-c statement_timeout=${Math.round(options.statementTimeoutMs)}`] : []),
    ];
    // Four lanes of connections (db/lane-pool.ts), 12 in all.
    const pool = new LanePool({ connectionString: options.url, options: settings.join(' ') });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      kind: 'postgres',
      // A server's pool reconnects by itself; an unreachable server shows in each call's error.
      failure: () => null,
      execScript: async (conn, script) => {
        await sql.raw(script).execute(conn);
      },
      close: () => db.destroy(),
    };
  }
  if (options.pgliteDir) fs.mkdirSync(path.dirname(options.pgliteDir), { recursive: true });
  // In its own thread: a long statement must not stop the server's other requests (db/pglite-dialect.ts).
  const client = await PGliteWorkerClient.start(options.pgliteDir, options.pgliteImage);
  // PGlite takes the host's time zone; it is one session, so one SET covers every statement.
  await client.exec(`SET TimeZone TO '${APP_TIME_ZONE}'`);
  const db = new Kysely<Database>({ dialect: new PGliteWorkerDialect(client) });
  return {
    db,
    kind: 'pglite',
    failure: () => client.failure?.message ?? null,
    dumpTo: (file) => client.dumpTo(file),
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
