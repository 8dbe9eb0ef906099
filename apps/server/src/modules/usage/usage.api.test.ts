import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { AdminUsage, ClientDashboard, ClientOrganisations, PendoDetails } from '@kb/contracts/admin-usage';
import { ROLES, demoEmailForRole } from '@kb/contracts/roles';
import type { Role } from '@kb/contracts/roles';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { DEMO_ORGANISATION } from '../../seed/demo-organisation.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import { UsageService } from './usage-service.ts';

/*
 * The usage dashboards on a small data set written here, in a fixed past week (Monday 5 to Sunday
 * 11 January 2026, UTC) that the test's own logins (made now) cannot touch. Every expected figure
 * below is counted by hand from the rows inserted in beforeAll.
 */

const PERIOD = 'from=2026-01-05&to=2026-01-11';

const zero = { activeUsers: 0, logins: 0, failedLogins: 0, searches: 0, exports: 0, creditsSpent: 0 };
/** The admin dashboard's days of PERIOD. */
const EXPECTED_DAILY = [
  { ...zero, day: '2026-01-05', activeUsers: 2, logins: 3, failedLogins: 1, searches: 3 },
  { ...zero, day: '2026-01-06', activeUsers: 1, logins: 1, failedLogins: 2, searches: 1, exports: 1, creditsSpent: 40 },
  // a2's export was refunded the same day: started, but nothing spent.
  { ...zero, day: '2026-01-07', activeUsers: 1, logins: 1, exports: 1 },
  // n1's session runs on without a login: still an active user.
  { ...zero, day: '2026-01-08', activeUsers: 1 },
  { ...zero, day: '2026-01-09', activeUsers: 1, exports: 1, creditsSpent: 25 },
  { ...zero, day: '2026-01-10', failedLogins: 1 },
  { ...zero, day: '2026-01-11', searches: 1 },
];
const EXPECTED_TOTALS = { activeUsers: 4, logins: 5, failedLogins: 4, searches: 5, exports: 3, creditsSpent: 65 };
/** Acme's weeks from 1 to 11 January. Weeks start on Monday: a1's login late on Sunday 4 January is in the week of 29 December. */
const EXPECTED_TREND = [
  { week: '2025-12-29', logins: 1, searches: 0, exports: 0 },
  { week: '2026-01-05', logins: 3, searches: 4, exports: 2 },
];

