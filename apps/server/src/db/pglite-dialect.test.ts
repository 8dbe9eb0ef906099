import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase } from './database.ts';
import type { DatabaseHandle } from './database.ts';
import { withDbPriority } from './db-priority.ts';

/** The embedded database in its own thread, shared by turns with interactive work first. */
describe('embedded PGlite in a worker thread', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openDatabase({});
  }, 60_000);
  afterAll(() => handle.close());

  it('keeps the event loop free while a long statement runs', async () => {
    const heavy = sql`SELECT count(*)::int AS n FROM generate_series(1, 3000000) g, LATERAL (SELECT md5(g::text)) m`.execute(handle.db);
    const started = performance.now();
    let ticks = 0;
    let worstGap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      worstGap = Math.max(worstGap, now - last);
      last = now;
      ticks += 1;
    }, 10);
    await heavy;
    clearInterval(timer);
    const took = performance.now() - started;
    // The statement takes a while; the timers kept firing meanwhile (on the main thread they would not have).
    expect(took).toBeGreaterThan(200);
    expect(ticks).toBeGreaterThan(took / 100);
    expect(worstGap).toBeLessThan(Math.max(150, took / 2));
  });

  it('serves waiting interactive work before waiting bulk work', async () => {
    const order: string[] = [];
    // Past the grace bulk work leaves after interactive work (the test before this one).
    await new Promise((resolve) => setTimeout(resolve, 200));
    // A bulk transaction holds the one connection until both waiters are queued: the order they
    // are served in is then the dialect's choice alone, however loaded the machine is (a timed
    // statement let the bulk waiter become overdue, which the dialect rightly serves first).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const holding = new Promise<void>((resolve) => (started = resolve));
    const slow = withDbPriority('bulk', () =>
      handle.db.transaction().execute(async (trx) => {
        await sql`SELECT 1`.execute(trx);
        started();
        await held;
        order.push('transaction');
      }),
    );
    await holding;
    const bulk = withDbPriority('bulk', async () => {
      await sql`SELECT 1`.execute(handle.db);
      order.push('bulk');
    });
    const interactive = (async () => {
      await sql`SELECT 1`.execute(handle.db);
      order.push('interactive');
    })();
    // Both waiters queue within microtasks; a timer runs only after them.
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await Promise.all([slow, bulk, interactive]);
    expect(order).toEqual(['transaction', 'interactive', 'bulk']);
  });

  it('passes PostgreSQL errors through with their SQLSTATE code', async () => {
    await sql`CREATE TABLE t_unique (id int PRIMARY KEY)`.execute(handle.db);
    await sql`INSERT INTO t_unique VALUES (1)`.execute(handle.db);
    const error = await sql`INSERT INTO t_unique VALUES (1)`.execute(handle.db).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: '23505' });
    expect(String((error as Error).message)).toMatch(/duplicate key/);
  });
});
