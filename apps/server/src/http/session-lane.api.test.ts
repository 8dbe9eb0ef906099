import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { authHeaders, startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';
import { LANE_CONNECTIONS } from '../db/lane-pool.ts';

/*
 * On a PostgreSQL server, logins, logouts, health and the session check of every call have a lane
 * of their own (db/lane-pool.ts): with 20 users on a cold database, result pages held the three
 * interactive connections for seconds and logins queued behind them for up to 72 s. Here every
 * interactive connection is held, as such pages hold them, and those calls still answer.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('the session lane on a PostgreSQL server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('postgres');
  }, 120_000);
  afterAll(() => t?.close());

  it('logs in, checks sessions, logs out and answers health while pages hold every interactive connection', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let pagesDone = false;
    // Statements outside any call run in the interactive lane: these hold it as slow pages would.
    const pages = Promise.all(
      Array.from({ length: LANE_CONNECTIONS.interactive }, () =>
        t.database.db.transaction().execute(async (trx) => {
          await sql`SELECT 1`.execute(trx);
          await gate;
        }),
      ),
    ).finally(() => (pagesDone = true));
    try {
      const login = await t.passwordLogin('full-user@demo.test');
      expect(login.sessionId).toBeTruthy();
      const health = await t.call({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);
      const logout = await t.call({
        method: 'POST',
        url: '/api/dashboard/logout',
        headers: authHeaders(login),
        payload: { user_id: login.id, sessionid: login.sessionId },
      });
      expect(logout.statusCode).toBe(200);
      // The closed session is refused by the check that precedes every call, before any page runs.
      const after = await t.call({ method: 'GET', url: '/api/dashboard/subscription/summary', headers: authHeaders(login) });
      expect(after.statusCode).toBe(401);
      expect(pagesDone).toBe(false);
    } finally {
      release();
      await pages;
    }
  });
});
