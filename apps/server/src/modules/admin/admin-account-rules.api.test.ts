import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { AdminUser, AdminUserList, Organisation, OrganisationList } from '@kb/contracts/admin-accounts';
import type { LoginResult } from '@kb/contracts/auth';
import { demoEmailForRole } from '@kb/contracts/roles';
import { IDLE_TIMEOUT_MS } from '@kb/contracts/session';
import type { AdminRoleHolder, AdminRoleHolders, OpenSessions } from '@kb/contracts/superadmin';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { adminClient } from '../../../test/admin-support.ts';

/*
 * The rules of account administration that the review of issue 16 found wrong: concurrent changes
 * of one user's subscriptions, the seat rule, the day an end date means, idle sessions, the last
 * super admin, self-registration and organisations, and bounded page numbers.
 */

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
/** The instant a period whose last day is `offset` days away ends: 24:00 UTC of that day. */
const endOfDay = (offset: number) => new Date(Date.parse(`${day(offset)}T00:00:00.000Z`) + 86_400_000).toISOString();

describe.each(DATABASES)('account administration rules on %s', (kind) => {
  let t: TestApp;
  let admin: LoginResult;
  let superAdmin: LoginResult;
  let api: ReturnType<typeof adminClient>;
  let made = 0;

  const createUser = async (body: Record<string, unknown>) => {
    made += 1;
    return api.post('/api/admin/users', { email: `rules-${made}@rules.test`, firstName: 'Rule', lastName: `Tester ${made}`, ...body });
  };
  const organisationRow = async (id: number) =>
    ((await api.get('/api/admin/organisations?pageSize=100')).data as unknown as OrganisationList).rows.find((o) => o.id === id)!;

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await t.login(demoEmailForRole('GOSTAR_ADMIN'));
    superAdmin = await t.login(demoEmailForRole('SUPER_ADMIN'));
    api = adminClient(t, () => admin);
  });
  afterAll(() => t.close());

  it('lets only one of a grant and an extension of the same user and role made at the same time through when they would overlap', async () => {
    for (let round = 0; round < 4; round += 1) {
      const created = await createUser({ subscription: { role: 'FULL_USER', endDate: day(30) } });
      expect(created.statusCode, created.body).toBe(200);
      const user = created.data as unknown as AdminUser;
      const running = user.subscriptions[0]!;
      const [grant, extend] = await Promise.all([
        api.post(`/api/admin/users/${user.userId}/subscriptions`, { role: 'FULL_USER', startDate: day(40), endDate: day(100) }),
        api.put(`/api/admin/subscriptions/${running.id}`, { endDate: day(60) }),
      ]);
      expect([grant.statusCode, extend.statusCode].sort(), `${grant.body} ${extend.body}`).toEqual([200, 409]);
      const { rows } = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM subscriptions a JOIN subscriptions b ON a.user_id = b.user_id AND a.role_name = b.role_name AND a.id < b.id
        WHERE a.user_id = ${user.userId} AND a.start_date < b.end_date AND b.start_date < a.end_date`.execute(t.database.db);
      expect(rows[0]!.n).toBe(0);
    }
  });

  it('takes a seat for every account that is not deactivated, invited ones without a subscription included, in the list figure and every check', async () => {
    const org = (await api.post('/api/admin/organisations', { name: 'Seat Rules Ltd', seats: 2 })).data as unknown as Organisation;
    const first = await createUser({ organisationId: org.id, invite: true });
    expect(first.statusCode, first.body).toBe(200);
    expect((await createUser({ organisationId: org.id })).statusCode).toBe(200);
    // Neither has a subscription; both take a seat, and the list says so.
    expect(await organisationRow(org.id)).toMatchObject({ users: 2, activeUsers: 2, seats: 2 });
    await api.refused(
      () => api.post('/api/admin/users', { email: 'third@rules.test', firstName: 'Third', lastName: 'One', organisationId: org.id }),
      400,
      /2 seats, 2 taken/,
    );
    await api.refused(() => api.put(`/api/admin/organisations/${org.id}`, { seats: 1 }), 400, /2 users taking a seat/);
    const imported = await api.post('/api/admin/users/import', {
      fileName: 'users.csv',
      contentBase64: Buffer.from('email,first name,last name,organisation\nimported@rules.test,Im,Ported,Seat Rules Ltd\n').toString(
        'base64',
      ),
      dryRun: true,
    });
    expect(imported.statusCode, imported.body).toBe(200);
    expect(JSON.stringify(imported.data)).toMatch(/2 seats, 2 taken/);

    // A deactivated account frees its seat.
    const firstId = (first.data as unknown as AdminUser).userId;
    expect((await api.post(`/api/admin/users/${firstId}/actions`, { action: 'deactivate' })).statusCode).toBe(200);
    expect(await organisationRow(org.id)).toMatchObject({ users: 2, activeUsers: 1 });
    expect((await createUser({ organisationId: org.id })).statusCode).toBe(200);
    await api.refused(() => api.post(`/api/admin/users/${firstId}/actions`, { action: 'reactivate' }), 400, /no seat is free/);
  });

  it('ends a subscription at 24:00 UTC of its end date, as an admin role: the end date is the last day, inclusive', async () => {
    const created = await createUser({ subscription: { role: 'FULL_USER', startDate: day(0), endDate: day(0) } });
    expect(created.statusCode, created.body).toBe(200);
    const user = created.data as unknown as AdminUser;
    // A one-day subscription: it starts at 00:00 UTC today and runs until tonight's 24:00 UTC.
    expect(user.subscriptions[0]).toMatchObject({ status: 'active', startDate: `${day(0)}T00:00:00.000Z`, endDate: endOfDay(0) });

    const extended = await api.put(`/api/admin/subscriptions/${user.subscriptions[0]!.id}`, { endDate: day(90) });
    expect(extended.statusCode, extended.body).toBe(200);
    expect((extended.data as unknown as AdminUser).subscriptions[0]!.endDate).toBe(endOfDay(90));
    await api.refused(
      () => api.put(`/api/admin/subscriptions/${user.subscriptions[0]!.id}`, { endDate: day(-1) }),
      400,
      new RegExp(`end date \\(${day(-1)}\\) must not be before the start date \\(${day(0)}\\)`),
    );

    const role = await t.call({
      method: 'POST',
      url: '/api/superadmin/admin-roles',
      headers: authHeaders(superAdmin),
      payload: { userId: user.userId, role: 'FLAT_FILE_ADMIN', endDate: day(90) },
    });
    expect(role.statusCode, role.body).toBe(200);
    expect((role.data as unknown as AdminRoleHolder).endDate).toBe(endOfDay(90));
  });

  it('leaves idle sessions out of the super admin’s open sessions, as the account list does', async () => {
    const email = demoEmailForRole('FULL_USER');
    const login = await t.login(email);
    const open = async () =>
      (
        (
          await t.call({
            method: 'GET',
            url: `/api/superadmin/sessions?q=${encodeURIComponent(email)}&pageSize=100`,
            headers: authHeaders(superAdmin),
          })
        ).data as unknown as OpenSessions
      ).rows.map((r) => r.sessionId);
    expect(await open()).toContain(login.sessionId);
    await t.database.db
      .updateTable('user_sessions')
      .set({ last_activity_at: new Date(Date.now() - IDLE_TIMEOUT_MS - 60_000) })
      .where('id', '=', login.sessionId)
      .execute();
    expect(await open()).not.toContain(login.sessionId);
    const listed = (await api.get(`/api/admin/users?q=${encodeURIComponent(email)}`)).data as unknown as AdminUserList;
    expect(listed.rows.find((r) => r.email === email)?.openSessions).toBe(0);
  });

  it('never places a self-registered user in an organisation, whatever name they type', async () => {
    const org = (await api.post('/api/admin/organisations', { name: 'Typed Name Corp' })).data as unknown as Organisation;
    const res = await t.call({
      method: 'POST',
      url: '/api/pub/account/register',
      payload: { email: 'claims@typed.test', firstName: 'Claims', lastName: 'Membership', organisation: 'Typed Name Corp' },
      remoteAddress: '198.51.100.40',
    });
    expect(res.statusCode, res.body).toBe(200);
    const row = await t.database.db
      .selectFrom('users')
      .select(['organisation', 'organisation_id'])
      .where('email', '=', 'claims@typed.test')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ organisation: 'Typed Name Corp', organisation_id: null });
    expect(await organisationRow(org.id)).toMatchObject({ users: 0 });
  });

  it('answers 400 for a page number beyond 100000 on the admin lists and trackers', async () => {
    for (const url of [
      '/api/admin/users?page=1e20',
      '/api/admin/organisations?page=1e20',
      '/api/admin/trackers/logins?page=1e20',
      '/api/admin/users?page=100001',
    ]) {
      const res = await api.get(url);
      expect(res.statusCode, `${url} ${res.body}`).toBe(400);
    }
    expect((await api.get('/api/admin/users?page=100000')).statusCode).toBe(200);
  });

  // Last: on failure it would revoke the only super admin this app has.
  it('refuses to revoke the last super admin whose account is active: a deactivated holder does not count', async () => {
    const holders = async () =>
      (
        (await t.call({ method: 'GET', url: '/api/superadmin/admin-roles', headers: authHeaders(superAdmin) }))
          .data as unknown as AdminRoleHolders
      ).rows;
    const other = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', demoEmailForRole('FLAT_FILE_ONLY'))
      .executeTakeFirstOrThrow();
    const granted = await t.call({
      method: 'POST',
      url: '/api/superadmin/admin-roles',
      headers: authHeaders(superAdmin),
      payload: { userId: other.id, role: 'SUPER_ADMIN', endDate: day(30) },
    });
    expect(granted.statusCode, granted.body).toBe(200);
    await t.database.db.updateTable('users').set({ active: false }).where('id', '=', other.id).execute();
    const own = (await holders()).find((r) => r.email === demoEmailForRole('SUPER_ADMIN') && r.role === 'SUPER_ADMIN')!;
    const refused = await t.call({
      method: 'POST',
      url: `/api/superadmin/admin-roles/${own.subscriptionId}/revoke`,
      headers: authHeaders(superAdmin),
      payload: {},
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(String(refused.data.message)).toMatch(/last super admin with an active account/);
    expect((await t.call({ method: 'GET', url: '/api/superadmin/overview', headers: authHeaders(superAdmin) })).statusCode).toBe(200);
  });
});
