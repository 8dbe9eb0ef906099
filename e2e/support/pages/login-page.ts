import type { Page, Response } from 'playwright-core';
import type { Role } from '@kb/contracts/roles';
import { ADMIN_ROLES, DEMO_PASSWORD, demoEmailForRole } from '@kb/contracts/roles';
import type { LoginResult } from '@kb/contracts/auth';
import { roleLanding } from '../route-expectations.ts';
import { ensureAuthenticator, nextSecondFactorCode } from '../second-factor.ts';
import { AppPage } from './app-page.ts';

const LOGIN_CALL = /\/api\/pub\/[^/]+\/generate-token$/;

/** /login: fields "E-mail" and "Password", button "Log in", errors in role="alert". */
export class LoginPage extends AppPage {
  constructor(page: Page) {
    super(page);
  }

  /** Opens /login, optionally with a `?redirect=` target, and waits for the form. */
  async openLogin(redirect?: string): Promise<void> {
    await this.open(redirect === undefined ? '/login' : `/login?redirect=${encodeURIComponent(redirect)}`);
    await this.page.getByLabel('E-mail').waitFor();
  }

  /** Fills and submits the form; answers the login call's response once it arrived. */
  async submit(email: string, password: string): Promise<Response> {
    await this.page.getByLabel('E-mail').fill(email);
    await this.page.getByLabel(/^Password/).fill(password);
    const [response] = await Promise.all([
      this.page.waitForResponse((r) => LOGIN_CALL.test(new URL(r.url()).pathname) && r.request().method() === 'POST'),
      this.page.locator('form').getByRole('button', { name: 'Log in' }).click(),
    ]);
    return response;
  }

  /** The code step of an admin's login: fills the code field and presses "Verify". */
  async submitCode(code: string): Promise<void> {
    const field = this.page.getByLabel('Code from your authenticator app');
    await field.fill(code);
    await this.page.getByRole('button', { name: 'Verify' }).click();
  }

  /**
   * Logs in as the demo user of `role` from /login and waits for that role's landing page. An admin
   * answers the code step with a code from its authenticator (enrolled through the API on its first
   * login on this server; support/second-factor.ts).
   */
  async logInAs(role: Role): Promise<void> {
    const email = demoEmailForRole(role);
    const admin = ADMIN_ROLES.includes(role);
    await this.openLogin();
    const baseUrl = new URL(this.page.url()).origin;
    if (admin) await ensureAuthenticator(baseUrl, email);
    const response = await this.submit(email, DEMO_PASSWORD);
    const login = (await response.json()) as LoginResult;
    if (login.secondFactor === 'code_required') await this.submitCode(await nextSecondFactorCode(baseUrl, email));
    await this.expectLanding(roleLanding(role), `${role} lands on its landing page after login`);
  }
}
