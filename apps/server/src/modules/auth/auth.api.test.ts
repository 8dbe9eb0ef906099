import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { decodeJwt } from 'jose';
import { ROLES, demoEmailForRole } from '@kb/contracts/roles';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';

describe.each(DATABASES)('login and tokens on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { LOGIN_LIMIT_PER_ADDRESS: '8' });
  });
  afterAll(() => t.close());

  const generate = (username: string, password: string, ip = '10.0.0.1') =>
    t.call({ method: 'POST', url: '/api/pub/gostar/generate-token', payload: { username, password }, remoteAddress: ip });

  it('answers health with the database kind and an empty data set', async () => {
    const res = await t.call({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ status: 'ok', database: kind, dataset: { structures: 0, activities: 0 } });
  });

  it.each(ROLES)('logs in the %s demo user and puts the role in both tokens', async (role) => {
    const login = await t.login(demoEmailForRole(role));
    expect(login.username).toBe(demoEmailForRole(role));
    expect(login.applicationDiff).toBe('test');
    for (const token of [login.token, login.nodeToken]) {
      const claims = decodeJwt(token);
      expect(claims.roles).toEqual([role]);
      expect(claims.sid).toBe(login.sessionId);
    }
    expect(decodeJwt(login.token).typ).toBe('main');
    expect(decodeJwt(login.nodeToken).typ).toBe('node');
  });

  it('accepts the e-mail address in any case', async () => {
    const res = await generate('FULL-USER@Demo.Test', 'Demo!2345');
    expect(res.statusCode).toBe(200);
  });

  it('fails with status 403 and a message for a wrong password, and records the attempt', async () => {
    const res = await generate('gostar-admin@demo.test', 'wrong-password', '10.0.0.9');
    expect(res.statusCode).toBe(403);
    expect(res.data).toEqual({ message: 'The e-mail address or password is not correct.', code: 'BAD_CREDENTIALS' });
    const row = await t.database.db
      .selectFrom('login_attempts')
      .selectAll()
      .where('username', '=', 'gostar-admin@demo.test')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ failed: true, failure_reason: 'bad_credentials', ip_address: '10.0.0.9' });
  });

  it('fails with status 403 for an unknown account with the same message as a wrong password', async () => {
    const res = await generate('nobody@demo.test', 'whatever1');
    expect(res.statusCode).toBe(403);
    expect(res.data.message).toBe('The e-mail address or password is not correct.');
  });

  it('fails with status 403 when the subscription has ended', async () => {
    const res = await generate('expired@demo.test', 'Demo!2345');
    expect(res.statusCode).toBe(403);
    expect(res.data).toMatchObject({ code: 'SUBSCRIPTION_INACTIVE' });
    expect(String(res.data.message)).toMatch(/subscription has ended/);
  });

  it('fails with status 400 and a readable message when the body is malformed', async () => {
    const res = await t.call({ method: 'POST', url: '/api/pub/gostar/generate-token', payload: { username: '' } });
    expect(res.statusCode).toBe(400);
    expect(res.data.code).toBe('VALIDATION');
    expect(String(res.data.message)).not.toBe('');
  });

  it('answers 404 for an unknown product slug', async () => {
    const res = await t.call({ method: 'POST', url: '/api/pub/other/generate-token', payload: { username: 'a@b.c', password: 'x' } });
    expect(res.statusCode).toBe(404);
  });

  it('returns 429 after five failed logins for one account from one address, until the window passes', async () => {
    const account = 'download-evaluator@demo.test';
    for (let i = 0; i < 5; i++) expect((await generate(account, 'bad-password', '10.1.0.1')).statusCode).toBe(403);
    const limited = await generate(account, 'Demo!2345', '10.1.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.data.retryAfterSeconds).toBeGreaterThan(0);
    // Other accounts from that address, and the account from another address, are unaffected.
    expect((await generate('evaluate-user@demo.test', 'Demo!2345', '10.1.0.1')).statusCode).toBe(200);
    expect((await generate(account, 'Demo!2345', '10.1.0.2')).statusCode).toBe(200);
    // Once the failures are older than the window, the account logs in from that address again.
    await t.database.db
      .updateTable('login_attempts')
      .set({ login_date: sql`login_date - interval '1 hour'` })
      .where('username', '=', account)
      .execute();
    expect((await generate(account, 'Demo!2345', '10.1.0.1')).statusCode).toBe(200);
  });

  it('returns 429 after too many failed logins from one address across accounts', async () => {
    const ip = '10.2.0.1';
    for (let i = 0; i < 8; i++) expect((await generate(`someone${i}@demo.test`, 'bad-password', ip)).statusCode).toBe(403);
    const limited = await generate('super-admin@demo.test', 'Demo!2345', ip);
    expect(limited.statusCode).toBe(429);
    expect(String(limited.data.message)).toMatch(/network address/);
    expect((await generate('super-admin@demo.test', 'Demo!2345', '10.2.0.2')).statusCode).toBe(200);
  });

  it('regenerates tokens for the same session, and webapilogin answers the login result', async () => {
    const login = await t.login('full-user@demo.test');
    const regen = await t.call({ method: 'POST', url: '/api/pub/gostar/regenerate', headers: authHeaders(login) });
    expect(regen.statusCode).toBe(200);
    expect(regen.data.sessionId).toBe(login.sessionId);
    const web = await t.call({
      method: 'POST',
      url: '/api/webapilogin',
      headers: { javaauthorization: `Bearer ${regen.data.token as string}` },
    });
    expect(web.statusCode).toBe(200);
    expect(web.data).toMatchObject({ id: login.id, username: 'full-user@demo.test', userHashId: login.userHashId });
  });

  it('accepts either token alone but refuses tokens of two different sessions together', async () => {
    const a = await t.login('full-user@demo.test');
    const b = await t.login('full-user@demo.test');
    expect((await t.call({ method: 'GET', url: '/api/profile', headers: { authorization: `Bearer ${a.nodeToken}` } })).statusCode).toBe(
      200,
    );
    expect((await t.call({ method: 'GET', url: '/api/profile', headers: { javaauthorization: a.token } })).statusCode).toBe(200);
    const mixed = await t.call({
      method: 'GET',
      url: '/api/profile',
      headers: { authorization: `Bearer ${a.nodeToken}`, javaauthorization: `Bearer ${b.token}` },
    });
    expect(mixed.statusCode).toBe(401);
    expect(mixed.data.message).toBe('token is missing');
  });

  it('refuses a forged or tampered token and an email header that does not match it', async () => {
    const login = await t.login('full-user@demo.test');
    const [h, p] = login.token.split('.');
    const forged = `${h}.${p}.AAAA`;
    expect((await t.call({ method: 'GET', url: '/api/profile', headers: { javaauthorization: `Bearer ${forged}` } })).statusCode).toBe(401);
    const wrongEmail = await t.call({
      method: 'GET',
      url: '/api/profile',
      headers: { ...authHeaders(login), email: 'gostar-admin@demo.test' },
    });
    expect(wrongEmail.statusCode).toBe(401);
  });
});

describe('per-address ceiling on public account calls', () => {
  it('answers 429 after 60 login calls a minute from one address, before any password check', async () => {
    const t = await startTestApp('pglite', {
      LOGIN_LIMIT_PER_ADDRESS: '1000',
      LOGIN_LIMIT_PER_ACCOUNT: '1000',
      LOGIN_LIMIT_PER_ACCOUNT_ADDRESS: '1000',
    });
    try {
      const call = (ip: string) =>
        t.call({
          method: 'POST',
          url: '/api/pub/gostar/generate-token',
          payload: { username: 'x@y.z', password: 'bad-one' },
          remoteAddress: ip,
        });
      const codes: number[] = [];
      for (let i = 0; i < 61; i++) codes.push((await call('10.9.9.9')).statusCode);
      expect(codes.slice(0, 60).every((c) => c === 403)).toBe(true);
      const limited = await call('10.9.9.9');
      expect(limited.statusCode).toBe(429);
      expect(limited.data.code).toBe('RATE_LIMITED');
      expect((await call('10.9.9.10')).statusCode).toBe(403);
    } finally {
      await t.close();
    }
    // 62 argon2 checks: on a loaded two-core machine this outlasts the default 30 s.
  }, 90_000);
});
