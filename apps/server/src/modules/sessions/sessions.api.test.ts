import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';

describe.each(DATABASES)('server-side sessions on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  const profile = (headers: Record<string, string>) => t.call({ method: 'GET', url: '/api/profile', headers });
  const ageSession = (sessionId: string, minutes: number) =>
    t.database.db
      .updateTable('user_sessions')
      .set({ last_activity_at: sql`now() - make_interval(mins => ${minutes})` })
      .where('id', '=', sessionId)
      .execute();

  it('fails with status 401 "token is missing" without a token', async () => {
    const res = await t.call({ method: 'GET', url: '/api/profile' });
    expect(res.statusCode).toBe(401);
    expect(res.data).toEqual({ message: 'token is missing', code: 'TOKEN_MISSING' });
  });

  it('validates an open session without counting the check as activity', async () => {
    const login = await t.login('full-user@demo.test');
    await ageSession(login.sessionId, 10);
    const before = await t.database.db
      .selectFrom('user_sessions')
      .select('last_activity_at')
      .where('id', '=', login.sessionId)
      .executeTakeFirstOrThrow();
    const res = await t.call({ method: 'GET', url: '/api/nodeapi/sessions/validate', headers: authHeaders(login) });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ valid: true, sessionId: login.sessionId, userId: login.id, idleTimeoutMs: 1_800_000 });
    const last = await t.call({ method: 'GET', url: '/api/lastsessiontime', headers: authHeaders(login) });
    expect(last.statusCode).toBe(200);
    const after = await t.database.db
      .selectFrom('user_sessions')
      .select('last_activity_at')
      .where('id', '=', login.sessionId)
      .executeTakeFirstOrThrow();
    expect(after.last_activity_at.getTime()).toBe(before.last_activity_at.getTime());
    // An ordinary call does count.
    await profile(authHeaders(login));
    const touched = await t.database.db
      .selectFrom('user_sessions')
      .select('last_activity_at')
      .where('id', '=', login.sessionId)
      .executeTakeFirstOrThrow();
    expect(touched.last_activity_at.getTime()).toBeGreaterThan(before.last_activity_at.getTime());
  });

  it('revokes both tokens at logout and records the logout time and duration', async () => {
    const login = await t.login('evaluate-user@demo.test');
    const res = await t.call({
      method: 'POST',
      url: '/api/dashboard/logout',
      headers: authHeaders(login),
      payload: { user_id: login.id, sessionid: login.sessionId },
    });
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ closed: 1 });
    const single: Record<string, string>[] = [
      { authorization: `Bearer ${login.nodeToken}` },
      { javaauthorization: `Bearer ${login.token}` },
    ];
    for (const headers of single) {
      const after = await profile(headers);
      expect(after.statusCode).toBe(401);
      expect(after.data.message).toBe('token is missing');
    }
    const attempt = await t.database.db
      .selectFrom('login_attempts')
      .selectAll()
      .where('session_id', '=', login.sessionId)
      .executeTakeFirstOrThrow();
    expect(attempt.logout_date).not.toBeNull();
  });

  it('logs a session out after 30 idle minutes with timeout true and the logout time of its last activity', async () => {
    const login = await t.login('download-evaluator@demo.test');
    await ageSession(login.sessionId, 29);
    expect((await profile(authHeaders(login))).statusCode).toBe(200);
    await ageSession(login.sessionId, 31);
    const res = await profile(authHeaders(login));
    expect(res.statusCode).toBe(401);
    expect(res.data).toEqual({ message: 'token is missing', code: 'SESSION_IDLE', timeout: true });
    const session = await t.database.db.selectFrom('user_sessions').selectAll().where('id', '=', login.sessionId).executeTakeFirstOrThrow();
    expect(session.close_reason).toBe('idle');
    const attempt = await t.database.db
      .selectFrom('login_attempts')
      .selectAll()
      .where('session_id', '=', login.sessionId)
      .executeTakeFirstOrThrow();
    expect(attempt.logout_date?.getTime()).toBe(session.last_activity_at.getTime());
    // It stays closed: the next call is a plain "token is missing".
    expect((await profile(authHeaders(login))).data.code).toBe('TOKEN_MISSING');
  });

  it('closes the caller’s session through nodeapi/sessions/close', async () => {
    const login = await t.login('flat-file-only@demo.test');
    const res = await t.call({
      method: 'POST',
      url: '/api/nodeapi/sessions/close',
      headers: authHeaders(login),
      payload: { reason: 'idle' },
    });
    expect(res.data).toEqual({ closed: 1 });
    expect((await profile(authHeaders(login))).statusCode).toBe(401);
  });

  it('closes all other sessions of the user and keeps the named one', async () => {
    const keep = await t.login('gostar-admin@demo.test');
    const other1 = await t.login('gostar-admin@demo.test');
    const other2 = await t.login('gostar-admin@demo.test');
    const bystander = await t.login('super-admin@demo.test');
    const res = await t.call({
      method: 'POST',
      url: '/api/dashboard/closeallsessions',
      headers: authHeaders(keep),
      payload: { user_id: keep.id, sessionid: keep.sessionId },
    });
    expect(res.statusCode).toBe(200);
    expect(res.data.closed).toBeGreaterThanOrEqual(2);
    expect((await profile(authHeaders(keep))).statusCode).toBe(200);
    expect((await profile(authHeaders(other1))).statusCode).toBe(401);
    expect((await profile(authHeaders(other2))).statusCode).toBe(401);
    expect((await profile(authHeaders(bystander))).statusCode).toBe(200);
  });

  it('fails with status 403 when acting on another user’s session', async () => {
    const me = await t.login('full-user@demo.test');
    const victim = await t.login('lowcredit@demo.test');
    const logout = await t.call({
      method: 'POST',
      url: '/api/dashboard/logout',
      headers: authHeaders(me),
      payload: { user_id: victim.id, sessionid: victim.sessionId },
    });
    expect(logout.statusCode).toBe(403);
    const sneaky = await t.call({
      method: 'POST',
      url: '/api/dashboard/logout',
      headers: authHeaders(me),
      payload: { user_id: me.id, sessionid: victim.sessionId },
    });
    expect(sneaky.statusCode).toBe(403);
    const close = await t.call({
      method: 'POST',
      url: '/api/nodeapi/sessions/close',
      headers: authHeaders(me),
      payload: { sessionid: victim.sessionId },
    });
    expect(close.statusCode).toBe(403);
    const all = await t.call({
      method: 'POST',
      url: '/api/dashboard/closeallsessions',
      headers: authHeaders(me),
      payload: { user_id: victim.id, sessionid: me.sessionId },
    });
    expect(all.statusCode).toBe(403);
    expect((await profile(authHeaders(victim))).statusCode).toBe(200);
  });

  it('drops the caller’s own search session and refuses another user’s', async () => {
    const me = await t.login('full-user@demo.test');
    const other = await t.login('evaluate-user@demo.test');
    await t.database.db
      .insertInto('search_sessions')
      .values([
        { id: 'mine-1', user_id: me.id, user_session_id: me.sessionId },
        { id: 'theirs-1', user_id: other.id, user_session_id: other.sessionId },
      ])
      .execute();
    const denied = await t.call({
      method: 'POST',
      url: '/api/dashboard/dropunloggedtables',
      headers: authHeaders(me),
      payload: { sessionid: 'theirs-1' },
    });
    expect(denied.statusCode).toBe(403);
    const ok = await t.call({
      method: 'POST',
      url: '/api/dashboard/dropunloggedtables',
      headers: authHeaders(me),
      payload: { sessionid: 'mine-1' },
    });
    expect(ok.data).toEqual({ dropped: 1 });
    const again = await t.call({
      method: 'POST',
      url: '/api/dashboard/dropunloggedtables',
      headers: authHeaders(me),
      payload: { sessionid: 'mine-1' },
    });
    expect(again.data).toEqual({ dropped: 0 });
  });

  it('drops the result sets of a session’s searches when it is logged out, keeping them as recent searches', async () => {
    const me = await t.login('full-user@demo.test');
    const { set_id: setId } = await t.database.db
      .insertInto('search_sessions')
      .values({ id: 'at-logout', user_id: me.id, user_session_id: me.sessionId, status: 'ready' })
      .returning('set_id')
      .executeTakeFirstOrThrow();
    await t.database.db.insertInto('search_structures').values({ set_id: setId, str_id: 1 }).execute();
    await t.call({
      method: 'POST',
      url: '/api/dashboard/logout',
      headers: authHeaders(me),
      payload: { user_id: me.id, sessionid: me.sessionId },
    });
    const left = await t.database.db.selectFrom('search_sessions').select('status').where('id', '=', 'at-logout').execute();
    expect(left).toEqual([{ status: 'dropped' }]);
    expect(await t.database.db.selectFrom('search_structures').selectAll().where('set_id', '=', setId).execute()).toEqual([]);
  });

  it('refuses tokens once the subscription has ended during the session', async () => {
    const login = await t.login('partial-user@demo.test');
    await t.database.db
      .updateTable('subscriptions')
      .set({ end_date: sql`now() - interval '1 minute'` })
      .where('user_id', '=', login.id)
      .execute();
    const res = await profile(authHeaders(login));
    expect(res.statusCode).toBe(401);
    await t.database.db
      .updateTable('subscriptions')
      .set({ end_date: sql`now() + interval '1 year'` })
      .where('user_id', '=', login.id)
      .execute();
  });
});
