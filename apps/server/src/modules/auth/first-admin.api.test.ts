import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_SLUG } from '@kb/contracts/auth';
import { DEMO_PASSWORD, demoEmailForRole } from '@kb/contracts/roles';
import { DATABASES, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { FIRST_SUPER_ADMIN_ACTION, FirstAdminSetup } from './first-admin.ts';

/*
 * A server whose demo accounts are off (here: listening beyond loopback, config.ts demoAccounts):
 * the published demo password does not log in, and the first super administrator is made once with
 * the set-up token main.ts prints (docs/operations.md "Deploying on a network"). On both databases:
 * the set-up serialises on an advisory lock and re-reads the accounts inside its transaction.
 */
describe.each(DATABASES)('first super administrator and demo passwords off on %s', (kind) => {
  let t: TestApp;
  const admin = { email: 'first.admin@example.org', firstName: 'Ada', lastName: 'Admin', password: 'marble tundra oboe lantern 42' };
  beforeAll(async () => {
    // The test database carries the demo users, as a server that was first started on loopback would;
    // now it listens beyond loopback, where demo accounts are off (config.test.ts has the rule).
    t = await startTestApp(kind, { HOST: '0.0.0.0', DEMO_ACCOUNTS: 'off' });
  });
  afterAll(() => t?.close());

  const setup = (body: object) => t.call({ method: 'POST', url: '/api/pub/setup', payload: body });

  it('refuses the published demo password at login as a wrong password, counted as one', async () => {
    expect(t.config.demoAccounts).toBe(false);
    const email = demoEmailForRole('FULL_USER');
    const answer = await t.call({
      method: 'POST',
      url: `/api/pub/${PRODUCT_SLUG}/generate-token`,
      payload: { username: email, password: DEMO_PASSWORD },
    });
    expect(answer.statusCode).toBe(403);
    expect(answer.data.message).toBe('The e-mail address or password is not correct.');
    const attempts = await t.database.db
      .selectFrom('login_attempts')
      .select(['failed', 'failure_reason'])
      .where('username', '=', email)
      .execute();
    expect(attempts).toEqual([{ failed: true, failure_reason: 'bad_credentials' }]);
  });

  it('makes the first super administrator once with the set-up token; a wrong or used token is refused', async () => {
    expect((await t.call({ method: 'GET', url: '/api/pub/setup' })).data).toEqual({ required: false });
    // The demo super admin still holds the demo password, which is refused here: nobody can log in as super admin.
    const token = await t.app.services.firstAdminSetup.issueTokenIfNeeded();
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect((await t.call({ method: 'GET', url: '/api/pub/setup' })).data).toEqual({ required: true });

    const wrong = await setup({ ...admin, token: 'not-the-token' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.data.message).toMatch(/set-up token is not right/);
    const weak = await setup({ ...admin, token, password: 'password1234' });
    expect(weak.statusCode).toBe(400);
    const taken = await setup({ ...admin, token, email: demoEmailForRole('SUPER_ADMIN') });
    expect(taken.statusCode).toBe(409);

    const made = await setup({ ...admin, token });
    expect(made.statusCode).toBe(200);
    expect(made.data.email).toBe(admin.email);
    const login = await t.passwordLogin(admin.email, admin.password);
    expect(login.secondFactor).toBe('enrolment_required');
    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('action', '=', FIRST_SUPER_ADMIN_ACTION).execute();
    expect(audit.map((row) => row.target_label)).toEqual([admin.email]);
    const roles = await t.database.db.selectFrom('subscriptions').select('role_name').where('user_id', '=', login.id).execute();
    expect(roles.map((r) => r.role_name)).toEqual(['SUPER_ADMIN']);

    // The token worked once; the status says so; a new start prints none now.
    const again = await setup({ ...admin, token, email: 'second.admin@example.org' });
    expect(again.statusCode).toBe(403);
    expect((await t.call({ method: 'GET', url: '/api/pub/setup' })).data).toEqual({ required: false });
    expect(await t.app.services.firstAdminSetup.issueTokenIfNeeded()).toBeNull();
  });

  it("voids every other server's token once one set-up is done, even when no super admin can log in later", async () => {
    // Two more servers of the database, each with the token it printed at its start.
    const other = new FirstAdminSetup(t.database.db, false);
    const third = new FirstAdminSetup(t.database.db, false);
    const superAdmins = () => t.database.db.selectFrom('subscriptions').select('user_id').where('role_name', '=', 'SUPER_ADMIN');
    await t.database.db.updateTable('users').set({ active: false }).where('id', 'in', superAdmins()).execute();
    const otherToken = await other.issueTokenIfNeeded();
    const thirdToken = await third.issueTokenIfNeeded();
    expect(otherToken).not.toBeNull();
    expect(thirdToken).not.toBeNull();
    const client = { ip: '127.0.0.1', userAgent: null };
    await other.createFirstSuperAdmin({ ...admin, email: 'next.admin@example.org', token: otherToken! }, client);
    // The only super admins deactivated again: the third server's token was issued before that set-up.
    await t.database.db.updateTable('users').set({ active: false }).where('id', 'in', superAdmins()).execute();
    await expect(
      third.createFirstSuperAdmin({ ...admin, email: 'late.admin@example.org', token: thirdToken! }, client),
    ).rejects.toMatchObject({ statusCode: 403 });
    expect(await third.status()).toEqual({ required: false });
  });
});
