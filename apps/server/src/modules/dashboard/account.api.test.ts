import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveProfileAccess } from '@kb/contracts/access';
import type { UserProfile } from '@kb/contracts/auth';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { linkCodeOf, outboxMark, waitForMail } from '../auth/outbox-reader.test-support.ts';

describe.each(DATABASES)('account calls on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  /** The verification link of the first mail to an address after `mark`, as the user would click it. */
  async function linkCode(email: string, mark: string): Promise<string> {
    return linkCodeOf(await waitForMail(t.database.db, email, mark));
  }

  it('answers the profile with its subscription list, from which the current role follows', async () => {
    const login = await t.login('flat-file-admin@demo.test');
    const res = await t.call({ method: 'GET', url: '/api/profile', headers: authHeaders(login) });
    expect(res.statusCode).toBe(200);
    const profile = res.data as unknown as UserProfile;
    expect(profile).toMatchObject({ userId: login.id, userName: 'flat-file-admin@demo.test', notificationsCount: 0 });
    expect(profile.subscriptionDetailsList).toHaveLength(1);
    expect(deriveProfileAccess(profile).currentRole).toBe('FLAT_FILE_ADMIN');
  });

  it("counts only the caller's unread notifications in the profile", async () => {
    const login = await t.login('gostar-admin@demo.test');
    const other = await t.login('full-user@demo.test');
    const profileCount = async () => {
      const res = await t.call({ method: 'GET', url: '/api/profile', headers: authHeaders(login) });
      expect(res.statusCode).toBe(200);
      return (res.data as unknown as UserProfile).notificationsCount;
    };
    const before = await profileCount();
    await t.database.db
      .insertInto('notifications')
      .values([
        { user_id: login.id, title: 'Unread one' },
        { user_id: login.id, title: 'Unread two' },
        { user_id: login.id, title: 'Already read', read_at: new Date() },
        { user_id: other.id, title: "Somebody else's" },
      ])
      .execute();
    expect(await profileCount()).toBe(before + 2);
    await t.database.db.deleteFrom('notifications').where('user_id', 'in', [login.id, other.id]).execute();
    expect(await profileCount()).toBe(0);
  });

  it('answers subscription info: the low-credit user is expiring with 50 credits', async () => {
    const login = await t.login('lowcredit@demo.test');
    const res = await t.call({
      method: 'POST',
      url: '/api/dashboard/notifications/isSubscriptionRequired',
      headers: authHeaders(login),
      payload: { id: login.id },
    });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ creditbalance: 50, userExpiring: true });
    const summary = await t.call({ method: 'GET', url: '/api/dashboard/subscription/summary', headers: authHeaders(login) });
    expect(summary.data).toMatchObject({ downloadBalance: 50, username: 'lowcredit@demo.test', expiring: true });
    expect(summary.data.expiringDays).toBeGreaterThanOrEqual(2);
    expect(summary.data.expiringDays).toBeLessThanOrEqual(3);
  });

  it('answers subscription info for a full user as not expiring, and 403 for another user’s id', async () => {
    const login = await t.login('full-user@demo.test');
    const own = await t.call({
      method: 'POST',
      url: '/api/dashboard/notifications/isSubscriptionRequired',
      headers: authHeaders(login),
      payload: { id: login.id },
    });
    expect(own.data).toMatchObject({ creditbalance: 5000, userExpiring: false });
    const other = await t.call({
      method: 'POST',
      url: '/api/dashboard/notifications/isSubscriptionRequired',
      headers: authHeaders(login),
      payload: { id: login.id + 1 },
    });
    expect(other.statusCode).toBe(403);
  });

  it('lists the caller’s login history with failed attempts and durations, newest first', async () => {
    await t.call({
      method: 'POST',
      url: '/api/pub/gostar/generate-token',
      payload: { username: 'evaluate-user@demo.test', password: 'nope-nope1' },
    });
    const first = await t.login('evaluate-user@demo.test');
    await t.call({
      method: 'POST',
      url: '/api/dashboard/logout',
      headers: authHeaders(first),
      payload: { user_id: first.id, sessionid: first.sessionId },
    });
    const second = await t.login('evaluate-user@demo.test');
    const res = await t.call({ method: 'GET', url: '/api/user/loginhistory', headers: authHeaders(second) });
    const rows = res.data.rows as Array<{ failed: boolean; logoutDate: string | null; TotalDuration_seconds: number | null }>;
    expect(rows.length).toBe(3);
    expect(rows[0]).toMatchObject({ failed: false, logoutDate: null, TotalDuration_seconds: null });
    expect(rows[1]?.failed).toBe(false);
    expect(rows[1]?.TotalDuration_seconds).toBeGreaterThanOrEqual(0);
    expect(rows[2]?.failed).toBe(true);
  });

  it('reads default notification settings, saves them, and refuses another user’s id', async () => {
    const login = await t.login('gostar-admin@demo.test');
    const url = '/api/dashboard/notifications/settings';
    const read = await t.call({ method: 'POST', url, headers: authHeaders(login), payload: { id: login.id } });
    expect(read.data).toEqual({
      notificationSettingsId: null,
      notificationSystemEmail: true,
      notificationDatabaseEmail: true,
      is_notification_email: true,
    });
    const settings = { notificationSystemEmail: false, notificationDatabaseEmail: true, is_notification_email: false };
    const saved = await t.call({ method: 'POST', url, headers: authHeaders(login), payload: { id: login.id, settings } });
    expect(saved.data).toMatchObject(settings);
    expect(saved.data.notificationSettingsId).toEqual(expect.any(Number));
    const reread = await t.call({ method: 'POST', url, headers: authHeaders(login), payload: { id: login.id } });
    expect(reread.data).toEqual(saved.data);
    expect((await t.call({ method: 'POST', url, headers: authHeaders(login), payload: { id: 999 } })).statusCode).toBe(403);
  });

  it('registers, e-mails a link, sets the password from it and logs in as an evaluating user', async () => {
    const email = 'new.chemist@pharma.test';
    const mark = await outboxMark(t.database.db);
    const reg = await t.call({
      method: 'POST',
      url: '/api/pub/account/register',
      payload: { email, firstName: 'Ada', lastName: 'Chem', organisation: 'Pharma' },
    });
    expect(reg.statusCode).toBe(200);
    expect(String(reg.data.message)).toContain(email);
    // Before the link is used the account cannot log in.
    const early = await t.call({
      method: 'POST',
      url: '/api/pub/gostar/generate-token',
      payload: { username: email, password: 'whatever1' },
    });
    expect(early.statusCode).toBe(403);
    const code = await linkCode(email, mark);
    const info = await t.call({ method: 'GET', url: `/api/pub/account/verify/${code}` });
    expect(info.data).toMatchObject({ email, purpose: 'register' });
    const weak = await t.call({ method: 'POST', url: `/api/pub/account/verify/${code}`, payload: { password: 'short' } });
    expect(weak.statusCode).toBe(400);
    const set = await t.call({ method: 'POST', url: `/api/pub/account/verify/${code}`, payload: { password: 'molecule fox harbour' } });
    expect(set.statusCode).toBe(200);
    const login = await t.login(email, 'molecule fox harbour');
    const profile = await t.call({ method: 'GET', url: '/api/profile', headers: authHeaders(login) });
    expect(deriveProfileAccess(profile.data as unknown as UserProfile).currentRole).toBe('EVALUATE_USER');
    // A used link is gone.
    expect((await t.call({ method: 'GET', url: `/api/pub/account/verify/${code}` })).statusCode).toBe(404);
    expect(
      (await t.call({ method: 'POST', url: `/api/pub/account/verify/${code}`, payload: { password: 'another tidal lantern' } })).statusCode,
    ).toBe(404);
  });

  it('answers a registration of an existing address like any other and tells the owner by mail', async () => {
    const mark = await outboxMark(t.database.db);
    const res = await t.call({
      method: 'POST',
      url: '/api/pub/account/register',
      payload: { email: 'full-user@demo.test', firstName: 'X', lastName: 'Y' },
    });
    expect(res.statusCode).toBe(200);
    const mail = await waitForMail(t.database.db, 'full-user@demo.test', mark);
    expect(mail.subject).toBe('You already have an account');
    expect((await t.login('full-user@demo.test')).id).toBeGreaterThan(0);
  });

  it('resets a forgotten password from the link and logs out the old sessions', async () => {
    const email = 'partial-user@demo.test';
    const old = await t.login(email);
    const mark = await outboxMark(t.database.db);
    const res = await t.call({ method: 'POST', url: '/api/pub/account/forgot-password', payload: { email } });
    expect(res.statusCode).toBe(200);
    const unknown = await t.call({ method: 'POST', url: '/api/pub/account/forgot-password', payload: { email: 'ghost@demo.test' } });
    expect(unknown.statusCode).toBe(200);
    const code = await linkCode(email, mark);
    expect(
      (await t.call({ method: 'POST', url: `/api/pub/account/verify/${code}`, payload: { password: 'quiet meadow compass' } })).statusCode,
    ).toBe(200);
    expect((await t.call({ method: 'GET', url: '/api/profile', headers: authHeaders(old) })).statusCode).toBe(401);
    expect((await t.login(email, 'quiet meadow compass')).username).toBe(email);
  });

  it('answers 404 with a clear message for an unknown or expired link', async () => {
    const res = await t.call({ method: 'GET', url: '/api/pub/account/verify/not-a-real-code' });
    expect(res.statusCode).toBe(404);
    expect(res.data).toMatchObject({ code: 'INVALID_LINK' });
    expect(String(res.data.message)).toMatch(/invalid, already used or expired/);
  });

  it('changes the password: refuses a wrong current one, then closes the other sessions', async () => {
    const email = 'flat-file-only@demo.test';
    const me = await t.login(email);
    const other = await t.login(email);
    const url = '/api/user/change-password';
    const wrong = await t.call({
      method: 'POST',
      url,
      headers: authHeaders(me),
      payload: { currentPassword: 'bad', newPassword: 'copper violin orchard' },
    });
    expect(wrong.statusCode).toBe(400);
    const ok = await t.call({
      method: 'POST',
      url,
      headers: authHeaders(me),
      payload: { currentPassword: 'Demo!2345', newPassword: 'copper violin orchard' },
    });
    expect(ok.statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: '/api/profile', headers: authHeaders(me) })).statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: '/api/profile', headers: authHeaders(other) })).statusCode).toBe(401);
    expect((await t.login(email, 'copper violin orchard')).username).toBe(email);
  });
});
