import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LoginResult } from '@kb/contracts/auth';
import type { MfaEnrolment, MfaStatus, RecoveryCodes } from '@kb/contracts/mfa';
import { RECOVERY_CODE_COUNT, WRONG_CODE_MESSAGE } from '@kb/contracts/mfa';
import { demoEmailForRole } from '@kb/contracts/roles';
import { ONE_DATABASE, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { totpCodeAt, totpStep } from './mfa-totp.ts';

/*
 * The second factor of the admin roles through the real API: enrolment, the second login step with
 * replay protection, single-use recovery codes, the attempt limit, the refusal of admin-only calls
 * before the second step, and a super admin's audited reset.
 */
describe.each(ONE_DATABASE)('admin second factor on %s', (kind) => {
  let t: TestApp;
  const gostar = demoEmailForRole('GOSTAR_ADMIN');
  let secret = '';
  let recoveryCodes: string[] = [];
  /** The step the enrolment confirmation used. */
  let confirmedStep = 0;
  /** The newest step this test used for GOSTAR_ADMIN. */
  let lastStep = 0;
  /**
   * A code the server takes now: a step after the last one used. Codes change every 30 seconds and
   * each step works once, so instead of waiting for the next step the clock moves to it (Date only,
   * faked below in this thread, which the app's TOTP check reads; the database thread keeps real
   * time, and nothing here compares the two).
   */
  async function freshCode(): Promise<string> {
    const step = Math.max(totpStep(), lastStep + 1);
    if (step > totpStep() + 1) vi.setSystemTime((step - 1) * 30_000 + 1_000);
    lastStep = step;
    return totpCodeAt(secret, step);
  }

  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t.close();
    vi.useRealTimers();
  });

  const adminCall = (login: LoginResult) => t.call({ method: 'GET', url: '/api/admin/subscriptions', headers: authHeaders(login) });
  const post = (login: LoginResult, url: string, payload?: object) =>
    t.call({ method: 'POST', url, headers: authHeaders(login), ...(payload ? { payload } : {}) });

  it('answers "not_required" to a login without an admin role', async () => {
    const login = await t.passwordLogin(demoEmailForRole('FULL_USER'));
    expect(login.secondFactor).toBe('not_required');
    const status = await t.call({ method: 'GET', url: '/api/account/mfa', headers: authHeaders(login) });
    expect(status.data).toEqual({ required: false, enrolled: false, state: 'not_required', recoveryCodesLeft: null } satisfies MfaStatus);
  });

  it('opens an admin without an authenticator with enrolment required: every call but the login and code steps answers 403', async () => {
    const login = await t.passwordLogin(gostar);
    expect(login.secondFactor).toBe('enrolment_required');
    const refused = await adminCall(login);
    expect(refused.statusCode).toBe(403);
    expect(refused.data.code).toBe('MFA_ENROLMENT_REQUIRED');
    // Calls open to every signed-in user too: the password alone reads nothing (mfa-every-endpoint.api.test.ts has them all).
    for (const url of ['/api/profile', '/api/user/loginhistory']) {
      const shared = await t.call({ method: 'GET', url, headers: authHeaders(login) });
      expect(shared.statusCode, url).toBe(403);
      expect(shared.data.code, url).toBe('MFA_ENROLMENT_REQUIRED');
    }
    expect((await t.call({ method: 'GET', url: '/api/account/mfa', headers: authHeaders(login) })).statusCode).toBe(200);
  });

  it('enrols: secret, otpauth URI and QR code; a wrong first code is refused; the right one answers recovery codes once', async () => {
    const login = await t.passwordLogin(gostar);
    const started = await post(login, '/api/account/mfa/enrol');
    expect(started.statusCode).toBe(200);
    const enrolment = started.data as MfaEnrolment;
    expect(enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrolment.otpauthUri).toMatch(/^otpauth:\/\/totp\/KB%20Search:gostar-admin%40demo\.test\?/);
    expect(enrolment.otpauthUri).toContain(`secret=${enrolment.secret}`);
    expect(enrolment.otpauthUri).toMatch(/algorithm=SHA1&digits=6&period=30/);
    expect(enrolment.qrDataUrl).toMatch(/^data:image\/png;base64,/);
    secret = enrolment.secret;

    // Stored encrypted: the secret is not in the row.
    const row = await t.database.db
      .selectFrom('user_mfa as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['m.secret_encrypted', 'm.confirmed_at'])
      .where('u.email', '=', gostar)
      .executeTakeFirstOrThrow();
    expect(row.secret_encrypted).not.toContain(secret);
    expect(row.confirmed_at).toBeNull();

    const now = totpStep();
    const wrong = totpCodeAt(secret, now + 5);
    const refused = await post(login, '/api/account/mfa/enrol/confirm', { code: wrong });
    expect(refused.statusCode).toBe(400);
    expect(refused.data).toMatchObject({ code: 'MFA_WRONG_CODE', message: WRONG_CODE_MESSAGE });
    expect((await adminCall(login)).statusCode).toBe(403);

    const notDigits = await post(login, '/api/account/mfa/enrol/confirm', { code: 'abcdef' });
    expect(notDigits.statusCode).toBe(400);
    expect(notDigits.data.code).toBe('VALIDATION');

    confirmedStep = now;
    lastStep = now;
    const confirmed = await post(login, '/api/account/mfa/enrol/confirm', { code: totpCodeAt(secret, now) });
    expect(confirmed.statusCode).toBe(200);
    recoveryCodes = (confirmed.data as RecoveryCodes).recoveryCodes;
    expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of recoveryCodes) expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    const stored = await t.database.db.selectFrom('mfa_recovery_codes').select('code_hash').execute();
    expect(stored.map((s) => s.code_hash)).not.toContain(recoveryCodes[0]);

    // The session passed the second step with its enrolment.
    expect((await adminCall(login)).statusCode).toBe(200);
    const status = await t.call({ method: 'GET', url: '/api/account/mfa', headers: authHeaders(login) });
    expect(status.data).toEqual({
      required: true,
      enrolled: true,
      state: 'passed',
      recoveryCodesLeft: RECOVERY_CODE_COUNT,
    } satisfies MfaStatus);
    expect(status.body).not.toContain(secret);

    // The secret is never answered again.
    const again = await post(login, '/api/account/mfa/enrol');
    expect(again.statusCode).toBe(409);
    expect(again.body).not.toContain(secret);
  });

  it('asks for the code at the next login; refuses admin-only calls until then; refuses a code already used (replay)', async () => {
    const login = await t.passwordLogin(gostar);
    expect(login.secondFactor).toBe('code_required');
    const refused = await adminCall(login);
    expect(refused.statusCode).toBe(403);
    expect(refused.data.code).toBe('MFA_REQUIRED');

    // The code of the enrolment's step was used by the confirmation.
    const replay = await post(login, '/api/account/mfa/verify', { code: totpCodeAt(secret, confirmedStep) });
    expect(replay.statusCode).toBe(400);
    expect(replay.data.code).toBe('MFA_WRONG_CODE');
    expect(String(replay.data.message)).toMatch(/used already/);
    expect((await adminCall(login)).statusCode).toBe(403);

    const code = await freshCode();
    const verified = await post(login, '/api/account/mfa/verify', { code });
    expect(verified.statusCode).toBe(200);
    expect(verified.data).toEqual({ method: 'totp', recoveryCodesLeft: RECOVERY_CODE_COUNT });
    expect((await adminCall(login)).statusCode).toBe(200);
    const regenerated = await t.call({ method: 'POST', url: '/api/webapilogin', headers: authHeaders(login) });
    expect((regenerated.data as LoginResult).secondFactor).toBe('passed');

    // The same code again, from another login of the same account: refused.
    const other = await t.passwordLogin(gostar);
    const again = await post(other, '/api/account/mfa/verify', { code });
    expect(again.statusCode).toBe(400);
    expect((await adminCall(other)).statusCode).toBe(403);
  }, 70_000);

  it('takes each recovery code once, written as people type it', async () => {
    const code = recoveryCodes[0]!;
    const first = await t.passwordLogin(gostar);
    const used = await post(first, '/api/account/mfa/verify', { code: ` ${code.toLowerCase().replace('-', ' ')} ` });
    expect(used.statusCode).toBe(200);
    expect(used.data).toEqual({ method: 'recovery_code', recoveryCodesLeft: RECOVERY_CODE_COUNT - 1 });
    expect((await adminCall(first)).statusCode).toBe(200);

    const second = await t.passwordLogin(gostar);
    const reused = await post(second, '/api/account/mfa/verify', { code });
    expect(reused.statusCode).toBe(400);
    expect(String(reused.data.message)).toMatch(/works once/);
    expect((await adminCall(second)).statusCode).toBe(403);
  });

  it('replaces the recovery codes on request with a current code: the old ones stop working', async () => {
    const login = await t.passwordLogin(gostar);
    expect((await post(login, '/api/account/mfa/verify', { code: recoveryCodes[1]! })).statusCode).toBe(200);
    const fresh = await post(login, '/api/account/mfa/recovery-codes', { code: await freshCode() });
    expect(fresh.statusCode).toBe(200);
    const codes = (fresh.data as RecoveryCodes).recoveryCodes;
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    const later = await t.passwordLogin(gostar);
    expect((await post(later, '/api/account/mfa/verify', { code: recoveryCodes[2]! })).statusCode).toBe(400);
    expect((await post(later, '/api/account/mfa/verify', { code: codes[0]! })).statusCode).toBe(200);
    recoveryCodes = codes.slice(1);
  }, 70_000);

  it('answers 429 after five wrong codes, even to a right one, and counts per account', async () => {
    // FLAT_FILE_ADMIN enrols through the harness; its password-only logins then try codes.
    await t.login(demoEmailForRole('FLAT_FILE_ADMIN'));
    const authenticator = t.authenticators.get(demoEmailForRole('FLAT_FILE_ADMIN'));
    if (!authenticator) throw new Error('the harness kept no authenticator');
    const login = await t.passwordLogin(demoEmailForRole('FLAT_FILE_ADMIN'));
    for (let i = 0; i < 5; i += 1) {
      const wrong = await post(login, '/api/account/mfa/verify', {
        code: '000000' === totpCodeAt(authenticator.secret, totpStep()) ? '111111' : '000000',
      });
      expect(wrong.statusCode).toBe(400);
    }
    const limited = await post(login, '/api/account/mfa/verify', { code: totpCodeAt(authenticator.secret, authenticator.lastStep + 1) });
    expect(limited.statusCode).toBe(429);
    expect(limited.data.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await adminCall(login)).statusCode).toBe(403);
  });

  it("lets a super admin reset another admin's second factor, with one audit row; not their own", async () => {
    const superAdmin = await t.login(demoEmailForRole('SUPER_ADMIN'));
    const gostarLogin = await t.passwordLogin(gostar);
    expect((await post(gostarLogin, '/api/account/mfa/verify', { code: recoveryCodes[0]! })).statusCode).toBe(200);
    expect((await adminCall(gostarLogin)).statusCode).toBe(200);
    const target = await t.database.db.selectFrom('users').select('id').where('email', '=', gostar).executeTakeFirstOrThrow();

    const own = await post(superAdmin, `/api/superadmin/users/${superAdmin.id}/mfa/reset`);
    expect(own.statusCode).toBe(400);
    const before = await t.database.db.selectFrom('audit_log').select('id').execute();

    const reset = await post(superAdmin, `/api/superadmin/users/${target.id}/mfa/reset`);
    expect(reset.statusCode).toBe(200);
    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'mfa.reset').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor_email: demoEmailForRole('SUPER_ADMIN'),
      target_type: 'mfa',
      target_id: String(target.id),
      target_label: gostar,
    });
    expect(audit[0]!.after).toEqual({ enrolled: false });
    expect((await t.database.db.selectFrom('audit_log').select('id').execute()).length).toBe(before.length + 1);

    // The admin's open session lost the second step; their next login enrols again.
    const refused = await adminCall(gostarLogin);
    expect(refused.statusCode).toBe(403);
    expect(refused.data.code).toBe('MFA_ENROLMENT_REQUIRED');
    expect((await t.passwordLogin(gostar)).secondFactor).toBe('enrolment_required');
    expect(await t.database.db.selectFrom('mfa_recovery_codes').select('id').where('user_id', '=', target.id).execute()).toEqual([]);

    const nothing = await post(superAdmin, `/api/superadmin/users/${target.id}/mfa/reset`);
    expect(nothing.statusCode).toBe(404);
    expect(await t.database.db.selectFrom('audit_log').select('id').where('action', '=', 'mfa.reset').execute()).toHaveLength(1);
  });

  it('evaluates at most five of ten parallel wrong codes; the others answer 429', async () => {
    const superAdmin = demoEmailForRole('SUPER_ADMIN');
    await t.login(superAdmin);
    const authenticator = t.authenticators.get(superAdmin);
    if (!authenticator) throw new Error('the harness kept no authenticator');
    const login = await t.passwordLogin(superAdmin);
    const wrong = totpCodeAt(authenticator.secret, totpStep()) === '000000' ? '111111' : '000000';
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(login, '/api/account/mfa/verify', { code: wrong })));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429, 429, 429, 429]);
    const user = await t.database.db.selectFrom('users').select('id').where('email', '=', superAdmin).executeTakeFirstOrThrow();
    expect(await t.database.db.selectFrom('mfa_failures').select('id').where('user_id', '=', user.id).execute()).toHaveLength(5);
  });

  it('stores recovery codes as keyed hashes (HMAC under the MFA key), not plain SHA-256', async () => {
    const { createHash } = await import('node:crypto');
    const user = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', demoEmailForRole('FLAT_FILE_ADMIN'))
      .executeTakeFirstOrThrow();
    // FLAT_FILE_ADMIN enrolled through the harness in the attempt-limit case above (or here, run alone).
    if (!t.authenticators.has(demoEmailForRole('FLAT_FILE_ADMIN'))) await t.login(demoEmailForRole('FLAT_FILE_ADMIN'));
    const stored = await t.database.db.selectFrom('mfa_recovery_codes').select('code_hash').where('user_id', '=', user.id).execute();
    expect(stored.length).toBeGreaterThan(0);
    for (const { code_hash } of stored) expect(code_hash).toMatch(/^[0-9a-f]{64}$/);
    // The harness keeps the codes its enrolment answered: none hashes to its row without the key.
    const codes = t.authenticators.get(demoEmailForRole('FLAT_FILE_ADMIN'))?.recoveryCodes ?? [];
    expect(codes.length).toBeGreaterThan(0);
    for (const code of codes) {
      const plain = createHash('sha256')
        .update(`${user.id}:${code.replace('-', '')}`)
        .digest('hex');
      expect(stored.map((s) => s.code_hash)).not.toContain(plain);
    }
  });
});