describe.each(DATABASES)('usage dashboards on %s', (kind) => {
  let t: TestApp;
  const headers = {} as Record<Role, Record<string, string>>;
  let noOrgHeaders: Record<string, string>;
  const ids = { acme: 0, beta: 0, demo: 0, a1: 0, a2: 0, b1: 0, n1: 0, d1: 0 };

  beforeAll(async () => {
    t = await startTestApp(kind);
    const db = t.database.db;
    // The demo subscriptions end in a year: only the subscriptions written here end within 30 days.
    await sql`UPDATE subscriptions SET end_date = now() + interval '365 days'`.execute(db);
    const org = async (name: string, seats: number | null) =>
      (await db.insertInto('organisations').values({ name, seats }).returning('id').executeTakeFirstOrThrow()).id;
    ids.acme = await org('Acme Bio', 5);
    ids.beta = await org('Beta Labs', null);
    ids.demo = (await db.selectFrom('organisations').select('id').where('name', '=', DEMO_ORGANISATION.name).executeTakeFirstOrThrow()).id;
    const demoHash = (
      await db.selectFrom('users').select('password_hash').where('email', '=', demoEmailForRole('FULL_USER')).executeTakeFirstOrThrow()
    ).password_hash;
    const user = async (email: string, organisationId: number | null, credits: number, active = true) =>
      (
        await db
          .insertInto('users')
          .values({
            email,
            first_name: email.slice(0, 2).toUpperCase(),
            last_name: 'Test',
            organisation_id: organisationId,
            credit_balance: credits,
            active,
            password_hash: demoHash,
            is_new_user: false,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    ids.a1 = await user('a1@acme.test', ids.acme, 60);
    ids.a2 = await user('a2@acme.test', ids.acme, 45);
    ids.d1 = await user('d1@acme.test', ids.acme, 0, false);
    ids.b1 = await user('b1@beta.test', ids.beta, 0);
    ids.n1 = await user('n1@none.test', null, 0);

    const sub = (userId: number, role: string, start: string, end: string) =>
      sql`INSERT INTO subscriptions (user_id, role_name, contract_id, start_date, end_date)
          VALUES (${userId}, ${role}, 'T', ${sql.raw(start)}, ${sql.raw(end)})`.execute(db);
    await sub(ids.a1, 'FULL_USER', "now() - interval '100 days'", "now() + interval '3 days' - interval '1 hour'");
    await sub(ids.a1, 'EVALUATE_USER', "now() + interval '1 day'", "now() + interval '10 days'"); // scheduled: not running
    await sub(ids.a2, 'EVALUATE_USER', "now() - interval '10 days'", "now() + interval '20 days' - interval '1 hour'");
    await sub(ids.d1, 'FULL_USER', "now() - interval '10 days'", "now() + interval '5 days'"); // deactivated account
    await sub(ids.b1, 'FULL_USER', "now() - interval '10 days'", "now() + interval '45 days'");
    await sub(ids.n1, 'FULL_USER', "now() - interval '300 days'", "now() - interval '1 day'");
    await sub(ids.n1, 'FULL_USER', "now() - interval '1 day'", "now() + interval '200 days'");

    const login = (userId: number | null, username: string, at: string, failed: boolean, ip = '10.0.0.1') =>
      db.insertInto('login_attempts').values({ user_id: userId, username, login_date: at, failed, ip_address: ip }).execute();
    await login(ids.a1, 'a1@acme.test', '2026-01-04T23:59:00Z', false); // the day before
    await login(ids.a1, 'a1@acme.test', '2026-01-05T10:00:00Z', false);
    await login(ids.a1, 'a1@acme.test', '2026-01-05T11:00:00Z', false);
    await login(ids.b1, 'b1@beta.test', '2026-01-05T12:00:00Z', false);
    await login(null, 'x@evil.test', '2026-01-05T13:00:00Z', true, '10.0.0.9');
    await login(ids.a2, 'a2@acme.test', '2026-01-06T09:00:00Z', true, '10.0.0.9');
    await login(ids.a2, 'a2@acme.test', '2026-01-06T09:01:00Z', true, '10.0.0.9');
    await login(ids.a2, 'a2@acme.test', '2026-01-06T09:05:00Z', false);
    await login(ids.n1, 'n1@none.test', '2026-01-07T23:00:00Z', false);
    await login(ids.b1, 'b1@beta.test', '2026-01-10T08:00:00Z', true, '10.0.0.7');
    await login(ids.a1, 'a1@acme.test', '2026-01-12T00:00:00Z', false); // the day after
    // n1 stays logged in from the evening of the 7th to 01:00 on the 9th: active on three days.
    await db
      .insertInto('user_sessions')
      .values({
        user_id: ids.n1,
        created_at: '2026-01-07T23:00:00Z',
        last_activity_at: '2026-01-09T01:00:00Z',
        closed_at: '2026-01-09T01:30:00Z',
      })
      .execute();

    const search = (userId: number, at: string) =>
      db.insertInto('search_log').values({ user_id: userId, summary: 'test', duration_ms: 5, created_at: at }).execute();
    for (const at of ['2026-01-05T10:01:00Z', '2026-01-05T10:02:00Z', '2026-01-05T10:03:00Z']) await search(ids.a1, at);
    await search(ids.b1, '2026-01-06T12:00:00Z');
    await search(ids.a2, '2026-01-11T23:59:59Z');
    await search(ids.n1, '2026-01-12T00:00:01Z'); // the day after

    const exportJob = async (userId: number, at: string, credits: number, status: 'done' | 'failed') =>
      (
        await db
          .insertInto('export_jobs')
          .values({
            user_id: userId,
            search_session_id: '00000000-0000-4000-8000-000000000001',
            set_id: 1,
            tab: 'structuretab',
            format: 'csv',
            columns: JSON.stringify(['str_id']),
            row_count: credits,
            credits,
            status,
            file_name: 'x.csv',
            created_at: at,
            refunded: status === 'failed',
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const ledger = (
      userId: number,
      delta: number,
      kind: 'opening' | 'grant' | 'export' | 'refund' | 'adjustment',
      at: string,
      balanceAfter: number,
      jobId: number | null = null,
    ) =>
      db
        .insertInto('credit_ledger')
        .values({ user_id: userId, delta, kind, created_at: at, balance_after: balanceAfter, export_job_id: jobId })
        .execute();
    await ledger(ids.a1, 100, 'opening', '2026-01-01T00:00:00Z', 100);
    await ledger(ids.a2, 50, 'grant', '2026-01-02T00:00:00Z', 50);
    await ledger(ids.b1, 25, 'opening', '2026-01-01T00:00:00Z', 25);
    const j1 = await exportJob(ids.a1, '2026-01-06T15:00:00Z', 40, 'done');
    await ledger(ids.a1, -40, 'export', '2026-01-06T15:00:00Z', 60, j1);
    const j2 = await exportJob(ids.a2, '2026-01-07T15:00:00Z', 10, 'failed');
    await ledger(ids.a2, -10, 'export', '2026-01-07T15:00:00Z', 40, j2);
    await ledger(ids.a2, 10, 'refund', '2026-01-07T15:05:00Z', 50, j2);
    await ledger(ids.a2, -5, 'adjustment', '2026-01-08T00:00:00Z', 45);
    const j3 = await exportJob(ids.b1, '2026-01-09T10:00:00Z', 25, 'done');
    await ledger(ids.b1, -25, 'export', '2026-01-09T10:00:00Z', 0, j3);

    for (const role of ROLES) headers[role] = authHeaders(await t.login(demoEmailForRole(role)));
    noOrgHeaders = authHeaders(await t.login('n1@none.test'));
  }, 120_000);
  afterAll(() => t.close());

  const get = (url: string, h: Record<string, string>) => t.call({ method: 'GET', url, headers: h });

  describe('admin dashboard', () => {
    it('is refused to every role but GOSTAR_ADMIN, and to callers without a session', async () => {
      for (const role of ROLES) {
        const res = await get(`/api/admin/usage?${PERIOD}`, headers[role]);
        expect(res.statusCode, role).toBe(role === 'GOSTAR_ADMIN' ? 200 : 403);
      }
      expect((await get(`/api/admin/usage?${PERIOD}`, {})).statusCode).toBe(401);
    });

    it('counts logins, failed logins, active users, searches, exports and credits per day', async () => {
      const res = await get(`/api/admin/usage?${PERIOD}`, headers.GOSTAR_ADMIN);
      expect(res.statusCode).toBe(200);
      const usage = res.data as unknown as AdminUsage;
      expect(usage.period).toEqual({ from: '2026-01-05', to: '2026-01-11', days: 7 });
      expect(usage.daily).toEqual(EXPECTED_DAILY);
      expect(usage.totals).toEqual(EXPECTED_TOTALS);
    });

    it('counts UTC days even when the database session is in another time zone', async () => {
      // The app opens its connections in UTC (db/database.ts); the dashboards' SQL must not rely on
      // that. One connection set to New York (05:00 UTC is its midnight), the service run on it.
      const caller = { userId: ids.n1, roles: ['GOSTAR_ADMIN'] } as AuthContext;
      const { zone, usage, dashboard } = await t.database.db.connection().execute(async (conn) => {
        await sql`SET TimeZone TO 'America/New_York'`.execute(conn);
        try {
          const service = new UsageService(conn, { apiKey: undefined, agentHost: 'cdn.pendo.io' });
          return {
            zone: (await sql<{ tz: string }>`SELECT current_setting('TimeZone') AS tz`.execute(conn)).rows[0]?.tz,
            usage: await service.adminUsage({ from: '2026-01-05', to: '2026-01-11' }),
            dashboard: await service.clientDashboard(caller, { organisationId: ids.acme, from: '2026-01-01', to: '2026-01-11' }),
          };
        } finally {
          await sql`SET TimeZone TO 'UTC'`.execute(conn);
        }
      });
      expect(zone).toBe('America/New_York');
      expect(usage.daily).toEqual(EXPECTED_DAILY);
      expect(usage.totals).toEqual(EXPECTED_TOTALS);
      expect(dashboard.trend).toEqual(EXPECTED_TREND);
      expect(dashboard.credits.spentInPeriod).toBe(40);
    });

    it('ranks organisations by logins, searches and exports in the period', async () => {
      const usage = (await get(`/api/admin/usage?${PERIOD}`, headers.GOSTAR_ADMIN)).data as unknown as AdminUsage;
      // The demo users' logins (Demo Pharma) happened today, outside the period; n1 has no organisation.
      expect(usage.topOrganisations).toEqual([
        { organisationId: ids.acme, name: 'Acme Bio', activeUsers: 2, logins: 3, searches: 4, exports: 2 },
        { organisationId: ids.beta, name: 'Beta Labs', activeUsers: 1, logins: 1, searches: 1, exports: 1 },
      ]);
      expect(usage.failedLoginAddresses.map(({ lastAt: _lastAt, ...row }) => row)).toEqual([
        { ipAddress: '10.0.0.9', attempts: 3, accounts: 2 },
        { ipAddress: '10.0.0.7', attempts: 1, accounts: 1 },
      ]);
      expect(usage.failedLoginAddresses[0]?.lastAt).toBe('2026-01-06T09:01:00.000Z');
    });

    it('lists running subscriptions of active accounts ending within 30 days, soonest first', async () => {
      const usage = (await get('/api/admin/usage?period=7d', headers.GOSTAR_ADMIN)).data as unknown as AdminUsage;
      expect(usage.endingSoon.within7Days).toBe(1);
      expect(usage.endingSoon.within30Days).toBe(2);
      expect(usage.endingSoon.rows.map(({ endDate: _endDate, subscriptionId: _id, ...row }) => row)).toEqual([
        {
          userId: ids.a1,
          email: 'a1@acme.test',
          name: 'A1 Test',
          organisationId: ids.acme,
          organisationName: 'Acme Bio',
          role: 'FULL_USER',
          daysLeft: 3,
        },
        {
          userId: ids.a2,
          email: 'a2@acme.test',
          name: 'A2 Test',
          organisationId: ids.acme,
          organisationName: 'Acme Bio',
          role: 'EVALUATE_USER',
          daysLeft: 20,
        },
      ]);
    });

    it('answers presets ending today, one row per day', async () => {
      const today = new Date().toISOString().slice(0, 10);
      for (const [period, days] of [
        ['7d', 7],
        ['30d', 30],
        ['90d', 90],
        ['1y', 365],
      ] as const) {
        const usage = (await get(`/api/admin/usage?period=${period}`, headers.GOSTAR_ADMIN)).data as unknown as AdminUsage;
        expect(usage.period.to).toBe(today);
        expect(usage.period.days).toBe(days);
        expect(usage.daily).toHaveLength(days);
        expect(usage.daily.at(-1)?.day).toBe(today);
      }
      // Without a period: the last 30 days. Today's logins of this test are in it.
      const usage = (await get('/api/admin/usage', headers.GOSTAR_ADMIN)).data as unknown as AdminUsage;
      expect(usage.period.days).toBe(30);
      expect(usage.daily.at(-1)?.logins).toBeGreaterThanOrEqual(ROLES.length);
    });

    it('refuses a bad period with a 400 that says what is wrong', async () => {
      const cases: [string, RegExp][] = [
        ['from=2026-01-11&to=2026-01-05', /start date is after the end date/],
        ['from=2023-01-01&to=2026-01-05', /at most 731 days/],
        ['from=2026-01-05', /both from and to/],
        ['period=7d&from=2026-01-05&to=2026-01-06', /either a period or from and to/],
        ['period=2w', /./],
        ['from=2026-13-01&to=2026-12-31', /YYYY-MM-DD/],
      ];
      for (const [query, message] of cases) {
        const res = await get(`/api/admin/usage?${query}`, headers.GOSTAR_ADMIN);
        expect(res.statusCode, query).toBe(400);
        expect(String(res.data.message), query).toMatch(message);
      }
    });
  });

  describe('client dashboard', () => {
    it('shows any logged-in user their own organisation', async () => {
      for (const role of ROLES) {
        const res = await get('/api/admin/client-dashboard?period=30d', headers[role]);
        expect(res.statusCode, role).toBe(200);
        const dashboard = res.data as unknown as ClientDashboard;
        expect(dashboard.organisation, role).toMatchObject({ id: ids.demo, name: DEMO_ORGANISATION.name, seats: DEMO_ORGANISATION.seats });
        expect(
          dashboard.users.map((u) => u.email),
          role,
        ).toContain(demoEmailForRole(role));
      }
      // Naming one's own organisation is the same.
      const own = await get(`/api/admin/client-dashboard?organisationId=${ids.demo}`, headers.FULL_USER);
      expect(own.statusCode).toBe(200);
    });

    it('refuses another organisation to everyone but administrators, existing or not', async () => {
      for (const role of ROLES) {
        const res = await get(`/api/admin/client-dashboard?organisationId=${ids.acme}&${PERIOD}`, headers[role]);
        expect(res.statusCode, role).toBe(role === 'GOSTAR_ADMIN' || role === 'SUPER_ADMIN' ? 200 : 403);
        const missing = await get('/api/admin/client-dashboard?organisationId=999999', headers[role]);
        expect(missing.statusCode, role).toBe(role === 'GOSTAR_ADMIN' || role === 'SUPER_ADMIN' ? 404 : 403);
      }
      expect((await get('/api/admin/client-dashboard', {})).statusCode).toBe(401);
    });

    it('answers an empty dashboard to a user without an organisation', async () => {
      const res = await get('/api/admin/client-dashboard', noOrgHeaders);
      expect(res.statusCode).toBe(200);
      const dashboard = res.data as unknown as ClientDashboard;
      expect(dashboard.organisation).toBeNull();
      expect(dashboard.users).toEqual([]);
      expect((await get(`/api/admin/client-dashboard?organisationId=${ids.acme}`, noOrgHeaders)).statusCode).toBe(403);
    });

    it('counts seats, credits, last logins and weekly usage of an organisation', async () => {
      const res = await get(`/api/admin/client-dashboard?organisationId=${ids.acme}&from=2026-01-01&to=2026-01-11`, headers.SUPER_ADMIN);
      expect(res.statusCode).toBe(200);
      const dashboard = res.data as unknown as ClientDashboard;
      expect(dashboard.organisation).toEqual({ id: ids.acme, name: 'Acme Bio', seats: 5, active: true });
      // d1 is deactivated: a user, not an active one.
      // d1 is deactivated: no seat, no running subscription.
      expect(dashboard.seats).toEqual({ users: 3, activeUsers: 2, seatsTaken: 2, seats: 5 });
      expect(dashboard.credits).toEqual({ granted: 150, spent: 40, adjusted: -5, spentInPeriod: 40, balance: 105 });
      expect(dashboard.users.map((u) => [u.email, u.active, u.creditBalance, u.lastLoginAt])).toEqual([
        ['a1@acme.test', true, 60, '2026-01-12T00:00:00.000Z'],
        ['a2@acme.test', true, 45, '2026-01-06T09:05:00.000Z'],
        ['d1@acme.test', false, 0, null],
      ]);
      expect(dashboard.users[0]?.subscriptions.map((s) => [s.role, s.status])).toEqual([
        ['EVALUATE_USER', 'scheduled'],
        ['FULL_USER', 'active'],
      ]);
      expect(dashboard.trend).toEqual(EXPECTED_TREND);
    });

    it('refuses bad input with 400', async () => {
      for (const query of ['organisationId=abc', 'organisationId=0', 'from=2026-01-11&to=2026-01-05', 'period=5y']) {
        expect((await get(`/api/admin/client-dashboard?${query}`, headers.GOSTAR_ADMIN)).statusCode, query).toBe(400);
      }
    });

    it('lets administrators search organisations for the picker', async () => {
      for (const role of ROLES) {
        const res = await get('/api/admin/client-dashboard/organisations?q=acme', headers[role]);
        expect(res.statusCode, role).toBe(role === 'GOSTAR_ADMIN' || role === 'SUPER_ADMIN' ? 200 : 403);
      }
      const found = (await get('/api/admin/client-dashboard/organisations?q=ACME', headers.GOSTAR_ADMIN))
        .data as unknown as ClientOrganisations;
      expect(found).toEqual({ rows: [{ id: ids.acme, name: 'Acme Bio', users: 3, active: true }], total: 1 });
      const all = (await get('/api/admin/client-dashboard/organisations', headers.GOSTAR_ADMIN)).data as unknown as ClientOrganisations;
      expect(all.rows.map((r) => r.name)).toEqual(['Acme Bio', 'Beta Labs', DEMO_ORGANISATION.name]);
      // % and _ are searched as text, not as patterns.
      const literal = (await get('/api/admin/client-dashboard/organisations?q=%25', headers.GOSTAR_ADMIN))
        .data as unknown as ClientOrganisations;
      expect(literal.total).toBe(0);
    });
  });

  describe('pendodetails', () => {
    it('is off unless configured, and the policy then allows no analytics host', async () => {
      const res = await get('/api/dashboard/pendodetails/fetch', headers.FULL_USER);
      expect(res.statusCode).toBe(200);
      expect(res.data as unknown as PendoDetails).toEqual({ enabled: false });
      expect(res.headers['content-security-policy']).not.toContain('pendo');
      expect((await get('/api/dashboard/pendodetails/fetch', {})).statusCode).toBe(401);
    });

    it('when configured answers the key, the hash id and the organisation, and the policy allows its hosts', async () => {
      // A second server on the same database and token secret, with analytics configured.
      const config = loadConfig({
        JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256',
        SERVER_NAME: 'test',
        PENDO_API_KEY: 'pk-test-123',
      });
      const app = await buildApp({ config, database: t.database });
      try {
        const full = await t.database.db
          .selectFrom('users')
          .select(['user_hash_id'])
          .where('email', '=', demoEmailForRole('FULL_USER'))
          .executeTakeFirstOrThrow();
        const res = await app.inject({ method: 'GET', url: '/api/dashboard/pendodetails/fetch', headers: headers.FULL_USER });
        expect(res.statusCode).toBe(200);
        expect(JSON.parse(res.body)).toEqual({
          enabled: true,
          apiKey: 'pk-test-123',
          agentUrl: 'https://cdn.pendo.io/agent/static/pk-test-123/pendo.js',
          visitorId: full.user_hash_id,
          accountId: String(ids.demo),
        });
        expect(res.body).not.toContain('@demo.test');
        const csp = String(res.headers['content-security-policy']);
        expect(csp).toMatch(/script-src [^;]*https:\/\/cdn\.pendo\.io/);
        expect(csp).toMatch(/connect-src [^;]*https:\/\/app\.pendo\.io/);
        // A user without an organisation has no account id.
        const none = await app.inject({ method: 'GET', url: '/api/dashboard/pendodetails/fetch', headers: noOrgHeaders });
        expect(JSON.parse(none.body)).toMatchObject({ enabled: true, accountId: null });
      } finally {
        await app.close();
      }
    });
  });
});
