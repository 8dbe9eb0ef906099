import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { waitUntil } from '../wait.ts';
import { AppPage } from './app-page.ts';

/*
 * The account forms. Their exact labels are the web app's choice; these page objects rely only on
 * accessible labels by meaning and on the form's submit button.
 */

async function submitForm(page: Page): Promise<void> {
  await page.locator('form button[type="submit"]').first().click();
}

/** /register: first name, last name, e-mail, organisation. */
export class RegisterPage extends AppPage {
  async openRegister(): Promise<void> {
    await this.open('/register');
    await this.page.getByLabel(/first name/i).waitFor();
  }

  async register(input: { firstName: string; lastName: string; email: string; organisation: string }): Promise<void> {
    await this.page.getByLabel(/first name/i).fill(input.firstName);
    await this.page.getByLabel(/last name/i).fill(input.lastName);
    await this.page.getByLabel(/e-?mail/i).fill(input.email);
    await this.page.getByLabel(/organi[sz]ation/i).fill(input.organisation);
    await submitForm(this.page);
  }
}

/** /forgot-password: one e-mail field. */
export class ForgotPasswordPage extends AppPage {
  async openForgotPassword(): Promise<void> {
    await this.open('/forgot-password');
    await this.page.getByLabel(/e-?mail/i).waitFor();
  }

  async requestLink(email: string): Promise<void> {
    await this.page.getByLabel(/e-?mail/i).fill(email);
    await submitForm(this.page);
  }
}

/** /pub/account/verify/:code: the password and its confirmation, if the page asks for one. */
export class SetPasswordPage extends AppPage {
  async openLink(link: string): Promise<void> {
    // The link names the server's public origin; open its path on the origin under test.
    const url = new URL(link);
    await this.open(url.pathname + url.search);
    await this.page.locator('input[type="password"]').first().waitFor();
  }

  async setPassword(password: string): Promise<void> {
    const fields = this.page.locator('input[type="password"]');
    for (const field of await fields.all()) await field.fill(password);
    await submitForm(this.page);
    // The server answers "Your password is set. You can log in now."; the page shows it or moves to /login.
    const confirmed = async () =>
      new URL(this.page.url()).pathname === '/login' || (await this.page.getByText(/password is set/i).count()) > 0;
    expect(await waitUntil(confirmed, (done) => done), 'the verify page confirms the new password').toBe(true);
  }
}

/** /change-password: the current password first, then the new one (and its confirmation). */
export class ChangePasswordPage extends AppPage {
  async openChangePassword(): Promise<void> {
    await this.open('/change-password');
    await this.page.locator('input[type="password"]').first().waitFor();
  }

  async changePassword(current: string, next: string): Promise<void> {
    const fields = await this.page.locator('input[type="password"]').all();
    expect(fields.length, 'the change-password form has a current and a new password field').toBeGreaterThanOrEqual(2);
    const [currentField, ...newFields] = fields;
    await currentField?.fill(current);
    for (const field of newFields) await field.fill(next);
    await submitForm(this.page);
  }
}
