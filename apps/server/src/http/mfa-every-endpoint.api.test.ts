import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Endpoint } from '@kb/contracts/endpoint';
import { ALL_ENDPOINTS, authEndpoints, dashboardEndpoints, mfaEndpoints } from '@kb/contracts/api';
import type { LoginResult } from '@kb/contracts/auth';
import { ERROR_CODES } from '@kb/contracts/errors';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { Role } from '@kb/contracts/roles';
import { ONE_DATABASE, authHeaders, startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';

/**
 * ASVS V2.8, one rule for every endpoint the contracts declare: the session of an account holding an
 * admin role reaches only the login and code-step calls (`beforeSecondFactor`) until it gives its
 * code — even when the account also holds a search subscription, so a stolen password reads nothing.
 */

/** A callable URL for a path pattern (the hook decides before the parameters are validated). */
const concreteUrl = (path: string) =>
  path
    .replace(':product', 'gostar')
    .replace(':code', 'some-code')
    .replace(':tree', 'target')
    .replace(/:[A-Za-z_]+/g, '1');

const call = (t: TestApp, endpoint: Endpoint, login: LoginResult, payload: object = {}) =>
  t.call({
    method: endpoint.method,
    url: concreteUrl(endpoint.path),
    headers: authHeaders(login),
    payload: endpoint.method === 'GET' ? undefined : payload,
  });

const gated = ALL_ENDPOINTS.filter((e) => e.access !== 'public' && e.beforeSecondFactor !== true);
const beforeSecondFactor = ALL_ENDPOINTS.filter((e) => e.beforeSecondFactor === true).map((e) => `${e.method} ${e.path}`);

describe.each(ONE_DATABASE)('admin sessions before the second factor, every endpoint, on %s', (kind) => {
  let t: TestApp;
  /** Password-only sessions: one of an admin without an authenticator, one of an admin with one. */
  const pending = new Map<Role, LoginResult>();

  beforeAll(async () => {
    t = await startTestApp(kind);
    // Both admins also hold a search subscription: their other role must not open anything either.
    for (const role of ['GOSTAR_ADMIN', 'SUPER_ADMIN'] as const) {
      await sql`INSERT INTO subscriptions (user_id, role_name, contract_id, start_date, end_date)
          SELECT id, 'FULL_USER', 'T', now() - interval '1 day', now() + interval '100 days' FROM users WHERE email = ${demoEmailForRole(role)}`.execute(
        t.database.db,
      );
    }
    await t.login(demoEmailForRole('SUPER_ADMIN')); // enrols an authenticator: its next password login owes a code
    pending.set('GOSTAR_ADMIN', await t.passwordLogin(demoEmailForRole('GOSTAR_ADMIN')));
    pending.set('SUPER_ADMIN', await t.passwordLogin(demoEmailForRole('SUPER_ADMIN')));
  }, 120_000);
  afterAll(() => t.close());

  it('marks exactly the login and code-step calls as reachable before the second factor', () => {
    expect(beforeSecondFactor.sort()).toEqual(
      [
        authEndpoints.webApiLogin,
        authEndpoints.closeSession,
        dashboardEndpoints.logout,
        mfaEndpoints.status,
        mfaEndpoints.enrolStart,
        mfaEndpoints.enrolConfirm,
        mfaEndpoints.verify,
      ]
        .map((e) => `${e.method} ${e.path}`)
        .sort(),
    );
  });

  const cases = gated.flatMap((e) =>
    (
      [
        ['GOSTAR_ADMIN', 'enrolment_required', ERROR_CODES.mfaEnrolmentRequired],
        ['SUPER_ADMIN', 'code_required', ERROR_CODES.mfaRequired],
      ] as const
    ).map(([role, state, code]) => [`${e.method} ${e.path}`, role, state, code, e] as const),
  );

  it.each(cases)('%s from a %s session (%s): 403 %s', async (_name, role, state, code, endpoint) => {
    const login = pending.get(role);
    if (!login) throw new Error(`no login for ${role}`);
    expect(login.secondFactor).toBe(state);
    const res = await call(t, endpoint, login);
    expect(res.statusCode).toBe(403);
    expect(res.data.code).toBe(code);
  });

  it('answers the login and code-step calls to those sessions, and still refuses the rest after a wrong code', async () => {
    const superAdmin = pending.get('SUPER_ADMIN');
    const gostar = pending.get('GOSTAR_ADMIN');
    if (!superAdmin || !gostar) throw new Error('no pending logins');
    for (const login of [superAdmin, gostar]) {
      expect((await call(t, authEndpoints.webApiLogin, login)).statusCode).toBe(200);
      const status = await call(t, mfaEndpoints.status, login);
      expect(status.statusCode).toBe(200);
      expect(status.data.state).toBe(login.secondFactor);
    }
    expect((await call(t, mfaEndpoints.enrolStart, gostar)).statusCode).toBe(200);
    const wrong = await call(t, mfaEndpoints.verify, superAdmin, { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect((await call(t, authEndpoints.profile, superAdmin)).data.code).toBe(ERROR_CODES.mfaRequired);
    // Logging out needs no code; the session is closed afterwards.
    const out = await call(t, dashboardEndpoints.logout, gostar, { user_id: gostar.id, sessionid: gostar.sessionId });
    expect(out.statusCode).toBe(200);
    expect((await call(t, mfaEndpoints.status, gostar)).statusCode).toBe(401);
  });
});
