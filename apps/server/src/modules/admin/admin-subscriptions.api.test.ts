import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminUser } from '@kb/contracts/admin-accounts';
import type { LoginResult } from '@kb/contracts/auth';
import { demoEmailForRole } from '@kb/contracts/roles';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { adminClient } from '../../../test/admin-support.ts';

/*
 * Subscriptions (issue 16): granted, renewed, extended and ended by the KB admin; a change counts
 * at the user's next request — a removed role answers 403, a user left without a running
 * subscription is logged out at once (401). Admin roles stay with the super admin.
 */

const days = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
/** A call only the search roles may make (FULL_USER among them, FLAT_FILE_ONLY not). */
const SEARCH_CALL = '/api/results/metadata/getalltabcolumns/false';

describe.each(DATABASES)('subscriptions administration on %s', (kind) => {
  let t: TestApp;
  let admin: LoginResult;
  let api: ReturnType<typeof adminClient>;
  const userId = async (email: string) =>
    (await t.database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
  const as = (login: LoginResult, url: string) => t.call({ method: 'GET', url, headers: authHeaders(login) });

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await t.login(demoEmailForRole('GOSTAR_ADMIN'));
    api = adminClient(t, () => admin);
  });
  afterAll(() => t.close());

  it('grants a role that counts at the next request, and takes it away again: 403 then, the session kept for the other role', async () => {
    const email = demoEmailForRole('FLAT_FILE_ONLY');
    const id = await userId(email);
    const user = await t.login(email);
    expect((await as(user, SEARCH_CALL)).statusCode).toBe(403);

    const { answer, audit } = await api.audited(() =>
      api.post(`/api/admin/users/${id}/subscriptions`, { role: 'FULL_USER', endDate: days(90), contractId: 'C-9' }),
    );
    expect(answer.statusCode, answer.body).toBe(200);
    const granted = (answer.data as unknown as AdminUser).subscriptions.find((s) => s.roleName === 'FULL_USER')!;
    expect(granted).toMatchObject({ status: 'active', contractId: 'C-9', endDate: `${days(91)}T00:00:00.000Z` });
    expect(audit).toMatchObject({
      action: 'subscription.grant',
      target_type: 'subscription',
      target_id: String(granted.id),
      target_label: `${email} · FULL_USER`,
    });
    // Same session, next request: the new role is there.
    expect((await as(user, SEARCH_CALL)).statusCode).toBe(200);

    const { answer: ended, audit: endAudit } = await api.audited(() =>
      api.post(`/api/admin/subscriptions/${granted.id}/end`, { reason: 'Trial over' }),
    );
    expect(ended.statusCode, ended.body).toBe(200);
    const after = (ended.data as unknown as AdminUser).subscriptions.find((s) => s.id === granted.id)!;
    expect(after.status).toBe('ended');
    expect(after.endedAt).not.toBeNull();
    expect(endAudit).toMatchObject({ action: 'subscription.end', after: { reason: 'Trial over', closedSessions: 0 } });
    const row = await t.database.db
      .selectFrom('subscriptions')
      .select(['ended_by', 'ended_at', 'end_date'])
      .where('id', '=', granted.id)
      .executeTakeFirstOrThrow();
    expect(row.ended_by).toBe(admin.id);
    expect(row.end_date.getTime()).toBeLessThanOrEqual(Date.now());
    // The removed role answers 403; the FLAT_FILE_ONLY role keeps the session open.
    expect((await as(user, SEARCH_CALL)).statusCode).toBe(403);
    expect((await as(user, '/api/profile')).statusCode).toBe(200);
    // Ending it twice is a conflict and changes nothing.
    await api.refused(() => api.post(`/api/admin/subscriptions/${granted.id}/end`, {}), 409, /already ended/);
  });

  it('gives each subscription granted without a contract id one of its own, two granted on one day included', async () => {
    const created = await api.post('/api/admin/users', {
      email: 'two-contracts@subscriptions.test',
      firstName: 'Two',
      lastName: 'Contracts',
      invite: false,
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = await userId('two-contracts@subscriptions.test');
    for (const role of ['EVALUATE_USER', 'FULL_USER'] as const) {
      const answer = await api.post(`/api/admin/users/${id}/subscriptions`, { role, endDate: days(30) });
      expect(answer.statusCode, answer.body).toBe(200);
    }
    const listed = ((await api.get(`/api/admin/users/${id}`)).data as unknown as AdminUser).subscriptions;
    expect(listed).toHaveLength(2);
    expect(new Set(listed.map((s) => s.contractId)).size).toBe(2);
    for (const s of listed) expect(s.contractId).toMatch(new RegExp(`^SUB-${id}-\\d{8}-\\d+$`));
  });

  it('logs a user out at once when their last running subscription ends: the next call answers 401', async () => {
    const email = demoEmailForRole('DOWNLOAD_EVALUATOR');
    const id = await userId(email);
    const user = await t.login(email);
    const second = await t.login(email);
    const subscription = ((await api.get(`/api/admin/users/${id}`)).data as unknown as AdminUser).subscriptions[0]!;
    const { answer, audit } = await api.audited(() => api.post(`/api/admin/subscriptions/${subscription.id}/end`, {}));
    expect(answer.data).toMatchObject({ openSessions: 0 });
    expect(audit.after).toMatchObject({ closedSessions: 2 });
    for (const login of [user, second]) {
      const res = await as(login, '/api/profile');
      expect(res.statusCode).toBe(401);
      expect(res.data.message).toBe('token is missing');
    }
    const reasons = await t.database.db
      .selectFrom('user_sessions')
      .select('close_reason')
      .where('user_id', '=', id)
      .where('closed_at', 'is not', null)
      .execute();
    expect(reasons.map((r) => r.close_reason)).toContain('subscription_ended');
    await expect(t.login(email)).rejects.toThrow(/403/);

    // Renewing the ended subscription lets the user back in, and it is no longer "ended early".
    const { answer: renewed, audit: renewAudit } = await api.audited(() =>
      api.put(`/api/admin/subscriptions/${subscription.id}`, { endDate: days(30) }),
    );
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect((renewed.data as unknown as AdminUser).subscriptions[0]).toMatchObject({
      status: 'active',
      endedAt: null,
      endDate: `${days(31)}T00:00:00.000Z`,
    });
    expect(renewAudit).toMatchObject({ action: 'subscription.renew', after: { endDate: `${days(31)}T00:00:00.000Z` } });
    expect((await t.login(email)).username).toBe(email);
  });

  it('extends a subscription and refuses bad periods, unknown ids and overlapping grants, changing nothing', async () => {
    const email = 'lowcredit@demo.test';
    const id = await userId(email);
    const subscription = ((await api.get(`/api/admin/users/${id}`)).data as unknown as AdminUser).subscriptions[0]!;
    const { audit } = await api.audited(() =>
      api.put(`/api/admin/subscriptions/${subscription.id}`, { endDate: days(400), havingFlatFileAccess: true }),
    );
    expect(audit.before).toEqual({ endDate: subscription.endDate, havingFlatFileAccess: false });
    expect(audit.after).toEqual({ endDate: `${days(401)}T00:00:00.000Z`, havingFlatFileAccess: true });

    await api.refused(
      () => api.put(`/api/admin/subscriptions/${subscription.id}`, { startDate: days(500) }),
      400,
      /must not be before the start date/,
    );
    await api.refused(
      () => api.put(`/api/admin/subscriptions/${subscription.id}`, { startDate: days(10), endDate: days(5) }),
      400,
      /must not be before the start date/,
    );
    await api.refused(() => api.put(`/api/admin/subscriptions/${subscription.id}`, { endDate: days(-1) }), 400, /has passed/);
    await api.refused(() => api.put(`/api/admin/subscriptions/${subscription.id}`, { endDate: 'tomorrow' }), 400);
    await api.refused(() => api.put(`/api/admin/subscriptions/${subscription.id}`, {}), 400, /Nothing to change/);
    await api.refused(() => api.put('/api/admin/subscriptions/999999', { endDate: days(9) }), 404);
    await api.refused(() => api.post('/api/admin/subscriptions/999999/end', {}), 404);
    await api.refused(() => api.post('/api/admin/users/999999/subscriptions', { role: 'FULL_USER', endDate: days(9) }), 404);
    await api.refused(() => api.post(`/api/admin/users/${id}/subscriptions`, { role: 'FULL_USER', endDate: days(9) }), 409, /overlaps/);
    await api.refused(
      () => api.post(`/api/admin/users/${id}/subscriptions`, { role: 'EVALUATE_USER', startDate: days(3), endDate: days(2) }),
      400,
      /must not be before the start date/,
    );
    await api.refused(() => api.post(`/api/admin/users/${id}/subscriptions`, { role: 'EVALUATE_USER' }), 400);
    await api.refused(() => api.post(`/api/admin/users/${id}/subscriptions`, { role: 'CHIEF', endDate: days(9) }), 400);
  });

  it('refuses admin roles with 403: they are granted on the super-admin page, and their subscriptions cannot be changed here', async () => {
    const id = await userId(demoEmailForRole('FULL_USER'));
    for (const role of ['GOSTAR_ADMIN', 'FLAT_FILE_ADMIN', 'SUPER_ADMIN']) {
      const res = await api.refused(() => api.post(`/api/admin/users/${id}/subscriptions`, { role, endDate: days(30) }), 403);
      expect(res.data.message).toBe('Admin roles are granted on the super-admin page.');
    }
    const superAdmin = ((await api.get(`/api/admin/users/${await userId(demoEmailForRole('SUPER_ADMIN'))}`)).data as unknown as AdminUser)
      .subscriptions[0]!;
    await api.refused(() => api.post(`/api/admin/subscriptions/${superAdmin.id}/end`, {}), 403, /super-admin page/);
    await api.refused(() => api.put(`/api/admin/subscriptions/${superAdmin.id}`, { endDate: days(3) }), 403, /super-admin page/);
    // Nor may an administrator end their own role here.
    const own = ((await api.get(`/api/admin/users/${admin.id}`)).data as unknown as AdminUser).subscriptions[0]!;
    await api.refused(() => api.post(`/api/admin/subscriptions/${own.id}/end`, {}), 403);
  });

  it('renews a subscription that ran out: the user logs in again', async () => {
    const email = 'expired@demo.test';
    await expect(t.login(email)).rejects.toThrow(/403/);
    const id = await userId(email);
    const expired = ((await api.get(`/api/admin/users/${id}`)).data as unknown as AdminUser).subscriptions[0]!;
    expect(expired).toMatchObject({ status: 'ended', endedAt: null });
    const { answer, audit } = await api.audited(() => api.put(`/api/admin/subscriptions/${expired.id}`, { endDate: days(365) }));
    expect((answer.data as unknown as AdminUser).subscriptions[0]).toMatchObject({ status: 'active' });
    expect(audit).toMatchObject({ action: 'subscription.renew', before: { endDate: expired.endDate } });
    expect((await t.login(email)).username).toBe(email);
  });

  it('cancels a scheduled subscription: both dates become now', async () => {
    const id = await userId(demoEmailForRole('PARTIAL_USER'));
    const granted = (
      await api.post(`/api/admin/users/${id}/subscriptions`, { role: 'EVALUATE_USER', startDate: days(10), endDate: days(40) })
    ).data as unknown as AdminUser;
    const scheduled = granted.subscriptions.find((s) => s.roleName === 'EVALUATE_USER')!;
    expect(scheduled.status).toBe('scheduled');
    const ended = (await api.post(`/api/admin/subscriptions/${scheduled.id}/end`, {})).data as unknown as AdminUser;
    const cancelled = ended.subscriptions.find((s) => s.id === scheduled.id)!;
    expect(cancelled.status).toBe('ended');
    expect(cancelled.startDate).toBe(cancelled.endDate);
    // The user's running PARTIAL_USER subscription keeps them logged in.
    expect(ended.subscriptions.find((s) => s.roleName === 'PARTIAL_USER')!.status).toBe('active');
  });
});
