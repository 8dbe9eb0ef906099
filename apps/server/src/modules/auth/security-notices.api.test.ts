import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmailForRole } from '@kb/contracts/roles';
import { ONE_DATABASE, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { linkCodeOf, outboxMark, waitForMail } from './outbox-reader.test-support.ts';
import { totpCodeAt, totpStep } from './mfa-totp.ts';
import { securityNotice } from './security-notices.ts';

/*
 * ASVS 2.2.3 and 2.5.5: the owner of an account is told by mail of every change to how it logs in —
 * a password changed or reset, an authenticator set up, recovery codes replaced, a reset by a super
 * administrator — and the notice carries no link or secret. A registration's first password is not
 * a change and sends none.
 */

const CLIENT_IP = '198.51.100.23';

/** Asserts a mail is a notice: the subject, the address, and nothing anyone could use (no link, no code). */
function expectNotice(mail: { subject: string; body: string }, subject: string, ip: string | null) {
  expect(mail.subject).toBe(subject);
  expect(mail.body).toMatch(/on \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
  if (ip) expect(mail.body).toContain(ip);
  expect(mail.body).toContain('Forgot password');
  expect(mail.body).not.toMatch(/https?:|\/verify\//);
}

describe('security notice text', () => {
  it('names the change, the minute in UTC and the address, and greets by first name when known', () => {
    const mail = securityNotice({
      to: 'a@b.test',
      firstName: 'Ada',
      change: 'password_changed',
      at: new Date('2026-11-25T07:55:31Z'),
      ip: '203.0.113.7',
    });
    expect(mail).toMatchObject({ to: 'a@b.test', subject: 'Your password was changed' });
    expect(mail.body).toContain('Hello Ada,');
    expect(mail.body).toContain('The password of your KB Search account was changed on 2026-11-25 07:55 UTC from the address 203.0.113.7.');
    expect(securityNotice({ to: 'a@b.test', change: 'mfa_reset', at: new Date(0), ip: null }).body).not.toContain('from the address');
  });
});

describe.each(ONE_DATABASE)('security notices on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  it('mails the owner when the password is changed on the account page', async () => {
    const email = demoEmailForRole('FULL_USER');
    const login = await t.login(email);
    const mark = await outboxMark(t.database.db);
    const res = await t.call({
      method: 'POST',
      url: '/api/user/change-password',
      headers: authHeaders(login),
      remoteAddress: CLIENT_IP,
      payload: { currentPassword: 'Demo!2345', newPassword: 'granite otter lighthouse' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expectNotice(await waitForMail(t.database.db, email, mark), 'Your password was changed', CLIENT_IP);
  });

  it('mails the owner when a password is reset from a link, but not when a registration sets the first one', async () => {
    const email = demoEmailForRole('PARTIAL_USER');
    let mark = await outboxMark(t.database.db);
    await t.call({ method: 'POST', url: '/api/pub/account/forgot-password', payload: { email } });
    const code = linkCodeOf(await waitForMail(t.database.db, email, mark));
    mark = await outboxMark(t.database.db);
    const set = await t.call({
      method: 'POST',
      url: `/api/pub/account/verify/${code}`,
      remoteAddress: CLIENT_IP,
      payload: { password: 'quiet meadow compass' },
    });
    expect(set.statusCode, set.body).toBe(200);
    expectNotice(await waitForMail(t.database.db, email, mark), 'Your password was reset', CLIENT_IP);

    const newcomer = 'notice.newcomer@pharma.test';
    mark = await outboxMark(t.database.db);
    await t.call({ method: 'POST', url: '/api/pub/account/register', payload: { email: newcomer, firstName: 'New', lastName: 'Comer' } });
    const registration = linkCodeOf(await waitForMail(t.database.db, newcomer, mark));
    mark = await outboxMark(t.database.db);
    expect(
      (await t.call({ method: 'POST', url: `/api/pub/account/verify/${registration}`, payload: { password: 'harbour violet engine' } }))
        .statusCode,
    ).toBe(200);
    await t.login(newcomer, 'harbour violet engine');
    // A later mail to the same address: anything the first password had queued is written by then.
    await t.call({ method: 'POST', url: '/api/pub/account/forgot-password', payload: { email: newcomer } });
    await waitForMail(t.database.db, newcomer, mark);
    const after = await t.database.db
      .selectFrom('outbox')
      .select('subject')
      .where('recipient', '=', newcomer)
      .where('id', '>', mark)
      .execute();
    expect(after.map((m) => m.subject)).toEqual(['Reset your password']);
  });

  it('mails the admin when an authenticator is set up, when recovery codes are replaced and when a super admin resets it', async () => {
    const email = demoEmailForRole('FLAT_FILE_ADMIN');
    let mark = await outboxMark(t.database.db);
    const login = await t.login(email); // the harness enrols an authenticator through the real API
    expectNotice(await waitForMail(t.database.db, email, mark), 'Two-step login was set up', null);

    const authenticator = t.authenticators.get(email);
    if (!authenticator) throw new Error('the harness kept no authenticator');
    // A step after the one the enrolment used (each works once), within one step of now.
    while (authenticator.lastStep + 1 > totpStep() + 1) await new Promise((resolve) => setTimeout(resolve, 500));
    const step = Math.max(totpStep(), authenticator.lastStep + 1);
    authenticator.lastStep = step;
    mark = await outboxMark(t.database.db);
    const replaced = await t.call({
      method: 'POST',
      url: '/api/account/mfa/recovery-codes',
      headers: authHeaders(login),
      remoteAddress: CLIENT_IP,
      payload: { code: totpCodeAt(authenticator.secret, step) },
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expectNotice(await waitForMail(t.database.db, email, mark), 'Your recovery codes were replaced', CLIENT_IP);

    const superAdmin = await t.login(demoEmailForRole('SUPER_ADMIN'));
    mark = await outboxMark(t.database.db);
    const reset = await t.call({
      method: 'POST',
      url: `/api/superadmin/users/${login.id}/mfa/reset`,
      headers: authHeaders(superAdmin),
      remoteAddress: CLIENT_IP,
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const notice = await waitForMail(t.database.db, email, mark);
    expectNotice(notice, 'Your two-step login was reset', null);
    // The super administrator's address is not passed on.
    expect(notice.body).not.toContain(CLIENT_IP);
  }, 90_000);
});
