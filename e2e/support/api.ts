import crypto from 'node:crypto';
import { authEndpoints } from '@kb/contracts/api';
import { outboxMark, verifyLinkOf, waitForMail } from './outbox.ts';
import { sharedServer } from './shared-server.ts';

/**
 * Direct API calls for test set-up and clean-up only (making an account, putting a password back).
 * The behaviour under test always goes through the browser.
 */
function url(pathname: string): string {
  return new URL(pathname, sharedServer().baseUrl).toString();
}

async function post(pathname: string, body: unknown): Promise<Response> {
  return fetch(url(pathname), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

async function expectOk(response: Response, what: string): Promise<unknown> {
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw new Error(`${what} failed with ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

/** A unique address on the demo domain, e.g. `e2e-register-1a2b3c@demo.test`. */
export function uniqueEmail(label: string): string {
  return `e2e-${label}-${crypto.randomBytes(4).toString('hex')}@demo.test`;
}

/** Sets a password through an e-mailed link the way the verify page does. */
async function setPasswordFromLink(link: string, password: string): Promise<void> {
  const code = new URL(link).pathname.split('/').pop() ?? '';
  await expectOk(await post(authEndpoints.verifySetPassword.path.replace(':code', code), { password }), 'Setting a password from a link');
}

/** Registers an account and sets its password: an EVALUATE_USER on a 14-day evaluation. */
export async function registerAccountViaApi(label: string, password: string): Promise<string> {
  const email = uniqueEmail(label);
  const mark = outboxMark();
  await expectOk(
    await post(authEndpoints.register.path, { email, firstName: 'E2e', lastName: label, organisation: 'E2E' }),
    'Registration',
  );
  await setPasswordFromLink(verifyLinkOf(await waitForMail(email, mark)), password);
  return email;
}

/** Puts an account's password back through the forgot-password link (clean-up after a test changed it). */
export async function resetPasswordViaApi(email: string, password: string): Promise<void> {
  const mark = outboxMark();
  await expectOk(await post(authEndpoints.forgotPassword.path, { email }), 'Forgot password');
  await setPasswordFromLink(verifyLinkOf(await waitForMail(email, mark)), password);
}
