import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginResult } from '@kb/contracts/auth';
import { IDLE_TIMEOUT_MS, SESSION_MAX_AGE_MS } from '@kb/contracts/session';
import { demoEmailForRole } from '@kb/contracts/roles';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';

/*
 * "Close all other sessions" keeps only a session that is the caller's own and open (issue 35: with a
 * random `sessionid` it closed every session, the caller's too). Anything else answers 400 and
 * closes nothing.
 */
describe.each(DATABASES)('closing all other sessions on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  const email = demoEmailForRole('EVALUATE_USER');
  const profile = (login: LoginResult) => t.call({ method: 'GET', url: '/api/profile', headers: authHeaders(login) });
  const closeOthers = (login: LoginResult, sessionid: string) =>
    t.call({
      method: 'POST',
      url: '/api/dashboard/closeallsessions',
      headers: authHeaders(login),
      payload: { user_id: login.id, sessionid },
    });
  const openSessions = async (userId: number) =>
    (await t.database.db.selectFrom('user_sessions').select('id').where('user_id', '=', userId).where('closed_at', 'is', null).execute())
      .length;

  it('refuses a session to keep that is not an open session of the caller, closing nothing', async () => {
    const current = await t.login(email);
    const other = await t.login(email);
    const stranger = await t.login(demoEmailForRole('FULL_USER'));
    const closedOwn = await t.login(email);
    await t.call({
      method: 'POST',
      url: '/api/dashboard/logout',
      headers: authHeaders(closedOwn),
      payload: { user_id: closedOwn.id, sessionid: closedOwn.sessionId },
    });
    const before = await openSessions(current.id);

    for (const keep of [crypto.randomUUID(), 'not-a-session', '', stranger.sessionId, closedOwn.sessionId]) {
      const res = await closeOthers(current, keep);
      expect(res.statusCode, `keep ${JSON.stringify(keep)}: ${res.body}`).toBe(400);
      expect(String(res.data.message)).toMatch(/not one of your open sessions/);
      expect(await openSessions(current.id)).toBe(before);
    }
    expect((await profile(current)).statusCode).toBe(200);
    expect((await profile(other)).statusCode).toBe(200);
    expect((await profile(stranger)).statusCode).toBe(200);
  });

  it('refuses to keep an idle or expired session of the caller, which no list shows as open, and closes nothing', async () => {
    const current = await t.login(email);
    const idle = await t.login(email);
    const expired = await t.login(email);
    // Aged in the database only: each would be closed at its own next request, so its row still says open.
    await t.database.db
      .updateTable('user_sessions')
      .set({ last_activity_at: sql`now() - make_interval(secs => ${IDLE_TIMEOUT_MS / 1000 + 60})` })
      .where('id', '=', idle.sessionId)
      .execute();
    await t.database.db
      .updateTable('user_sessions')
      .set({ created_at: sql`now() - make_interval(secs => ${SESSION_MAX_AGE_MS / 1000 + 60})` })
      .where('id', '=', expired.sessionId)
      .execute();
    const before = await openSessions(current.id);

    for (const keep of [idle.sessionId, expired.sessionId]) {
      const res = await closeOthers(current, keep);
      expect(res.statusCode, res.body).toBe(400);
      expect(String(res.data.message)).toMatch(/not one of your open sessions/);
      expect(await openSessions(current.id)).toBe(before);
    }
    expect((await profile(current)).statusCode).toBe(200);
  });

  it("closes the caller's other sessions and keeps the named one", async () => {
    const keep = await t.login(email);
    const others = [await t.login(email), await t.login(email)];
    const res = await closeOthers(keep, keep.sessionId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data.closed).toBeGreaterThanOrEqual(2);
    expect((await profile(keep)).statusCode).toBe(200);
    for (const login of others) expect((await profile(login)).statusCode).toBe(401);
    expect(await openSessions(keep.id)).toBe(1);
  });

  it('answers logout with a session id that is not a UUID in words, not a server error', async () => {
    const login = await t.login(email);
    const res = await t.call({
      method: 'POST',
      url: '/api/dashboard/logout',
      headers: authHeaders(login),
      payload: { user_id: login.id, sessionid: 'not-a-session' },
    });
    expect(res.statusCode).toBeLessThan(500);
    expect((await profile(login)).statusCode).toBe(200);
  });
});
