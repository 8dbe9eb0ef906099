import type { Page, Response } from 'playwright-core';
import type { Role } from '@kb/contracts/roles';
import { DEMO_PASSWORD, demoEmailForRole } from '@kb/contracts/roles';
import { roleLanding } from '../route-expectations.ts';
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

  /** Logs in as the demo user of `role` from /login and waits for that role's landing page. */
  async logInAs(role: Role): Promise<void> {
    await this.openLogin();
    await this.submit(demoEmailForRole(role), DEMO_PASSWORD);
    await this.expectLanding(roleLanding(role), `${role} lands on its landing page after login`);
  }
}
