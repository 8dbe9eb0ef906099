import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { PRODUCT_SLUG } from '@kb/contracts/auth';
import type { LoginResult } from '@kb/contracts/auth';
import { DEMO_PASSWORD } from '@kb/contracts/roles';
import { loadConfig } from '../src/config.ts';
import type { AppConfig } from '../src/config.ts';
import type { DatabaseHandle, DatabaseKind } from '../src/db/database.ts';
import { buildApp } from '../src/app.ts';
import { openTestDatabase } from './test-databases.ts';
import { chosenDatabases } from '../../../scripts/test-databases.mjs';
import { STEP_WINDOW, totpCodeAt, totpStep } from '../src/modules/auth/mfa-totp.ts';

/**
 * What the harness keeps of an admin's authenticator, per test app (= per test database): the
 * secret it enrolled with, the recovery codes it was given and the newest 30-second step it used.
 */
export interface HarnessAuthenticator {
  secret: string;
  recoveryCodes: string[];
  lastStep: number;
}

/**
 * The databases chosen for this run: `TEST_DATABASES=pglite,postgres` names them (as Kysely's own
 * tests filter their dialects); by default embedded PGlite, and the PostgreSQL server too when
 * TEST_DATABASE_URL is set. vitest.config.ts runs each chosen database as a project of its own.
 *
 * A test file whose subject is the database (repositories, migrations, SQL-bearing API calls) runs
 * its suites over `DATABASES`; any other file over `ONE_DATABASE` (docs/testing.md has the rule).
 */
export const DATABASES: DatabaseKind[] = chosenDatabases(process.env);

/** For files whose subject is not the database: the first database chosen (PGlite unless only the server is). */
export const ONE_DATABASE: DatabaseKind[] = DATABASES.slice(0, 1);

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: AppConfig;
  /** `app.inject` with JSON parsing of the answer. */
  call(options: InjectOptions & { settleSearches?: boolean }): Promise<LightMyRequestResponse & { data: Record<string, unknown> }>;
  /**
   * A complete login, as the web app makes it: the password, then for an admin role the second
   * factor — on the first login of that admin in this database it enrols an authenticator through
   * the real API (the secret is kept in `authenticators`), later ones answer a TOTP code computed
   * from it (see `secondStep`).
   */
  login(email: string, password?: string, ip?: string): Promise<LoginResult>;
  /** The password step only: an admin's session is left with the second step pending. */
  passwordLogin(email: string, password?: string, ip?: string): Promise<LoginResult>;
  /** Authenticators the harness enrolled, by e-mail. */
  authenticators: Map<string, HarnessAuthenticator>;
  close(): Promise<void>;
}

export { openTestDatabase };
export type { DatabaseContent, TestDatabase } from './test-databases.ts';

export interface StartOptions {
  /** Demo knowledge-base chunks to seed first (1 chunk = 1,000 structures, ~11,000 activities, ~2 s). */
  demoChunks?: number;
}

/** A real server (real database, real argon2, real tokens) answering through `inject`. */
/** The calls that run a search session (counts and log calls of the search page and of a new search by selection). */
const SEARCH_RUN_PATH =
  /^\/api\/guidedsearch\/(allresultscount|newsearchbyselectioncount|lhslogs|activitylhslogs|assaysunloggedlogs|newsearchbyselections\/(activitylogs|assaylogs))$/;

