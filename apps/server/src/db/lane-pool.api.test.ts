import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase } from './database.ts';
import type { DatabaseHandle } from './database.ts';
import { withDbPriority, withSessionLane, withSetsLane } from './db-priority.ts';
import type { DbLane } from './db-priority.ts';
import { LANE_CONNECTIONS } from './lane-pool.ts';

/*
 * On a PostgreSQL server each lane has its own connections (db/lane-pool.ts): short calls answer
 * while every connection of the heavy calls and of the sets writers is held, the counts of a new
 * search answer while the sets writers hold all of theirs, and session checks answer while every
 * other lane is full.
 */

const RUN_IN: Record<Exclude<DbLane, 'session'>, <T>(work: () => Promise<T>) => Promise<T>> = {
  interactive: (work) => withDbPriority('interactive', work),
  bulk: (work) => withDbPriority('bulk', work),
  sets: withSetsLane,
};

describe.runIf(process.env.TEST_DATABASE_URL)('connection lanes on a PostgreSQL server', () => {
  let handle: DatabaseHandle | undefined;
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
  });

  /** Holds every connection of a lane (and one more call waiting) until `release` resolves. */
  function holdLane(
    db: DatabaseHandle['db'],
    lane: Exclude<DbLane, 'session'>,
    release: Promise<void>,
  ): { settled: () => boolean; done: Promise<unknown> } {
    let settled = false;
    const run = RUN_IN[lane];
    const held = Array.from({ length: LANE_CONNECTIONS[lane] + 1 }, () =>
      run(() =>
        db.transaction().execute(async (trx) => {
          await sql`SELECT 1`.execute(trx);
          await release;
        }),
      ),
    );
    const done = Promise.all(held).finally(() => (settled = true));
    return { settled: () => settled, done };
  }

  it('a short call answers while the heavy calls and the sets writers hold all their connections', async () => {
    handle = await openDatabase({ url: process.env.TEST_DATABASE_URL });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const bulk = holdLane(handle.db, 'bulk', gate);
    const sets = holdLane(handle.db, 'sets', gate);
    const answer = (await sql<{ one: number }>`SELECT 1 AS one`.execute(handle.db)).rows[0]?.one;
    expect(answer).toBe(1);
    // The holders were still holding when the short call answered.
    expect(bulk.settled() || sets.settled()).toBe(false);
    release();
    await Promise.all([bulk.done, sets.done]);
  });

  it('a heavy call gets a connection while the sets writers hold all of theirs', async () => {
    handle = await openDatabase({ url: process.env.TEST_DATABASE_URL });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const sets = holdLane(handle.db, 'sets', gate);
    const answer = await withDbPriority('bulk', async () => (await sql<{ one: number }>`SELECT 1 AS one`.execute(handle!.db)).rows[0]?.one);
    expect(answer).toBe(1);
    expect(sets.settled()).toBe(false);
    release();
    await sets.done;
  });

  it('a session check answers, on a connection named kb-session, while every other lane is full', async () => {
    handle = await openDatabase({ url: process.env.TEST_DATABASE_URL });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const others = (['interactive', 'bulk', 'sets'] as const).map((lane) => holdLane(handle!.db, lane, gate));
    const name = await withSessionLane(
      async () => (await sql<{ name: string }>`SELECT current_setting('application_name') AS name`.execute(handle!.db)).rows[0]?.name,
    );
    expect(name).toBe('kb-session');
    expect(others.some((held) => held.settled())).toBe(false);
    release();
    await Promise.all(others.map((held) => held.done));
  });
});
