import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { AdminUser, AdminUserList, Organisation, OrganisationList } from '@kb/contracts/admin-accounts';
import { adminAccountEndpoints } from '@kb/contracts/api';
import type { LoginResult } from '@kb/contracts/auth';
import { PRODUCT_SLUG } from '@kb/contracts/auth';
import { ROLES, demoEmailForRole } from '@kb/contracts/roles';
import type { Role } from '@kb/contracts/roles';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { ADMIN_IP, adminClient } from '../../../test/admin-support.ts';
import { linkCodeOf, outboxMark, waitForMail } from '../auth/outbox-reader.test-support.ts';

/*
 * Account administration (issue 16): organisations, users, their actions and the invitation, on
 * both databases. Every change is checked for its one audit row; every refusal for changing nothing.
 */

const NEW_PASSWORD = 'violet tractor umbrella 42';
const inAYear = () => new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);

describe.each(DATABASES)('account administration on %s', (kind) => {
  let t: TestApp;
  let admin: LoginResult;
  const logins = new Map<Role, LoginResult>();
  let api: ReturnType<typeof adminClient>;
  const userId = async (email: string) =>
    (await t.database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

  beforeAll(async () => {
    t = await startTestApp(kind);
    for (const role of ROLES) logins.set(role, await t.login(demoEmailForRole(role)));
    admin = logins.get('GOSTAR_ADMIN')!;
    api = adminClient(t, () => admin);
  });
  afterAll(() => t.close());

  it('refuses every account-administration call to every role but the KB admin, SUPER_ADMIN and FLAT_FILE_ADMIN included', async () => {
    const url = (path: string) => path.replace(/:[A-Za-z]+/g, '999999');
    const before = await api.snapshot();
    for (const endpoint of Object.values(adminAccountEndpoints)) {
      expect(endpoint.access).toEqual(['GOSTAR_ADMIN']);
      for (const role of ROLES.filter((r) => r !== 'GOSTAR_ADMIN')) {
        const res = await api.call(endpoint.method, url(endpoint.path), endpoint.method === 'GET' ? undefined : {}, logins.get(role)!);
        expect(res.statusCode, `${role} ${endpoint.method} ${endpoint.path}`).toBe(403);
      }
      const anonymous = await t.call({
        method: endpoint.method,
        url: url(endpoint.path),
        ...(endpoint.method === 'GET' ? {} : { payload: {} }),
      });
      expect(anonymous.statusCode).toBe(401);
    }
    expect(await api.snapshot()).toBe(before);
  });

  it('creates and edits organisations with unique names ignoring case, one audit row each with the actor and address', async () => {
    const { answer: created, audit } = await api.audited(() =>
      api.post('/api/admin/organisations', { name: 'Acme Pharma', seats: 3, contactEmail: 'Buyer@Acme.test' }),
    );
    expect(created.statusCode, created.body).toBe(200);
    const acme = created.data as unknown as Organisation;
    expect(acme).toMatchObject({
      name: 'Acme Pharma',
      seats: 3,
      contactEmail: 'buyer@acme.test',
      active: true,
      users: 0,
      activeUsers: 0,
      creditBalance: 0,
      nextEndDate: null,
    });
    expect(audit).toMatchObject({
      action: 'organisation.create',
      target_type: 'organisation',
      target_id: String(acme.id),
      actor_id: admin.id,
      actor_email: admin.username,
      ip_address: ADMIN_IP,
    });

    await api.refused(() => api.post('/api/admin/organisations', { name: '  acme PHARMA ' }), 409, /already exists/);
    await api.refused(() => api.post('/api/admin/organisations', { name: '   ' }), 400, /Name the organisation/);
    await api.refused(() => api.post('/api/admin/organisations', { name: 'X', seats: 0 }), 400);
    await api.refused(() => api.post('/api/admin/organisations', { name: 'X', contactEmail: 'not-an-address' }), 400, /valid e-mail/);

    const other = (await api.post('/api/admin/organisations', { name: 'Beta Bio' })).data as unknown as Organisation;
    await api.refused(() => api.put(`/api/admin/organisations/${other.id}`, { name: 'ACME pharma' }), 409, /already exists/);
    await api.refused(() => api.put('/api/admin/organisations/999999', { notes: 'x' }), 404);
    await api.refused(() => api.put(`/api/admin/organisations/${other.id}`, {}), 400, /Nothing to change/);

    const { answer: renamed, audit: renameAudit } = await api.audited(() =>
      api.put(`/api/admin/organisations/${other.id}`, { name: 'Beta Biologics', notes: 'Renewal in May' }),
    );
    expect(renamed.data).toMatchObject({ name: 'Beta Biologics', notes: 'Renewal in May' });
    expect(renameAudit.before).toEqual({ name: 'Beta Bio', notes: '' });
    expect(renameAudit.after).toEqual({ name: 'Beta Biologics', notes: 'Renewal in May' });
    // The same values again change nothing and write no row.
    await api.audited(() => api.put(`/api/admin/organisations/${other.id}`, { name: 'Beta Biologics' }), 0);

    const list = (await api.get('/api/admin/organisations?q=beta')).data as unknown as OrganisationList;
    expect(list).toMatchObject({ total: 1, rows: [{ name: 'Beta Biologics' }] });
    // Pattern characters are text, not wildcards.
    expect(((await api.get('/api/admin/organisations?q=%25')).data as unknown as OrganisationList).total).toBe(0);
    expect((await api.get('/api/admin/organisations?pageSize=500')).statusCode).toBe(400);
  });

  it('creates a user with a subscription, opening credits and an invitation; the mailed link sets the password and the user logs in with the role', async () => {
    const org = (await api.post('/api/admin/organisations', { name: 'Invite Labs', seats: 5 })).data as unknown as Organisation;
    const mark = await outboxMark(t.database.db);
    const { answer, audit } = await api.audited(() =>
      api.post('/api/admin/users', {
        email: 'New.Person@Invite.test',
        firstName: 'New',
        lastName: 'Person',
        organisationId: org.id,
        invite: true,
        subscription: { role: 'EVALUATE_USER', endDate: inAYear(), contractId: 'C-77' },
        credits: 250,
      }),
    );
    expect(answer.statusCode, answer.body).toBe(200);
    const user = answer.data as unknown as AdminUser;
    expect(user).toMatchObject({
      email: 'new.person@invite.test',
      state: 'invited',
      organisationName: 'Invite Labs',
      creditBalance: 250,
      openSessions: 0,
      lockedOut: false,
    });
    expect(user.subscriptions).toMatchObject([{ roleName: 'EVALUATE_USER', contractId: 'C-77', status: 'active', endedAt: null }]);
    expect(audit).toMatchObject({ action: 'user.create', target_id: String(user.userId) });
    expect(audit.after).toMatchObject({
      email: 'new.person@invite.test',
      credits: 250,
      invited: true,
      subscription: { role: 'EVALUATE_USER' },
    });
    const ledger = await t.database.db.selectFrom('credit_ledger').selectAll().where('user_id', '=', user.userId).execute();
    expect(ledger).toMatchObject([{ delta: 250, kind: 'grant', balance_after: 250, actor_id: admin.id }]);

    // Nobody can log in before the link is used: the account has no password.
    const early = await t.call({
      method: 'POST',
      url: `/api/pub/${PRODUCT_SLUG}/generate-token`,
      payload: { username: user.email, password: NEW_PASSWORD },
    });
    expect(early.statusCode).toBe(403);

    const mail = await waitForMail(t.database.db, user.email, mark);
    expect(mail.subject).toMatch(/set your password/i);
    const code = linkCodeOf(mail);
    expect((await t.call({ method: 'GET', url: `/api/pub/account/verify/${code}` })).data).toMatchObject({
      email: user.email,
      purpose: 'register',
    });
    const set = await t.call({ method: 'POST', url: `/api/pub/account/verify/${code}`, payload: { password: NEW_PASSWORD } });
    expect(set.statusCode, set.body).toBe(200);
    const login = await t.login(user.email, NEW_PASSWORD);
    const profile = await t.call({ method: 'GET', url: '/api/profile', headers: authHeaders(login) });
    // Only the granted role: an account an administrator opened gets no self-registration evaluation on top.
    expect((profile.data.subscriptionDetailsList as { roleName: string }[]).map((s) => s.roleName)).toEqual(['EVALUATE_USER']);
    const me = (await api.get(`/api/admin/users/${user.userId}`)).data as unknown as AdminUser;
    expect(me).toMatchObject({ state: 'active', openSessions: 1 });
    expect(me.lastLoginAt).not.toBeNull();
  });

  it('refuses bad user input with 400 or 409 and creates nothing', async () => {
    await api.refused(() => api.post('/api/admin/users', { email: 'nope', firstName: 'A', lastName: 'B' }), 400, /valid e-mail/);
    await api.refused(() => api.post('/api/admin/users', { email: 'a@b.test', firstName: '', lastName: 'B' }), 400, /first name/);
    await api.refused(
      () => api.post('/api/admin/users', { email: demoEmailForRole('FULL_USER'), firstName: 'A', lastName: 'B' }),
      409,
      /already has an account/,
    );
    await api.refused(
      () => api.post('/api/admin/users', { email: 'a@b.test', firstName: 'A', lastName: 'B', organisationId: 999999 }),
      400,
      /no organisation/,
    );
    await api.refused(() => api.post('/api/admin/users', { email: 'a@b.test', firstName: 'A', lastName: 'B', credits: -5 }), 400);
    await api.refused(() => api.post('/api/admin/users', { email: 'a@b.test', firstName: 'A', lastName: 'B', credits: 10_000_001 }), 400);
    await api.refused(
      () =>
        api.post('/api/admin/users', {
          email: 'a@b.test',
          firstName: 'A',
          lastName: 'B',
          subscription: { role: 'FULL_USER', startDate: '2030-05-01', endDate: '2030-04-01' },
        }),
      400,
      /must not be before the start date/,
    );
    // A refused subscription or credit movement takes the whole creation back.
    await api.refused(
      () =>
        api.post('/api/admin/users', {
          email: 'a@b.test',
          firstName: 'A',
          lastName: 'B',
          credits: 10,
          subscription: { role: 'SUPER_ADMIN', endDate: inAYear() },
        }),
      403,
      /super-admin page/,
    );
    await api.refused(() => api.put('/api/admin/users/999999', { firstName: 'X' }), 404);
    await api.refused(() => api.get('/api/admin/users/abc'), 400);
    await api.refused(() => api.post('/api/admin/users/999999/actions', { action: 'deactivate' }), 404);
    await api.refused(() => api.post(`/api/admin/users/${admin.id}/actions`, { action: 'explode' }), 400);
    // A full organisation takes no one more.
    const tiny = (await api.post('/api/admin/organisations', { name: 'Tiny Co', seats: 1 })).data as unknown as Organisation;
    await api.post('/api/admin/users', { email: 'first@tiny.test', firstName: 'A', lastName: 'B', organisationId: tiny.id, invite: false });
    await api.refused(
      () => api.post('/api/admin/users', { email: 'second@tiny.test', firstName: 'A', lastName: 'B', organisationId: tiny.id }),
      400,
      /no seat is free/,
    );
  });

  it('searches, filters, sorts and pages the user list on the server', async () => {
    const org = (await api.post('/api/admin/organisations', { name: 'Zeta Search' })).data as unknown as Organisation;
    for (const [i, name] of ['Ulla', 'Tom', 'Sara'].entries()) {
      await api.post('/api/admin/users', {
        email: `zeta${i}@zeta.test`,
        firstName: name,
        lastName: 'Zetaperson',
        organisationId: org.id,
        invite: false,
        credits: (i + 1) * 10,
      });
    }
    const list = async (query: string) => (await api.get(`/api/admin/users?${query}`)).data as unknown as AdminUserList;
    expect((await list('q=zetaperson')).total).toBe(3);
    expect((await list('q=sara%20zeta')).rows.map((r) => r.email)).toEqual(['zeta2@zeta.test']);
    expect((await list('q=zeta%20search')).total).toBe(3);
    expect((await list(`organisationId=${org.id}&sort=credits&direction=desc`)).rows.map((r) => r.creditBalance)).toEqual([30, 20, 10]);
    const page2 = await list(`organisationId=${org.id}&sort=name&pageSize=2&page=2`);
    expect(page2).toMatchObject({ total: 3, rows: [{ firstName: 'Ulla' }] });
    // Status filters read the dates: the expired demo user has ended, the invited ones have no password.
    expect((await list('status=ended')).rows.map((r) => r.email)).toContain('expired@demo.test');
    expect((await list('status=active')).rows.map((r) => r.email)).not.toContain('expired@demo.test');
    expect((await list('status=expiring')).rows.map((r) => r.email)).toContain('lowcredit@demo.test');
    expect((await list(`status=invited&organisationId=${org.id}`)).total).toBe(3);
    expect((await list(`status=none&organisationId=${org.id}`)).total).toBe(3);
    expect((await list('role=SUPER_ADMIN')).rows.map((r) => r.email)).toEqual([demoEmailForRole('SUPER_ADMIN')]);
    const all = await list('pageSize=200&sort=email');
    expect(all.rows.map((r) => r.email)).toEqual([...all.rows.map((r) => r.email)].sort());
    expect((await api.get('/api/admin/users?role=NOBODY')).statusCode).toBe(400);
    expect((await api.get('/api/admin/users?sort=password')).statusCode).toBe(400);
  });

  it('deactivates (sessions closed at once), reactivates and edits a user, one audit row each', async () => {
    const email = demoEmailForRole('EVALUATE_USER');
    const id = await userId(email);
    const victim = await t.login(email);
    expect((await t.call({ method: 'GET', url: '/api/profile', headers: authHeaders(victim) })).statusCode).toBe(200);

    const { answer, audit } = await api.audited(() => api.post(`/api/admin/users/${id}/actions`, { action: 'deactivate' }));
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.data.user).toMatchObject({ state: 'deactivated', openSessions: 0 });
    expect(audit).toMatchObject({ action: 'user.deactivate', before: { active: true } });
    expect((await t.call({ method: 'GET', url: '/api/profile', headers: authHeaders(victim) })).statusCode).toBe(401);
    const open = await t.database.db
      .selectFrom('user_sessions')
      .select('close_reason')
      .where('user_id', '=', id)
      .where('closed_at', 'is', null)
      .execute();
    expect(open).toEqual([]);
    await expect(t.login(email)).rejects.toThrow(/403/);

    const { answer: back } = await api.audited(() => api.post(`/api/admin/users/${id}/actions`, { action: 'reactivate' }));
    expect(back.data.user).toMatchObject({ state: 'active' });
    const again = await t.login(email);
    expect((await t.call({ method: 'GET', url: '/api/profile', headers: authHeaders(again) })).statusCode).toBe(200);

    const { answer: closed } = await api.audited(() => api.post(`/api/admin/users/${id}/actions`, { action: 'closeSessions' }));
    expect(closed.data.message).toMatch(/session\(s\) of .* were closed/);
    expect((await t.call({ method: 'GET', url: '/api/profile', headers: authHeaders(again) })).statusCode).toBe(401);

    const { answer: edited, audit: editAudit } = await api.audited(() =>
      api.put(`/api/admin/users/${id}`, { firstName: 'Eve', lastName: 'Valuator' }),
    );
    expect(edited.data).toMatchObject({ firstName: 'Eve', lastName: 'Valuator' });
    expect(editAudit.before).toEqual({ firstName: 'Evaluate', lastName: 'User (demo)' });
    expect(editAudit.after).toEqual({ firstName: 'Eve', lastName: 'Valuator' });

    await api.refused(() => api.post(`/api/admin/users/${admin.id}/actions`, { action: 'deactivate' }), 400, /your own account/);
    // Another administrator's account is the super admin's business.
    const superAdminId = await userId(demoEmailForRole('SUPER_ADMIN'));
    const flatFileAdminId = await userId(demoEmailForRole('FLAT_FILE_ADMIN'));
    await api.refused(() => api.post(`/api/admin/users/${superAdminId}/actions`, { action: 'deactivate' }), 403, /super-admin page/);
    await api.refused(() => api.post(`/api/admin/users/${flatFileAdminId}/actions`, { action: 'closeSessions' }), 403);
  });

  it('mails a reset link to an account with a password, and lifts a login lock-out', async () => {
    const email = demoEmailForRole('DOWNLOAD_EVALUATOR');
    const id = await userId(email);
    const mark = await outboxMark(t.database.db);
    const { answer } = await api.audited(() => api.post(`/api/admin/users/${id}/actions`, { action: 'sendPasswordLink' }));
    expect(answer.data.message).toMatch(/new password was mailed/);
    const mail = await waitForMail(t.database.db, email, mark);
    expect((await t.call({ method: 'GET', url: `/api/pub/account/verify/${linkCodeOf(mail)}` })).data).toMatchObject({ purpose: 'reset' });

    // Five wrong passwords from one address lock the account there.
    const ip = '198.51.100.23';
    for (let i = 0; i < 5; i++) {
      await t.call({
        method: 'POST',
        url: `/api/pub/${PRODUCT_SLUG}/generate-token`,
        payload: { username: email, password: 'wrong password' },
        remoteAddress: ip,
      });
    }
    await expect(t.login(email, undefined, ip)).rejects.toThrow(/429/);
    expect(((await api.get(`/api/admin/users/${id}`)).data as unknown as AdminUser).lockedOut).toBe(true);
    const { answer: lifted, audit } = await api.audited(() => api.post(`/api/admin/users/${id}/actions`, { action: 'liftLockout' }));
    expect(lifted.data.user).toMatchObject({ lockedOut: false });
    expect(audit).toMatchObject({ action: 'user.liftLockout', before: { lockedOut: true }, after: { lockedOut: false } });
    expect((await t.login(email, undefined, ip)).username).toBe(email);
    // Nothing to lift: no change, no row.
    await api.audited(() => api.post(`/api/admin/users/${id}/actions`, { action: 'liftLockout' }), 0);
    // New failures after the lift count again.
    for (let i = 0; i < 5; i++) {
      await t.call({
        method: 'POST',
        url: `/api/pub/${PRODUCT_SLUG}/generate-token`,
        payload: { username: email, password: 'wrong password' },
        remoteAddress: '198.51.100.99',
      });
    }
    await expect(t.login(email, undefined, '198.51.100.99')).rejects.toThrow(/429/);
  });

  it('reads subscription periods in every check: a scheduled subscription gives no role yet', async () => {
    const created = (
      await api.post('/api/admin/users', {
        email: 'later@demo.test',
        firstName: 'Later',
        lastName: 'Start',
        invite: false,
        subscription: { role: 'FULL_USER', startDate: new Date(Date.now() + 10 * 86_400_000).toISOString(), endDate: inAYear() },
      })
    ).data as unknown as AdminUser;
    expect(created.subscriptions).toMatchObject([{ status: 'scheduled' }]);
    await t.database.db
      .updateTable('users')
      .set({
        password_hash: (
          await t.database.db.selectFrom('users').select('password_hash').where('id', '=', admin.id).executeTakeFirstOrThrow()
        ).password_hash,
      })
      .where('id', '=', created.userId)
      .execute();
    const res = await t.call({
      method: 'POST',
      url: `/api/pub/${PRODUCT_SLUG}/generate-token`,
      payload: { username: 'later@demo.test', password: 'Demo!2345' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.data.message).toMatch(/subscription has ended/);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM credit_ledger`.execute(t.database.db);
    expect(rows[0]!.n).toBeGreaterThan(0);
    expect(await api.ledgerMismatches()).toEqual([]);
  });
});
