import fs from 'node:fs';
import path from 'node:path';
import { HOTP, Secret } from 'otpauth';
import { authEndpoints, mfaEndpoints } from '@kb/contracts/api';
import type { LoginResult } from '@kb/contracts/auth';
import { PRODUCT_SLUG } from '@kb/contracts/auth';
import { buildPath } from '@kb/contracts/endpoint';
import { TOTP_PARAMETERS } from '@kb/contracts/mfa';
import { DEMO_PASSWORD } from '@kb/contracts/roles';
import { AUTH_HEADERS } from '@kb/contracts/session';
import { RESULTS_DIR } from './server.ts';

/**
 * The admin roles' second factor in the browser tests (contracts mfa.ts). The first login of a demo
 * admin on a server enrols an authenticator through the real API; its secret is kept in a file so
 * that every spec file (each runs in its own process) of the run can answer the code step with a
 * TOTP computed from it, as an authenticator app would.
 *
 * Replay protection: the server takes each 30-second step once per account, and the step of now or
 * one either side. A login takes the step of now, or the next one when now is used (two logins of
 * an admin per step); a third within the same step uses one of the recovery codes enrolment gave;
 * only when those are gone does it wait for the next step.
 */
export const AUTHENTICATORS_PREFIX = 'e2e-authenticators-';

/** One file per server: each is used by one worker at a time, so no two processes write the same file at once. */
function authenticatorsFile(baseUrl: string): string {
  const url = new URL(baseUrl);
  return path.join(RESULTS_DIR, `${AUTHENTICATORS_PREFIX}${url.hostname}-${url.port}.json`);
}

export interface StoredAuthenticator {
  secret: string;
  lastStep: number;
  recoveryCodes: string[];
}

/** A server's authenticators, by e-mail. */
type Store = Record<string, StoredAuthenticator>;

function readStore(baseUrl: string): Store {
  try {
    return JSON.parse(fs.readFileSync(authenticatorsFile(baseUrl), 'utf8')) as Store;
  } catch {
    return {};
  }
}

function writeStore(baseUrl: string, store: Store): void {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(authenticatorsFile(baseUrl), JSON.stringify(store, null, 2));
}

export function storedAuthenticator(baseUrl: string, email: string): StoredAuthenticator | undefined {
  return readStore(baseUrl)[email.toLowerCase()];
}

export function saveAuthenticator(baseUrl: string, email: string, value: StoredAuthenticator | null): void {
  const store = readStore(baseUrl);
  if (value) store[email.toLowerCase()] = value;
  else delete store[email.toLowerCase()];
  writeStore(baseUrl, store);
}

export function totpStep(at: number = Date.now()): number {
  return Math.floor(at / 1000 / TOTP_PARAMETERS.periodSeconds);
}

/** The code an authenticator app shows for a step (RFC 6238 through `otpauth`). */
export function totpCode(secret: string, step: number = totpStep()): string {
  return HOTP.generate({
    secret: Secret.fromBase32(secret.replace(/\s+/g, '')),
    algorithm: TOTP_PARAMETERS.algorithm,
    digits: TOTP_PARAMETERS.digits,
    counter: step,
  });
}

/** A code the server takes now for this admin (see above), recorded as used. */
export async function nextSecondFactorCode(baseUrl: string, email: string): Promise<string> {
  for (;;) {
    const stored = storedAuthenticator(baseUrl, email);
    if (!stored) throw new Error(`No authenticator of ${email} is known for ${baseUrl}: log it in through the e2e/support helpers first.`);
    const now = totpStep();
    const step = Math.max(now, stored.lastStep + 1);
    if (step <= now + 1) {
      saveAuthenticator(baseUrl, email, { ...stored, lastStep: step });
      return totpCode(stored.secret, step);
    }
    const [recovery, ...rest] = stored.recoveryCodes;
    if (recovery) {
      saveAuthenticator(baseUrl, email, { ...stored, recoveryCodes: rest });
      return recovery;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

async function post(baseUrl: string, pathname: string, body: unknown, headers: Record<string, string> = {}): Promise<unknown> {
  const response = await fetch(new URL(pathname, baseUrl), {
    method: 'POST',
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${pathname} answered ${response.status}: ${text}`);
  return JSON.parse(text) as unknown;
}

export function loginHeaders(login: Pick<LoginResult, 'token' | 'nodeToken' | 'username'>): Record<string, string> {
  return {
    [AUTH_HEADERS.mainToken]: `Bearer ${login.token}`,
    [AUTH_HEADERS.nodeToken]: `Bearer ${login.nodeToken}`,
    [AUTH_HEADERS.email]: login.username,
  };
}

/**
 * Passes the second step of a fresh login through the API: enrols an authenticator on the first
 * login of an admin on this server (keeping its secret), else answers a code.
 */
export async function completeSecondFactor(baseUrl: string, login: LoginResult): Promise<LoginResult> {
  if (login.secondFactor === 'not_required' || login.secondFactor === 'passed') return login;
  const headers = loginHeaders(login);
  if (login.secondFactor === 'enrolment_required') {
    const enrolment = (await post(baseUrl, mfaEndpoints.enrolStart.path, undefined, headers)) as { secret: string };
    const step = totpStep();
    const confirmed = (await post(baseUrl, mfaEndpoints.enrolConfirm.path, { code: totpCode(enrolment.secret, step) }, headers)) as {
      recoveryCodes: string[];
    };
    saveAuthenticator(baseUrl, login.username, { secret: enrolment.secret, lastStep: step, recoveryCodes: confirmed.recoveryCodes });
  } else {
    await post(baseUrl, mfaEndpoints.verify.path, { code: await nextSecondFactorCode(baseUrl, login.username) }, headers);
  }
  return { ...login, secondFactor: 'passed' };
}

/** A complete API login (password, then the second factor for admins). */
export async function apiLogin(baseUrl: string, email: string, password = DEMO_PASSWORD): Promise<LoginResult> {
  const login = (await post(baseUrl, buildPath(authEndpoints.generateToken.path, { product: PRODUCT_SLUG }), {
    username: email,
    password,
  })) as LoginResult;
  return completeSecondFactor(baseUrl, login);
}

/** Makes sure an admin has an authenticator this run knows, so that a browser login meets the code step. */
export async function ensureAuthenticator(baseUrl: string, email: string): Promise<void> {
  if (!storedAuthenticator(baseUrl, email)) await apiLogin(baseUrl, email);
}
