import type { BrowserContext, Page } from 'playwright-core';
import { DEMO_PASSWORD, demoEmailForRole } from '@kb/contracts/roles';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetPasswordViaApi, uniqueEmail } from './support/api.ts';
import { newAppContext, useBrowser } from './support/browser.ts';
import { outboxMark, verifyLinkOf, waitForMail } from './support/outbox.ts';
import { ChangePasswordPage, ForgotPasswordPage, RegisterPage, SetPasswordPage } from './support/pages/account-pages.ts';
import { LoginPage } from './support/pages/login-page.ts';
import { roleLanding } from './support/route-expectations.ts';

const browser = useBrowser();

let context: BrowserContext;
let page: Page;

beforeEach(async () => {
  context = await newAppContext(browser());
  page = await context.newPage();
});
afterEach(async () => {
  await context.close();
});

/** Demo accounts whose password a test changed; put back afterwards so other specs can log in. */
const changedPasswords = new Set<string>();
afterAll(async () => {
  for (const email of changedPasswords) await resetPasswordViaApi(email, DEMO_PASSWORD);
});

describe('registration', () => {
  it('e-mails a link that sets the password and starts an evaluation landing on /search', async () => {
    const email = uniqueEmail('register');
    const register = new RegisterPage(page);
    await register.openRegister();
    const mark = outboxMark();
    await register.register({ firstName: 'Ada', lastName: 'Tester', email, organisation: 'E2E Labs' });
    const mail = await waitForMail(email, mark);
    expect(mail.body).toContain('14-day evaluation');

    const setPassword = new SetPasswordPage(page);
    await setPassword.openLink(verifyLinkOf(mail));
    await setPassword.expectLanding({ pathname: new URL(verifyLinkOf(mail)).pathname, dataPage: '/pub/account/verify/:code', look: 'other', reason: 'the link opens the password page' });
    const password = 'Evaluate-2345';
    await setPassword.setPassword(password);

    const login = new LoginPage(page);
    await login.openLogin();
    await login.submit(email, password);
    await login.expectLanding(roleLanding('EVALUATE_USER'), 'a new registrant evaluates, so lands on /search');
  });

  it('refuses a link once it has been used', async () => {
    const email = uniqueEmail('reuse');
    const register = new RegisterPage(page);
    await register.openRegister();
    const mark = outboxMark();
    await register.register({ firstName: 'Bea', lastName: 'Tester', email, organisation: 'E2E Labs' });
    const link = verifyLinkOf(await waitForMail(email, mark));
    const setPassword = new SetPasswordPage(page);
    await setPassword.openLink(link);
    await setPassword.setPassword('Evaluate-2345');

    await setPassword.open(new URL(link).pathname);
    await setPassword.expectAlert(/invalid/i, 'the page says the link is used up');
  });
});

describe('forgotten password', () => {
  it('e-mails a reset link whose new password then logs the user in', async () => {
    const role = 'DOWNLOAD_EVALUATOR';
    const email = demoEmailForRole(role);
    const forgot = new ForgotPasswordPage(page);
    await forgot.openForgotPassword();
    const mark = outboxMark();
    await forgot.requestLink(email);
    const mail = await waitForMail(email, mark);

    changedPasswords.add(email);
    const setPassword = new SetPasswordPage(page);
    await setPassword.openLink(verifyLinkOf(mail));
    const password = 'Reset-pass-77';
    await setPassword.setPassword(password);

    const login = new LoginPage(page);
    await login.openLogin();
    const old = await login.submit(email, DEMO_PASSWORD);
    expect(old.status(), 'the old password no longer works').toBe(403);
    await login.submit(email, password);
    await login.expectLanding(roleLanding(role), 'logged in with the new password');
  });
});

describe('changing the password', () => {
  it('lets a full user change the password, which the next login then needs', async () => {
    const role = 'FULL_USER';
    const email = demoEmailForRole(role);
    const next = 'Changed-pass-88';
    const login = new LoginPage(page);
    await login.logInAs(role);

    const change = new ChangePasswordPage(page);
    await change.openChangePassword();
    await change.expectLanding({ pathname: '/change-password', dataPage: '/change-password', look: 'other', reason: 'FULL_USER may change the password' });
    changedPasswords.add(email);
    await change.changePassword(DEMO_PASSWORD, next);
    await page.getByText(/password changed/i).waitFor();

    await change.logOut();
    await login.expectLanding({ pathname: '/login', dataPage: '/login', look: 'other', reason: 'logged out' });
    await login.submit(email, next);
    await login.expectLanding(roleLanding(role), 'logged in with the changed password');

    // Change it back through the same page, so the demo login keeps its documented password.
    await change.openChangePassword();
    await change.changePassword(next, DEMO_PASSWORD);
    await page.getByText(/password changed/i).waitFor();
    changedPasswords.delete(email);
  });

  it('rejects a wrong current password with the server message', async () => {
    const login = new LoginPage(page);
    await login.logInAs('FLAT_FILE_ONLY');
    const change = new ChangePasswordPage(page);
    await change.openChangePassword();
    await change.changePassword('Not-the-current-1', 'Whatever-pass-1');
    await change.expectAlert('Your current password is not correct.');
  });
});
