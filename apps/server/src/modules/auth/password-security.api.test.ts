import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import type { LoginResult } from '@kb/contracts/auth';
import { PASSWORD_POLICY } from '@kb/contracts/auth';
import { DEMO_PASSWORD } from '@kb/contracts/roles';
import { ONE_DATABASE, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { TokenService } from '../../http/tokens.ts';
import { SessionRepository } from '../sessions/session-repository.ts';
import { AuthService } from './auth-service.ts';
import { LoginLimiter } from './login-limiter.ts';
import { Mailer } from './mailer.ts';
import { linkCodeOf, outboxMark, waitForMail } from './outbox-reader.test-support.ts';
import { MfaService } from './mfa-service.ts';
import { SecretBox } from './mfa-secret-box.ts';

/** Records the SQL text (not the values) of every statement run through a Kysely instance. */
class StatementRecorder implements KyselyPlugin {
  readonly statements: string[] = [];
  constructor(private readonly compile: (node: RootOperationNode) => string) {}
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.statements.push(this.compile(args.node));
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
  take(): string[] {
    return this.statements.splice(0);
  }
}

describe.each(ONE_DATABASE)('password security on %s', (kind) => {
  let t: TestApp;
  let webDist: string;
  beforeAll(async () => {
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-web-'));
    fs.mkdirSync(path.join(webDist, 'assets'));
    fs.writeFileSync(
      path.join(webDist, 'index.html'),
      '<!doctype html><title>KB</title><script type="module" src="/assets/app.js"></script>',
    );
    fs.writeFileSync(path.join(webDist, 'assets', 'app.js'), 'console.log("app");');
    fs.writeFileSync(path.join(webDist, 'assets', 'indigoWorker-5d0a61ab-BRRvkZmG.js'), 'self.onmessage = () => {};');
    // A low per-account ceiling keeps the test short; the other limits are the defaults (5 and 20).
    t = await startTestApp(kind, { WEB_DIST: webDist, LOGIN_LIMIT_PER_ACCOUNT: '8' });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  let addressCounter = 0;
  /** A fresh client address, so that tests do not share the per-address counts. */
  const freshAddress = () => `10.77.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`;

  const generate = (username: string, password: string, ip: string) =>
    t.call({ method: 'POST', url: '/api/pub/gostar/generate-token', payload: { username, password }, remoteAddress: ip });
  const setFromLink = (code: string, password: string) =>
    t.call({ method: 'POST', url: `/api/pub/account/verify/${code}`, payload: { password } });
  const changePassword = (login: LoginResult, currentPassword: string, newPassword: string, ip = '127.0.0.1') =>
    t.call({
      method: 'POST',
      url: '/api/user/change-password',
      headers: authHeaders(login),
      payload: { currentPassword, newPassword },
      remoteAddress: ip,
    });

  let accountCounter = 0;
  /** Registers a fresh account and answers its address and the code of its registration link. */
  async function registered(label: string): Promise<{ email: string; code: string }> {
    const email = `${label}.${++accountCounter}@pharma.test`;
    const mark = await outboxMark(t.database.db);
    const res = await t.call({
      method: 'POST',
      url: '/api/pub/account/register',
      payload: { email, firstName: 'Ada', lastName: 'Lovelace' },
      remoteAddress: freshAddress(),
    });
    expect(res.statusCode).toBe(200);
    return { email, code: linkCodeOf(await waitForMail(t.database.db, email, mark)) };
  }

  /** A fresh account with a password, logged in. */
  async function account(label: string, password = 'amber falcon meadow 7'): Promise<{ email: string; login: LoginResult }> {
    const { email, code } = await registered(label);
    expect((await setFromLink(code, password)).statusCode).toBe(200);
    return { email, login: await t.login(email, password, freshAddress()) };
  }

  async function forgotLink(email: string): Promise<string> {
    const mark = await outboxMark(t.database.db);
    expect(
      (await t.call({ method: 'POST', url: '/api/pub/account/forgot-password', payload: { email }, remoteAddress: freshAddress() }))
        .statusCode,
    ).toBe(200);
    return linkCodeOf(await waitForMail(t.database.db, email, mark));
  }

  describe('the password policy', () => {
    it('refuses passwords under 12 characters, counted in code points, saying what to change', async () => {
      const { code } = await registered('short');
      for (const password of ['aaaaaaa1', 'password1', '🔑🔑🔑🔑🔑🔑🔑🔑']) {
        const res = await setFromLink(code, password);
        expect(res.statusCode, password).toBe(400);
        expect(String(res.data.message)).toMatch(/^Use at least 12 characters \(this one has \d+\)/);
      }
    });

    it('refuses common and breached passwords of 12 or more characters with the reason', async () => {
      const { code } = await registered('common');
      for (const password of ['password1234', 'qwertyuiop123', 'iloveyou2024', 'aaaaaaaaaaaa', 'P@ssw0rd1234']) {
        const res = await setFromLink(code, password);
        expect(res.statusCode, password).toBe(400);
        expect(String(res.data.message), password).toMatch(/Choose another one, for example a few unrelated words\.$/);
      }
      expect(String((await setFromLink(code, 'password1234')).data.message)).toMatch(/commonly used password/);
    });

    it('refuses a password that contains the e-mail name', async () => {
      const { email, code } = await registered('marie.curie');
      const res = await setFromLink(code, `my ${email.split('@')[0]?.toUpperCase()} secret`);
      expect(res.statusCode).toBe(400);
      expect(String(res.data.message)).toMatch(/Leave your e-mail name .* out of the password/);
    });

    it('accepts a passphrase with spaces and a 128-character password, whole (no truncation)', async () => {
      const { email, code } = await registered('phrase');
      expect((await setFromLink(code, 'plum tractor velvet 42')).statusCode).toBe(200);
      expect((await t.login(email, 'plum tractor velvet 42', freshAddress())).username).toBe(email);

      const long = Array.from({ length: 9 }, (_, i) => `Zebra-${i}-kettle!`)
        .join('')
        .slice(0, PASSWORD_POLICY.maxLength);
      expect([...long]).toHaveLength(128);
      const tooLong = await setFromLink(await forgotLink(email), `${long}x`);
      expect(tooLong.statusCode).toBe(400);
      expect(String(tooLong.data.message)).toMatch(/at most 128 characters/);
      expect((await setFromLink(await forgotLink(email), long)).statusCode).toBe(200);
      expect((await generate(email, long.slice(0, 127), freshAddress())).statusCode).toBe(403);
      expect((await generate(email, long, freshAddress())).statusCode).toBe(200);
    });

    it('keeps logging in accounts whose older password is shorter than the rule (the demo password)', async () => {
      expect([...DEMO_PASSWORD].length).toBeLessThan(PASSWORD_POLICY.minLength);
      expect((await t.login('full-user@demo.test', DEMO_PASSWORD, freshAddress())).username).toBe('full-user@demo.test');
    });

    it('applies the policy to a password change too', async () => {
      const me = await t.login('gostar-admin@demo.test', DEMO_PASSWORD, freshAddress());
      const res = await changePassword(me, DEMO_PASSWORD, 'letmein12345');
      expect(res.statusCode).toBe(400);
      expect(String(res.data.message)).toMatch(/commonly used password/);
      expect((await t.login('gostar-admin@demo.test', DEMO_PASSWORD, freshAddress())).username).toBe('gostar-admin@demo.test');
    });
  });

  describe('attempt limits', () => {
    it('returns 429 after five wrong current passwords in change-password, even for the right one', async () => {
      const { login } = await account('reauth');
      const ip = freshAddress();
      for (let i = 0; i < 5; i++) {
        const wrong = await changePassword(login, `wrong guess number ${i}`, 'cobalt harbour lantern', ip);
        expect(wrong.statusCode, `attempt ${i + 1}`).toBe(400);
        expect(wrong.data.message).toBe('Your current password is not correct.');
      }
      const limited = await changePassword(login, 'amber falcon meadow 7', 'cobalt harbour lantern', ip);
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBeDefined();
      expect(String(limited.data.message)).toMatch(/Too many wrong passwords/);
    });

    it('lets the owner log in from another address while a stranger is locked out at theirs', async () => {
      const { email } = await account('victim');
      const stranger = freshAddress();
      for (let i = 0; i < 5; i++) expect((await generate(email, `guess-${i}`, stranger)).statusCode).toBe(403);
      expect((await generate(email, 'amber falcon meadow 7', stranger)).statusCode).toBe(429);
      expect((await generate(email, 'amber falcon meadow 7', freshAddress())).statusCode).toBe(200);
    });

    it('stops guessing from many addresses at the per-account ceiling, except where the owner logged in before', async () => {
      const { email } = await account('ceiling');
      const home = freshAddress();
      expect((await generate(email, 'amber falcon meadow 7', home)).statusCode).toBe(200);
      // Eight failures (the ceiling of this test app) from four addresses, two each: no pair limit reached.
      for (let i = 0; i < 4; i++) {
        const ip = freshAddress();
        for (let j = 0; j < 2; j++) expect((await generate(email, `guess-${i}-${j}`, ip)).statusCode).toBe(403);
      }
      const elsewhere = await generate(email, 'amber falcon meadow 7', freshAddress());
      expect(elsewhere.statusCode).toBe(429);
      expect(String(elsewhere.data.message)).toMatch(/from a network where you logged in before/);
      expect((await generate(email, 'amber falcon meadow 7', home)).statusCode).toBe(200);
    });

    it('forgets failures made before the password was reset', async () => {
      const { email } = await account('reset-lock');
      const ip = freshAddress();
      for (let i = 0; i < 5; i++) expect((await generate(email, `guess-${i}`, ip)).statusCode).toBe(403);
      expect((await generate(email, 'amber falcon meadow 7', ip)).statusCode).toBe(429);
      expect((await setFromLink(await forgotLink(email), 'violet ember canyon')).statusCode).toBe(200);
      expect((await generate(email, 'violet ember canyon', ip)).statusCode).toBe(200);
    });
  });

  describe('password links', () => {
    it('keeps one live link per account: a new reset link revokes the older one', async () => {
      const { email } = await account('links');
      const first = await forgotLink(email);
      const second = await forgotLink(email);
      expect((await t.call({ method: 'GET', url: `/api/pub/account/verify/${first}` })).statusCode).toBe(404);
      expect((await setFromLink(first, 'lilac orbit timber')).statusCode).toBe(404);
      expect((await setFromLink(second, 'lilac orbit timber')).statusCode).toBe(200);
    });

    it('revokes outstanding links when the password is changed, and ends the other sessions', async () => {
      const { email, login } = await account('change-revokes');
      const other = await t.login(email, 'amber falcon meadow 7', freshAddress());
      const link = await forgotLink(email);
      expect((await changePassword(login, 'amber falcon meadow 7', 'granite willow ferry')).statusCode).toBe(200);
      expect((await t.call({ method: 'GET', url: `/api/pub/account/verify/${link}` })).statusCode).toBe(404);
      expect((await t.call({ method: 'GET', url: '/api/profile', headers: authHeaders(login) })).statusCode).toBe(200);
      expect((await t.call({ method: 'GET', url: '/api/profile', headers: authHeaders(other) })).statusCode).toBe(401);
    });

    it('revokes the other outstanding links when a link sets the password', async () => {
      const { email } = await account('link-revokes');
      const link = await forgotLink(email);
      // A second, older-style outstanding code of the same account, as if issued before this change.
      await t.database.db
        .insertInto('verification_codes')
        .values({
          code_hash: 'x'.repeat(64),
          user_id: (await t.login(email, 'amber falcon meadow 7', freshAddress())).id,
          purpose: 'reset',
          expires_at: new Date(Date.now() + 3_600_000),
        })
        .execute();
      expect((await setFromLink(link, 'saffron glacier pilot')).statusCode).toBe(200);
      const left = await t.database.db
        .selectFrom('verification_codes')
        .select('code_hash')
        .where('code_hash', '=', 'x'.repeat(64))
        .execute();
      expect(left).toEqual([]);
    });

    it('sends a registration link, not a reset link, to an address registered but never confirmed', async () => {
      const { email, code } = await registered('unconfirmed');
      const again = await forgotLink(email);
      expect((await t.call({ method: 'GET', url: `/api/pub/account/verify/${code}` })).statusCode).toBe(404);
      expect((await t.call({ method: 'GET', url: `/api/pub/account/verify/${again}` })).data).toMatchObject({ email, purpose: 'register' });
    });
  });

  describe('answers that do not tell whether an address has an account', () => {
    function recordingService() {
      const recorder = new StatementRecorder((node) => t.database.db.getExecutor().compileQuery(node, { queryId: 'recorded' }).sql);
      const db = t.database.db;
      const mailer = new Mailer(db, t.app.log);
      const service = new AuthService({
        db: db.withPlugin(recorder),
        tokens: new TokenService('recording-secret-that-is-long-enough-for-hs256'),
        sessions: new SessionRepository(db),
        limiter: new LoginLimiter(db, t.config.loginLimits),
        mailer,
        mfa: new MfaService(
          db,
          new SecretBox('recording-mfa-key'),
          { perAccountAddress: 5, windowMinutes: 15, perAccount: 10, accountWindowMinutes: 60, knownAddressDays: 30 },
          () => undefined,
        ),
        serverName: 'test',
        publicUrl: '',
        demoPasswordAccepted: true,
      });
      return { recorder, mailer, service };
    }
    const client = { ip: '10.99.0.1', userAgent: null };

    it('runs the same SQL for forgot-password whether or not the address has an account, and mails after answering', async () => {
      const { recorder, mailer, service } = recordingService();
      const mark = await outboxMark(t.database.db);
      // Whether the mail's write started before the answer was back. Checked through the mailer,
      // not the outbox table: the write is concurrent with any read the test would make.
      let answered = false;
      let writtenBeforeAnswer: boolean | undefined;
      const send = mailer.send.bind(mailer);
      mailer.send = (mail) => {
        writtenBeforeAnswer ??= !answered;
        return send(mail);
      };
      const known = await service.forgotPassword('full-user@demo.test', client);
      answered = true;
      const knownStatements = recorder.take();
      // Answered, and the mail is not written yet: it waits for the answer to leave.
      expect(mailer.queued).toBe(1);
      const unknown = await service.forgotPassword('nobody-here@demo.test', client);
      const unknownStatements = recorder.take();

      expect(knownStatements.length).toBeGreaterThan(0);
      expect(unknownStatements).toEqual(knownStatements);
      expect(known.message.replace('full-user@demo.test', '<e-mail>')).toBe(unknown.message.replace('nobody-here@demo.test', '<e-mail>'));
      await mailer.flush();
      expect(writtenBeforeAnswer).toBe(false);
      expect((await waitForMail(t.database.db, 'full-user@demo.test', mark)).subject).toBe('Reset your password');
      const requests = await t.database.db.selectFrom('link_requests').select('email').where('ip_address', '=', client.ip).execute();
      expect(requests.map((r) => r.email)).toEqual(expect.arrayContaining(['full-user@demo.test', 'nobody-here@demo.test']));
    });

    it('runs the same SQL for a registration of a new and of an existing address', async () => {
      const { recorder, mailer, service } = recordingService();
      await service.register({ email: 'evaluate-user@demo.test', firstName: 'A', lastName: 'B' }, client);
      const existing = recorder.take();
      await service.register({ email: `brand.new.${Date.now()}@pharma.test`, firstName: 'A', lastName: 'B' }, client);
      const fresh = recorder.take();
      expect(fresh).toEqual(existing);
      await mailer.flush();
      expect((await waitForMail(t.database.db, 'evaluate-user@demo.test')).subject).toBe('You already have an account');
    });

    it('runs the same SQL for a login of an unknown address and a wrong password', async () => {
      const { recorder, service } = recordingService();
      await expect(
        service.login({ username: 'partial-user@demo.test', password: 'not the password' }, { ip: '10.99.0.2', userAgent: null }),
      ).rejects.toThrow(/not correct/);
      const wrong = recorder.take();
      await expect(
        service.login({ username: 'nobody-at-all@demo.test', password: 'not the password' }, { ip: '10.99.0.3', userAgent: null }),
      ).rejects.toThrow(/not correct/);
      expect(recorder.take()).toEqual(wrong);
    });
  });

  describe('tokens', () => {
    it('refuses each kind of token in the other kind’s header', async () => {
      const login = await t.login('full-user@demo.test', DEMO_PASSWORD, freshAddress());
      const profile = (headers: Record<string, string>) => t.call({ method: 'GET', url: '/api/profile', headers });
      expect((await profile({ authorization: `Bearer ${login.nodeToken}` })).statusCode).toBe(200);
      expect((await profile({ javaauthorization: `Bearer ${login.token}` })).statusCode).toBe(200);
      const nodeAsMain = await profile({ javaauthorization: `Bearer ${login.nodeToken}` });
      expect(nodeAsMain.statusCode).toBe(401);
      expect(nodeAsMain.data.message).toBe('token is missing');
      expect((await profile({ authorization: `Bearer ${login.token}` })).statusCode).toBe(401);
      expect((await profile({ authorization: `Bearer ${login.token}`, javaauthorization: `Bearer ${login.nodeToken}` })).statusCode).toBe(
        401,
      );
    });
  });

  describe('security headers', () => {
    it('sends the CSP, nosniff, Referrer-Policy and no-store on personal API answers', async () => {
      const login = await t.login('full-user@demo.test', DEMO_PASSWORD, freshAddress());
      const res = await t.call({ method: 'GET', url: '/api/profile', headers: authHeaders(login) });
      expect(res.statusCode).toBe(200);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
      expect(csp).not.toContain("'unsafe-eval'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cache-control']).toBe('no-store');
      // The login answer carries the tokens: never cached either.
      const tokens = await generate('full-user@demo.test', DEMO_PASSWORD, freshAddress());
      expect(tokens.headers['cache-control']).toBe('no-store');
    });

    it('keeps the caching of static files and the app page, with the same CSP', async () => {
      const asset = await t.call({ method: 'GET', url: '/assets/app.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).not.toContain('no-store');
      expect(String(asset.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
      expect(asset.headers['x-content-type-options']).toBe('nosniff');
      const page = await t.call({ method: 'GET', url: '/search' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['cache-control']).not.toContain('no-store');
      expect(String(page.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    });

    it('allows eval only in Ketcher’s Indigo worker, whose own answer sets its policy', async () => {
      const worker = await t.call({ method: 'GET', url: '/assets/indigoWorker-5d0a61ab-BRRvkZmG.js' });
      expect(worker.statusCode).toBe(200);
      expect(String(worker.headers['content-security-policy'])).toContain("script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval'");
      const page = await t.call({ method: 'GET', url: '/assets/app.js' });
      expect(String(page.headers['content-security-policy'])).not.toContain("'unsafe-eval'");
    });

    it('serves Swagger UI at /api/docs under the same CSP', async () => {
      const docs = await t.call({ method: 'GET', url: '/api/docs/' });
      expect(docs.statusCode).toBe(200);
      expect(docs.body).toContain('swagger-ui-bundle.js');
      expect(docs.body).not.toMatch(/<script>(?!\s*<\/script>)/);
      expect(String(docs.headers['content-security-policy'])).toContain("script-src 'self'");
    });
  });
});