/*
 * Someone who holds an admin's password and tries codes must not lock the admin out (docs/security.md
 * "Second factor"): wrong codes count per account and address; the account's ceiling spares the
 * addresses where it passed the second factor lately, and never stops a recovery code.
 */
describe.each(ONE_DATABASE)('second-factor limits a password holder cannot turn on the owner, on %s', (kind) => {
  let t: TestApp;
  const owner = demoEmailForRole('SUPER_ADMIN');
  /** The owner's usual address (the harness's logins come from inject's default). */
  const HOME = '127.0.0.1';
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  const verify = (login: LoginResult, code: string, ip: string) =>
    t.call({ method: 'POST', url: '/api/account/mfa/verify', headers: authHeaders(login), payload: { code }, remoteAddress: ip });

  it('keeps the owner in from a known address, and by recovery code from anywhere, while strangers hit their limits', async () => {
    await t.login(owner, undefined, HOME);
    const authenticator = t.authenticators.get(owner);
    if (!authenticator) throw new Error('the harness kept no authenticator');
    const wrong = () => (totpCodeAt(authenticator.secret, totpStep()) === '000000' ? '111111' : '000000');

    // A stranger's address: five wrong codes, then 429 there.
    const first = await t.passwordLogin(owner, undefined, '203.0.113.7');
    for (let i = 0; i < 5; i += 1) expect((await verify(first, wrong(), '203.0.113.7')).statusCode).toBe(400);
    const limited = await verify(first, wrong(), '203.0.113.7');
    expect(limited.statusCode).toBe(429);
    expect(limited.data.message).toMatch(/^Too many wrong codes\. Try again in 1[45] minutes\.$/);

    // A second address has its own five; then the account's ceiling (ten) refuses a third address.
    const second = await t.passwordLogin(owner, undefined, '203.0.113.8');
    for (let i = 0; i < 5; i += 1) expect((await verify(second, wrong(), '203.0.113.8')).statusCode).toBe(400);
    const third = await t.passwordLogin(owner, undefined, '203.0.113.9');
    const ceiling = await verify(third, wrong(), '203.0.113.9');
    expect(ceiling.statusCode).toBe(429);
    expect(ceiling.data.message).toMatch(/Too many wrong codes for this account\. .*recovery codes/);
    expect(Number(ceiling.headers['retry-after'])).toBeGreaterThan(0);

    // The owner on a trip (an address never used): a code meets the ceiling, a recovery code does not.
    const travelling = await t.passwordLogin(owner, undefined, '198.51.100.4');
    expect((await verify(travelling, totpCodeAt(authenticator.secret, authenticator.lastStep + 1), '198.51.100.4')).statusCode).toBe(429);
    const recovery = await verify(travelling, authenticator.recoveryCodes.pop()!, '198.51.100.4');
    expect(recovery.statusCode).toBe(200);
    expect(recovery.data.method).toBe('recovery_code');

    // Ten wrong codes again from elsewhere (the recovery code ended the account's count): the
    // ceiling is back for new addresses, yet the owner at home, with a right code, is not refused.
    for (let i = 0; i < 5; i += 1) await verify(third, wrong(), '203.0.113.10');
    for (let i = 0; i < 5; i += 1) await verify(third, wrong(), '203.0.113.11');
    expect((await verify(await t.passwordLogin(owner, undefined, '203.0.113.12'), wrong(), '203.0.113.12')).data.message).toMatch(
      /for this account/,
    );
    const home = await t.login(owner, undefined, HOME);
    expect(home.secondFactor).toBe('passed');
    const status = await t.call({ method: 'GET', url: '/api/account/mfa', headers: authHeaders(home), remoteAddress: HOME });
    expect(status.data.state).toBe('passed');
  });
});