export async function startTestApp(kind: DatabaseKind, env: NodeJS.ProcessEnv = {}, options: StartOptions = {}): Promise<TestApp> {
  const testDb = await openTestDatabase(kind, { users: true, demoChunks: options.demoChunks ?? 0 });
  const handle = testDb.handle;
  // No column snapshot unless a test asks: tests would otherwise share one file in the repository's var/.
  // The test databases carry the demo users, as a demo start does: their password logs in unless a
  // test turns demo accounts off (or sets what would, e.g. a PUBLIC_URL elsewhere, with DEMO_ACCOUNTS).
  const config = loadConfig({
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256',
    SERVER_NAME: 'test',
    SEARCH_COLUMN_SNAPSHOT: '0',
    DEMO_ACCOUNTS: 'on',
    ...env,
  });
  const app = await buildApp({ config, database: handle });
  await app.ready();
  const call: TestApp['call'] = async ({ settleSearches, ...options }) => {
    const response = await app.inject(options);
    let data: Record<string, unknown> = {};
    try {
      data = response.body ? (JSON.parse(response.body) as Record<string, unknown>) : {};
    } catch {
      data = {};
    }
    // A search's counts may be answered before its sets are written (bitmap engine): tests that
    // then read the database see the state results will read, unless they ask for the early answer.
    if (
      settleSearches !== false &&
      response.statusCode === 200 &&
      SEARCH_RUN_PATH.test(String(options.url)) &&
      typeof data.sessionid === 'string'
    ) {
      await app.services.search.settled(data.sessionid);
    }
    return Object.assign(response, { data });
  };
  async function passwordLogin(email: string, password = DEMO_PASSWORD, ip?: string): Promise<LoginResult> {
    const response = await call({
      method: 'POST',
      url: `/api/pub/${PRODUCT_SLUG}/generate-token`,
      payload: { username: email, password },
      ...(ip ? { remoteAddress: ip } : {}),
    });
    if (response.statusCode !== 200) throw new Error(`login ${email} failed: ${response.statusCode} ${response.body}`);
    return response.data as unknown as LoginResult;
  }
  const authenticators = new Map<string, HarnessAuthenticator>();
  return {
    app,
    database: handle,
    config,
    call,
    passwordLogin,
    authenticators,
    async login(email, password = DEMO_PASSWORD, ip) {
      const login = await passwordLogin(email, password, ip);
      if (login.secondFactor === 'not_required' || login.secondFactor === 'passed') return login;
      const key = email.trim().toLowerCase();
      const headers = authHeaders(login);
      const remote = ip ? { remoteAddress: ip } : {};
      const expectOk = (response: LightMyRequestResponse, what: string) => {
        if (response.statusCode !== 200) throw new Error(`${what} for ${email} failed: ${response.statusCode} ${response.body}`);
      };
      if (login.secondFactor === 'enrolment_required') {
        const started = await call({ method: 'POST', url: '/api/account/mfa/enrol', headers, ...remote });
        expectOk(started, 'MFA enrolment');
        const secret = String(started.data.secret);
        const step = totpStep();
        const confirmed = await call({
          method: 'POST',
          url: '/api/account/mfa/enrol/confirm',
          headers,
          payload: { code: totpCodeAt(secret, step) },
          ...remote,
        });
        expectOk(confirmed, 'MFA enrolment confirmation');
        authenticators.set(key, { secret, recoveryCodes: [...(confirmed.data.recoveryCodes as string[])], lastStep: step });
        return { ...login, secondFactor: 'passed' };
      }
      const authenticator = authenticators.get(key);
      if (!authenticator)
        throw new Error(
          `${email} has an authenticator the harness did not enrol: log it in with passwordLogin and answer the code yourself.`,
        );
      const verified = await call({
        method: 'POST',
        url: '/api/account/mfa/verify',
        headers,
        payload: { code: await secondStep(authenticator) },
        ...remote,
      });
      expectOk(verified, 'MFA code step');
      return { ...login, secondFactor: 'passed' };
    },
    async close() {
      await app.close();
      await testDb.close();
    },
  };
}

/**
 * The code for an admin's next login. The server accepts the step of now and one either side, and
 * each step once per account (replay protection): the harness takes the step of now, or the next one
 * when now is used, so two logins of one admin fit in one 30-second step; a third uses
 * one of the recovery codes (single use, as for a person), and only when those are gone does it
 * wait for the next step. Honest: every code goes through the real check.
 */
async function secondStep(authenticator: HarnessAuthenticator): Promise<string> {
  for (;;) {
    const now = totpStep();
    // Not the step before now: the clock may pass a step boundary before the server checks it.
    const step = Math.max(now, authenticator.lastStep + 1);
    if (step <= now + STEP_WINDOW) {
      authenticator.lastStep = step;
      return totpCodeAt(authenticator.secret, step);
    }
    const recovery = authenticator.recoveryCodes.shift();
    if (recovery) return recovery;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** Both base-A headers of spec §7 for a login. */
export function authHeaders(login: LoginResult): Record<string, string> {
  return {
    authorization: `Bearer ${login.nodeToken}`,
    javaauthorization: `Bearer ${login.token}`,
    email: login.username,
    'x-custom-token': login.userHashId,
  };
}
