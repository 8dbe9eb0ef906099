import fs from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mfaEndpoints } from '@kb/contracts/api';
import { RECOVERY_CODE_COUNT, WRONG_CODE_MESSAGE } from '@kb/contracts/mfa';
import { DEMO_PASSWORD, demoEmailForRole } from '@kb/contracts/roles';
import { ApiSession } from './support/api-session.ts';
import { newAppContext, screenshot, useBrowser } from './support/browser.ts';
import { LoginPage } from './support/pages/login-page.ts';
import { roleLanding } from './support/route-expectations.ts';
import {
  apiLogin,
  ensureAuthenticator,
  nextSecondFactorCode,
  saveAuthenticator,
  storedAuthenticator,
  totpCode,
  totpStep,
} from './support/second-factor.ts';
import { sharedServer } from './support/shared-server.ts';

/*
 * Two-step login of the admin roles in the browser (issues 16 and 35, contracts mfa.ts): an admin
 * without an authenticator sets one up on the login page before anything opens, reads the key off
 * the page (as someone who cannot scan the QR code would), confirms with a code computed from it,
 * saves the recovery codes and goes on; the next login asks for a code; after a super admin's reset
 * the admin's open page is sent to /account/mfa to set it up again.
 */
const browser = useBrowser();
const ROLE = 'FLAT_FILE_ADMIN';
const email = demoEmailForRole(ROLE);
const baseUrl = () => sharedServer().baseUrl;
let context: BrowserContext | undefined;
let superAdminContext: BrowserContext | undefined;

beforeAll(async () => {
  // FLAT_FILE_ADMIN starts without an authenticator: a super admin resets whatever earlier specs enrolled.
  await ensureAuthenticator(baseUrl(), email);
  const target = await apiLogin(baseUrl(), email);
  const superAdmin = await ApiSession.logIn(baseUrl(), 'SUPER_ADMIN');
  await superAdmin.call(mfaEndpoints.reset, { params: { userId: target.id } });
  saveAuthenticator(baseUrl(), email, null);
}, 120_000);

afterAll(async () => {
  await context?.close();
  await superAdminContext?.close();
});

async function freshPage(): Promise<{ page: Page; login: LoginPage }> {
  await context?.close();
  context = await newAppContext(browser());
  const page = await context.newPage();
  return { page, login: new LoginPage(page) };
}

describe('admin two-step login', () => {
  it('has an admin without an authenticator set one up as part of the login, then goes on to the admin page', async () => {
    const { page, login } = await freshPage();
    await login.openLogin();
    const response = await login.submit(email, DEMO_PASSWORD);
    expect(((await response.json()) as { secondFactor: string }).secondFactor).toBe('enrolment_required');
    // The password alone opens nothing: the login page itself asks for the set-up before any page.

    const start = page.getByRole('button', { name: 'Set up my authenticator app' });
    await start.focus();
    await page.keyboard.press('Enter');
    await page.getByAltText('QR code to add KB Search to your authenticator app').waitFor();
    expect(await page.getByAltText('QR code to add KB Search to your authenticator app').getAttribute('src')).toMatch(
      /^data:image\/png;base64,/,
    );
    const secret = (await page.getByTestId('mfa-secret').innerText()).replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);

    // A wrong code is refused with a clear message; nothing is enrolled.
    const field = page.getByLabel('6-digit code');
    await field.fill(totpCode(secret, totpStep() + 10));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await login.expectAlert(WRONG_CODE_MESSAGE);

    // The right code, typed and sent with Enter.
    const step = totpStep();
    await field.fill(totpCode(secret, step));
    await field.press('Enter');
    const panel = page.getByTestId('recovery-codes');
    await panel.waitFor();
    const codes = await panel.locator('code').allInnerTexts();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    await expect(page.getByRole('button', { name: 'Copy' }).isVisible()).resolves.toBe(true);
    // Download saves them as a text file, every code on its line.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toBe('kb-search-recovery-codes.txt');
    const saved = fs.readFileSync(await download.path(), 'utf8').split('\n');
    for (const code of codes) expect(saved).toContain(code);
    await screenshot(page, 'admin-mfa-recovery-codes');
    // Later specs log this admin in with this authenticator.
    saveAuthenticator(baseUrl(), email, { secret, lastStep: step, recoveryCodes: codes });

    expect(new URL(page.url()).pathname).toBe('/login');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await login.expectLanding(roleLanding(ROLE), 'the admin goes on to their landing page once the authenticator is set up');
  });

  it('asks for the code at the next login: a wrong one is refused, the app code lets the admin in', async () => {
    const { page, login } = await freshPage();
    await login.openLogin();
    const response = await login.submit(email, DEMO_PASSWORD);
    expect(((await response.json()) as { secondFactor: string }).secondFactor).toBe('code_required');
    const field = page.getByLabel('Code from your authenticator app');
    await field.waitFor();

    const stored = storedAuthenticator(baseUrl(), email);
    if (!stored) throw new Error('the enrolment test kept no authenticator');
    // A code of another moment (ten steps ahead): not accepted.
    await login.submitCode(totpCode(stored.secret, totpStep() + 10));
    await login.expectAlert(WRONG_CODE_MESSAGE);
    expect(new URL(page.url()).pathname).toBe('/login');

    await login.submitCode(await nextSecondFactorCode(baseUrl(), email));
    await login.expectLanding(roleLanding(ROLE), 'the admin lands on the admin page after the code step');
  });

  it("lets a super admin reset the admin's two-step login from the admin-roles tab; the admin's open page is sent to set it up again", async () => {
    // The admin's page of the previous test stays open in its own browser context.
    const adminPage = context?.pages()[0];
    if (!adminPage) throw new Error('the previous test left no admin page open');
    superAdminContext = await newAppContext(browser());
    const page = await superAdminContext.newPage();
    await new LoginPage(page).logInAs('SUPER_ADMIN');
    await page.goto(new URL('/superadmin?tab=roles', baseUrl()).href);
    const row = page.locator(`[data-testid="admin-roles"] tbody tr[data-email="${email}"][data-role="${ROLE}"]`);
    await row.waitFor();
    expect(await row.getByTestId('mfa-state').innerText()).toMatch(/^set up$/i);
    // Not for oneself.
    const own = page.locator(`[data-testid="admin-roles"] tbody tr[data-email="${demoEmailForRole('SUPER_ADMIN')}"]`).first();
    expect(await own.getByRole('button', { name: /^Reset two-step login of/ }).isDisabled()).toBe(true);

    await row.getByRole('button', { name: `Reset two-step login of ${email}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Reset two-step login', exact: true }).click();
    await page.getByText(`The second factor of ${email} is reset`).waitFor();
    await page.waitForFunction(
      (selector) => document.querySelector(selector)?.textContent?.trim().toLowerCase() === 'not set up',
      `[data-testid="admin-roles"] tbody tr[data-email="${email}"][data-role="${ROLE}"] [data-testid="mfa-state"]`,
    );
    saveAuthenticator(baseUrl(), email, null);

    // The admin's next admin call is refused for want of the second factor: the app opens the set-up for that page.
    await adminPage.reload();
    await adminPage.waitForURL((url) => url.pathname === '/account/mfa' && url.searchParams.get('redirect') === '/admin/trackers');
    await adminPage.getByRole('button', { name: 'Set up my authenticator app' }).waitFor();
  });
});
