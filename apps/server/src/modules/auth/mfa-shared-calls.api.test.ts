import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { LoginResult } from '@kb/contracts/auth';
import { demoEmailForRole } from '@kb/contracts/roles';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';

/*
 * Calls shared by admin and other roles, from an admin session that has not passed the second
 * factor: the admin roles do not count until it does (the handlers' own admin checks included).
 */
describe.each(DATABASES)('admin roles before the second factor on shared calls, on %s', (kind) => {
  let t: TestApp;
  const gostar = demoEmailForRole('GOSTAR_ADMIN');
  const flatFileAdmin = demoEmailForRole('FLAT_FILE_ADMIN');
  let otherOrganisation = 0;
  let otherUserId = 0;

  beforeAll(async () => {
    t = await startTestApp(kind);
    const db = t.database.db;
    // Both admins also hold a non-admin role, so a password-only session still opens shared calls.
    const give = (email: string, role: string) =>
      sql`INSERT INTO subscriptions (user_id, role_name, contract_id, start_date, end_date)
          SELECT id, ${role}, 'T', now() - interval '1 day', now() + interval '100 days' FROM users WHERE email = ${email}`.execute(db);
    await give(gostar, 'FULL_USER');
    await give(flatFileAdmin, 'FLAT_FILE_ONLY');
    otherOrganisation = (await db.insertInto('organisations').values({ name: 'Other Org', seats: 3 }).returning('id').executeTakeFirstOrThrow()).id;
    otherUserId = (await db.selectFrom('users').select('id').where('email', '=', demoEmailForRole('FULL_USER')).executeTakeFirstOrThrow()).id;
  });
  afterAll(() => t.close());

  const get = (login: LoginResult, url: string) => t.call({ method: 'GET', url, headers: authHeaders(login) });
  const otherSubscription = (login: LoginResult) =>
    t.call({ method: 'POST', url: '/api/dashboard/notifications/isSubscriptionRequired', headers: authHeaders(login), payload: { id: otherUserId } });

  it("refuses another organisation's client dashboard and another user's subscription to a GOSTAR_ADMIN session without the code; allows them after it", async () => {
    const passwordOnly = await t.passwordLogin(gostar);
    expect(passwordOnly.secondFactor).not.toBe('passed');
    // The calls that describe the session still see every held role (tokens, the pending step).
    const described = await t.call({ method: 'POST', url: '/api/webapilogin', headers: authHeaders(passwordOnly) });
    expect(described.data.secondFactor).toBe(passwordOnly.secondFactor);
    const renewed = await t.call({ method: 'POST', url: '/api/pub/gostar/regenerate', headers: authHeaders(passwordOnly) });
    expect(renewed.data.secondFactor).toBe(passwordOnly.secondFactor);
    const status = await t.call({ method: 'GET', url: '/api/account/mfa', headers: authHeaders(passwordOnly) });
    expect(status.data).toMatchObject({ required: true, state: passwordOnly.secondFactor });
    const refused = await get(passwordOnly, `/api/admin/client-dashboard?organisationId=${otherOrganisation}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.data.code).toBe('FORBIDDEN');
    // Its own organisation (a FULL_USER's view) still works.
    expect((await get(passwordOnly, '/api/admin/client-dashboard')).statusCode).toBe(200);
    expect((await otherSubscription(passwordOnly)).statusCode).toBe(403);
    // Admin-only calls ask for the second factor.
    expect((await get(passwordOnly, '/api/admin/subscriptions')).data.code).toMatch(/^MFA_(ENROLMENT_)?REQUIRED$/);

    const full = await t.login(gostar);
    expect((await get(full, `/api/admin/client-dashboard?organisationId=${otherOrganisation}`)).statusCode).toBe(200);
    expect((await otherSubscription(full)).statusCode).toBe(200);
  });

  it("refuses everyone's data requests to a FLAT_FILE_ADMIN session without the code; allows them after it", async () => {
    const passwordOnly = await t.passwordLogin(flatFileAdmin);
    const refused = await get(passwordOnly, '/api/security/flatfile/request/fetch?flatFileReqType=all');
    expect(refused.statusCode).toBe(403);
    expect(refused.data.code).toBe('FORBIDDEN');
    expect((await get(passwordOnly, '/api/security/flatfile/request/fetch?flatFileReqType=user')).statusCode).toBe(200);

    const full = await t.login(flatFileAdmin);
    expect((await get(full, '/api/security/flatfile/request/fetch?flatFileReqType=all')).statusCode).toBe(200);
  });
});
