import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { SESSION_MAX_AGE_MS } from '@kb/contracts/session';
import { demoEmailForRole } from '@kb/contracts/roles';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';

/*
 * ASVS 3.3.2: a session has an absolute lifetime. However active (and however often its tokens are
 * regenerated), a session older than SESSION_MAX_AGE_MS is refused and closed at its next request,
 * and no list counts it as open any longer.
 */
describe.each(DATABASES)('absolute session lifetime on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  /** Moves the session's login back in time; its last activity stays now (an active session). */
  const loggedInAgo = (sessionId: string, ms: number) =>
    t.database.db
      .updateTable('user_sessions')
      .set({ created_at: sql`now() - make_interval(secs => ${ms / 1000})`, last_activity_at: sql`now()` })
      .where('id', '=', sessionId)
      .execute();

  it('keeps an active session open until its lifetime, then answers 401 SESSION_EXPIRED once and closes it', async () => {
    const login = await t.login(demoEmailForRole('FULL_USER'));
    const profile = () => t.call({ method: 'GET', url: '/api/profile', headers: authHeaders(login) });
    await loggedInAgo(login.sessionId, SESSION_MAX_AGE_MS - 60_000);
    expect((await profile()).statusCode).toBe(200);
    // Fresh tokens do not extend it: the session row's age counts.
    const renewed = await t.call({ method: 'POST', url: '/api/pub/gostar/regenerate', headers: authHeaders(login) });
    expect(renewed.statusCode).toBe(200);

    await loggedInAgo(login.sessionId, SESSION_MAX_AGE_MS + 1_000);
    const res = await profile();
    expect(res.statusCode).toBe(401);
    expect(res.data).toEqual({ message: 'token is missing', code: 'SESSION_EXPIRED' });
    const session = await t.database.db
      .selectFrom('user_sessions')
      .select(['closed_at', 'close_reason'])
      .where('id', '=', login.sessionId)
      .executeTakeFirstOrThrow();
    expect(session.close_reason).toBe('expired');
    expect(session.closed_at).not.toBeNull();
    expect((await profile()).data.code).toBe('TOKEN_MISSING');
  });

  it('leaves expired sessions out of the open sessions the super admin and the account list see', async () => {
    const login = await t.login(demoEmailForRole('DOWNLOAD_EVALUATOR'));
    const superAdmin = await t.login(demoEmailForRole('SUPER_ADMIN'));
    const listed = async () => {
      const res = await t.call({ method: 'GET', url: '/api/superadmin/sessions?pageSize=100', headers: authHeaders(superAdmin) });
      expect(res.statusCode, res.body).toBe(200);
      return (res.data.rows as Array<{ sessionId: string }>).map((r) => r.sessionId);
    };
    expect(await listed()).toContain(login.sessionId);
    await loggedInAgo(login.sessionId, SESSION_MAX_AGE_MS + 1_000);
    expect(await listed()).not.toContain(login.sessionId);
  });
});
