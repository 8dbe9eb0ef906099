import type { BrowserContext, Page } from 'playwright-core';
import { authEndpoints } from '@kb/contracts/api';
import { TOKEN_MISSING_MESSAGE } from '@kb/contracts/errors';
import { DEMO_PASSWORD, ROLES, demoEmailForRole } from '@kb/contracts/roles';
import { AUTH_HEADERS } from '@kb/contracts/session';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerAccountViaApi } from './support/api.ts';
import { cspViolations, newAppContext, screenshot, useBrowser } from './support/browser.ts';
import { LoginPage } from './support/pages/login-page.ts';
import { concreteRoutes, expectedLanding, fillParams, roleLanding } from './support/route-expectations.ts';

const browser = useBrowser();

let context: BrowserContext;
let page: Page;
let login: LoginPage;

beforeEach(async () => {
  context = await newAppContext(browser());
  page = await context.newPage();
  login = new LoginPage(page);
});
afterEach(async () => {
  const violations = [...cspViolations(context)];
  await context.close();
  expect(violations, 'the Content Security Policy blocked nothing').toEqual([]);
});

describe('logging in', () => {
  for (const role of ROLES) {
    it(`takes the demo ${role} to ${roleLanding(role).pathname}`, async () => {
      await login.logInAs(role);
    });
  }

  it('shows the server message for a wrong password and stays on /login', async () => {
    await login.openLogin();
    const response = await login.submit(demoEmailForRole('FULL_USER'), 'not-the-password-1');
    expect(response.status()).toBe(403);
    await login.expectAlert('The e-mail address or password is not correct.');
    expect(new URL(page.url()).pathname).toBe('/login');
    expect((await login.localStorageItems()).token).toBeUndefined();
  });

  it('refuses a user whose subscription has ended and says so', async () => {
    await login.openLogin();
    const response = await login.submit('expired@demo.test', DEMO_PASSWORD);
    expect(response.status()).toBe(403);
    await login.expectAlert(/subscription has ended/i);
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it('warns a user with few credits and a subscription about to end', async () => {
    await login.openLogin();
    await login.submit('lowcredit@demo.test', DEMO_PASSWORD);
    await login.expectLanding(roleLanding('FULL_USER'), 'the low-credit user is a FULL_USER');
    const warning = page.getByTestId('subscription-warning');
    await warning.waitFor();
    const text = await warning.innerText();
    expect(text).toContain('You have 50 downloads remaining.');
    expect(text).toContain('Subscriptions renewal required.');
  });

  it('does not warn a user with plenty of credits and a long subscription', async () => {
    await login.logInAs('FULL_USER');
    // The warning depends on a subscription call: let it finish before concluding there is none.
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('subscription-warning').count()).toBe(0);
  });

  it('locks an account on this address after five wrong passwords, refusing even the right one', async () => {
    // A fresh account: the lock lasts 15 minutes and must not touch the demo users other specs use.
    // (Other addresses are not locked: the API tests cover that, a browser has one address.)
    const password = 'rate limited owl 1';
    const email = await registerAccountViaApi('ratelimit', password);
    await login.openLogin();
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const response = await login.submit(email, `wrong-password-${attempt}`);
      expect(response.status(), `wrong password #${attempt}`).toBe(403);
    }
    const sixth = await login.submit(email, password);
    expect(sixth.status()).toBe(429);
    await login.expectAlert(/too many/i, 'a rate-limit message');
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it('shows a labelled form with autofill hints and its two links, and logs in from the keyboard', async () => {
    await login.openLogin();
    const form = page.locator('form');
    const email = form.getByLabel('E-mail');
    // The label reads "Password *" (required); the visibility toggle's label is "Show password".
    const password = form.getByLabel(/^Password/);
    // Password managers fill the fields only when the types and autocomplete hints are right.
    expect(await email.getAttribute('type')).toBe('email');
    expect(await email.getAttribute('autocomplete')).toBe('username');
    expect(await password.getAttribute('type')).toBe('password');
    expect(await password.getAttribute('autocomplete')).toBe('current-password');
    await screenshot(page, 'login');

    await form.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL((url) => url.pathname === '/forgot-password');
    await page.goBack();
    await form.getByRole('link', { name: 'Register' }).click();
    await page.waitForURL((url) => url.pathname === '/register');
    await page.goBack();
    // Back is a history pop: the URL changes before React swaps the register form (which has its own E-mail field)
    // for the login form, so wait for the login card itself before focusing its field.
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('heading', { name: 'Log in' }).waitFor();

    // Keyboard only: type, Tab to the password, Enter submits.
    const address = demoEmailForRole('FULL_USER');
    await email.focus();
    await page.keyboard.type(address);
    expect(await email.inputValue(), 'the typed address is in the e-mail field').toBe(address);
    await page.keyboard.press('Tab');
    await expect.poll(() => password.evaluate((el) => el === document.activeElement), { message: 'Tab moves to the password' }).toBe(true);
    await page.keyboard.type(DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await login.expectLanding(roleLanding('FULL_USER'), 'Enter in the password field logs in');
  });
});

describe('deep links', () => {
  it('sends a logged-out visitor to /login and back to the deep link after login', async () => {
    const deepLink = fillParams('/leaflet/:idType/:id');
    await login.open(deepLink);
    await login.expectLanding({ pathname: '/login', dataPage: '/login', look: 'other', redirect: deepLink, reason: 'login required' });
    await login.submit(demoEmailForRole('FULL_USER'), DEMO_PASSWORD);
    const target = concreteRoutes().find((r) => r.url === deepLink);
    if (!target) throw new Error(`${deepLink} is not a route`);
    await login.expectLanding(expectedLanding(target, 'FULL_USER'), 'back on the deep link after login');
  });

  it('ignores a deep link the role may not open and lands on the role landing page', async () => {
    await login.open('/export');
    await login.expectLanding({ pathname: '/login', dataPage: '/login', look: 'other', redirect: '/export', reason: 'login required' });
    await login.submit(demoEmailForRole('EVALUATE_USER'), DEMO_PASSWORD);
    await login.expectLanding(roleLanding('EVALUATE_USER'), 'EVALUATE_USER may not export');
  });
});

describe('logging out', () => {
  it('clears browser storage, and protected pages then ask for a login', async () => {
    await login.logInAs('FULL_USER');
    const before = await login.localStorageItems();
    expect(before).toMatchObject({ isLoginInThisBrowser: 'true', email: demoEmailForRole('FULL_USER') });
    const token = before.token;
    expect(token, 'a token in localStorage after login').toBeTruthy();
    expect(before.ntoken, 'a node token in localStorage after login').toBeTruthy();
    await screenshot(page, 'landing-full-user');
    // A cookie the page can see, to check that logout clears cookies as the spec says.
    await context.addCookies([{ name: 'e2e-marker', value: '1', url: new URL(page.url()).origin }]);
    expect(await context.cookies()).toHaveLength(1);

    await login.logOut();
    await login.expectLanding({ pathname: '/login', dataPage: '/login', look: 'other', reason: 'logged out' });
    const local = await login.localStorageItems();
    expect(local.token).toBeUndefined();
    expect(local.email).toBeUndefined();
    expect(local.ntoken).toBeUndefined();
    expect(local.isLoginInThisBrowser).not.toBe('true');
    const everything = JSON.stringify({ local, session: await login.sessionStorageItems() });
    expect(everything.includes(String(token)), 'no copy of the token left in local or session storage').toBe(false);
    expect(await context.cookies()).toEqual([]);

    await login.open('/dashboard');
    await login.expectLanding({
      pathname: '/login',
      dataPage: '/login',
      look: 'other',
      redirect: '/dashboard',
      reason: 'login required after logout',
    });
  });
});

describe('idle timeout', () => {
  it('logs the user out after 30 minutes without activity and closes the session on the server', async () => {
    await page.clock.install();
    await login.logInAs('FULL_USER');
    const stored = await login.localStorageItems();
    const headers = { [AUTH_HEADERS.mainToken]: `Bearer ${stored.token ?? ''}`, [AUTH_HEADERS.nodeToken]: `Bearer ${stored.ntoken ?? ''}` };
    const profile = () => page.request.get(authEndpoints.profile.path, { headers });
    expect((await profile()).status(), 'the token works before the idle timeout').toBe(200);

    await page.clock.fastForward('29:00');
    await login.expectLanding(roleLanding('FULL_USER'), 'still logged in after 29 idle minutes');

    await page.clock.fastForward('02:00');
    await login.expectLanding({ pathname: '/login', dataPage: '/login', look: 'other', reason: 'idle for 31 minutes' });
    expect((await login.localStorageItems()).token).toBeUndefined();

    // The old token must be dead on the server too, not just forgotten by the browser.
    await expect
      .poll(
        async () => {
          const response = await profile();
          return { status: response.status(), message: ((await response.json()) as { message?: string }).message };
        },
        { timeout: 5_000 },
      )
      .toEqual({ status: 401, message: TOKEN_MISSING_MESSAGE });
  });
});
