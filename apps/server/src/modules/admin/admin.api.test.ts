import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_SLUG } from '@kb/contracts/auth';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { AdminSubscriptionsResponse, SuperAdminOverview } from '@kb/contracts/admin';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';

/*
 * The admin pages' calls, answered by AdminService (users and subscriptions joined in SQL). The
 * expected answers are rebuilt here the plain way — both tables read whole and matched in memory,
 * as the handlers did before — so the one-statement version must answer exactly the same.
 */
describe.each(DATABASES)('admin calls on %s', (kind) => {
  let t: TestApp;
  /** SUPER_ADMIN reads the overview; GOSTAR_ADMIN the subscriptions (the contract's access; trackers: modules/trackers). */
  let superAdmin: Record<string, string>;
  let headers: Record<string, string>;
  beforeAll(async () => {
    t = await startTestApp(kind);
    // A second, later subscription with a sub-millisecond end: order and time format both show.
    const user = await t.database.db.selectFrom('users').select('id').where('email', '=', 'lowcredit@demo.test').executeTakeFirstOrThrow();
    await t.database.db
      .insertInto('subscriptions')
      .values({
        user_id: user.id,
        role_name: 'FLAT_FILE_USER',
        contract_id: 'C-extra',
        end_date: '2031-05-06T07:08:09.123456Z',
        position: 9,
      })
      .execute();
    await t.call({
      method: 'POST',
      url: `/api/pub/${PRODUCT_SLUG}/generate-token`,
      payload: { username: 'lowcredit@demo.test', password: 'wrong' },
    });
    superAdmin = authHeaders(await t.login(demoEmailForRole('SUPER_ADMIN')));
    headers = authHeaders(await t.login(demoEmailForRole('GOSTAR_ADMIN')));
  });
  afterAll(() => t.close());

  it('lists every user with their subscriptions in order, as the in-memory join did', async () => {
    const db = t.database.db;
    const users = await db.selectFrom('users').selectAll().orderBy('email').execute();
    const subscriptions = await db.selectFrom('subscriptions').selectAll().orderBy('user_id').orderBy('position').orderBy('id').execute();
    const logins = await db.selectFrom('login_attempts').select(['user_id', 'login_date']).where('failed', '=', false).execute();
    const lastLogin = (id: number) =>
      logins
        .filter((l) => l.user_id === id)
        .map((l) => l.login_date.getTime())
        .sort((a, b) => b - a)[0];
    const expected: AdminSubscriptionsResponse = {
      rows: users.map((u) => ({
        userId: u.id,
        userName: u.email,
        firstName: u.first_name,
        lastName: u.last_name,
        creditBalance: u.credit_balance,
        active: u.active,
        lastLoginAt: lastLogin(u.id) === undefined ? null : new Date(lastLogin(u.id)!).toISOString(),
        subscriptions: subscriptions
          .filter((s) => s.user_id === u.id)
          .map((s) => ({
            roleName: s.role_name,
            endDate: s.end_date.toISOString(),
            contractId: s.contract_id,
            havingFlatFileAccess: s.having_flat_file_access,
          })),
      })),
    };
    const res = await t.call({ method: 'GET', url: '/api/admin/subscriptions', headers });
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual(expected);
    const lowCredit = (res.data as AdminSubscriptionsResponse).rows.find((r) => r.userName === 'lowcredit@demo.test');
    expect(lowCredit?.subscriptions.at(-1)).toEqual({
      roleName: 'FLAT_FILE_USER',
      endDate: '2031-05-06T07:08:09.123Z',
      contractId: 'C-extra',
      havingFlatFileAccess: false,
    });
    expect(expected.rows.some((r) => r.lastLoginAt !== null)).toBe(true);
  });

  it('counts users, open sessions, roles and failed logins for the super admin', async () => {
    const db = t.database.db;
    const users = await db.selectFrom('users').select('id').execute();
    const res = await t.call({ method: 'GET', url: '/api/superadmin/overview', headers: superAdmin });
    expect(res.statusCode).toBe(200);
    const overview = res.data as SuperAdminOverview;
    expect(overview).toMatchObject({ database: kind, users: users.length, failedLoginsLastDay: 1 });
    expect(overview.activeSessions).toBeGreaterThanOrEqual(2);
    expect(overview.usersPerRole.SUPER_ADMIN).toBe(1);
    expect(overview.usersPerRole.FLAT_FILE_USER).toBeGreaterThanOrEqual(1);
  });
});
