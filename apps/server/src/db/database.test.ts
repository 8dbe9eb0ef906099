import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { APP_TIME_ZONE, openDatabase } from './database.ts';
import type { DatabaseHandle } from './database.ts';

/*
 * Every connection the app opens works in UTC, whatever the host's or the server's default zone:
 * SQL that turns a date into an instant (a day's bounds) must not shift by the session's offset.
 */

const timeZone = async (db: DatabaseHandle['db']) =>
  (await sql<{ tz: string }>`SELECT current_setting('TimeZone') AS tz`.execute(db)).rows[0]?.tz;
/** The instant a date's midnight becomes when the session converts it itself (no explicit zone). */
const midnight = async (db: DatabaseHandle['db']) =>
  (await sql<{ t: string }>`SELECT to_char('2026-01-05'::date::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS t`.execute(db))
    .rows[0]?.t;

describe('database sessions', () => {
  let handle: DatabaseHandle | undefined;
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
  });

  it('embedded PGlite works in UTC even on a host in another time zone', async () => {
    const hostZone = process.env.TZ;
    // PGlite takes its default zone from the host's when it starts.
    process.env.TZ = 'America/New_York';
    try {
      handle = await openDatabase({});
    } finally {
      if (hostZone === undefined) delete process.env.TZ;
      else process.env.TZ = hostZone;
    }
    expect(await timeZone(handle.db)).toBe(APP_TIME_ZONE);
    expect(await midnight(handle.db)).toBe('2026-01-05T00:00');
  }, 60_000);

  it.runIf(process.env.TEST_DATABASE_URL)('every connection of a PostgreSQL pool works in UTC', async () => {
    handle = await openDatabase({ url: process.env.TEST_DATABASE_URL });
    const db = handle.db;
    // Several connections at once (each statement holds its own while it sleeps).
    const zones = await Promise.all(
      Array.from(
        { length: 4 },
        async () => (await sql<{ tz: string }>`SELECT current_setting('TimeZone') AS tz, pg_sleep(0.05)`.execute(db)).rows[0]?.tz,
      ),
    );
    expect(zones).toEqual([APP_TIME_ZONE, APP_TIME_ZONE, APP_TIME_ZONE, APP_TIME_ZONE]);
    expect(await midnight(db)).toBe('2026-01-05T00:00');
  });
});
