// `npm run bench -- admin-dashboards [--database-url postgres://...] [--rounds 10] [--regenerate]`:
// the usage dashboards of issue 16 on M-size usage data ("answer under 1 s"). The database
// (default kb_bench_usage on the local server, created when missing) gets the M data of
// bench/support/usage-data.ts once: 300 organisations, 5,000 users, 500,000 login attempts with
// their sessions, 300,000 search runs, 100,000 exports with their ledger rows over 12 months.
// Then, through the real server (buildApp + inject, logged in as a KB admin of the run), the admin
// dashboard and the client dashboard of the largest organisation, for 30 days and for a year.
// Reference in the same run: one count of the year's login attempts (a read of the largest table
// through its date index), the floor any per-day figure over that table pays.
import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { sql } from 'kysely';
import { PRODUCT_SLUG } from '@kb/contracts/auth';
import { DEMO_PASSWORD } from '@kb/contracts/roles';
import type { AdminUsage, ClientDashboard } from '@kb/contracts/admin-usage';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { seedDemoUsers } from '../apps/server/src/seed/demo-users.ts';
import { hashPassword } from '../apps/server/src/modules/auth/passwords.ts';
import { totpCodeAt, totpStep } from '../apps/server/src/modules/auth/mfa-totp.ts';
import { summary, writeResult } from './support/bench-kit.ts';
import { USAGE_M, usageDataUsers, writeUsageData } from './support/usage-data.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    'database-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/kb_bench_usage' },
    rounds: { type: 'string', default: '10' },
    regenerate: { type: 'boolean', default: false },
  },
});
const url = values['database-url']!;
const rounds = Number.parseInt(values.rounds ?? '10', 10);

/** Creates the named database when it does not exist (the bench's own, by default). */
async function ensureDatabase(databaseUrl: string): Promise<void> {
  const target = new URL(databaseUrl);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.href });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Create the database ${name} first.`);
      await client.query(`CREATE DATABASE ${name}`);
      console.error(`created database ${name}`);
    }
  } finally {
    await client.end();
  }
}

await ensureDatabase(url);
if (values.regenerate) {
  // A fresh schema: simpler and faster than deleting half a million rows of each table.
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
  await client.end();
}
const handle = await openDatabase({ url });
await migrateToLatest(handle);
const db = handle.db;
await seedDemoUsers(db);
let generation: Record<string, number> | null = null;
if ((await usageDataUsers(db)) === 0) generation = await writeUsageData(db, USAGE_M);
// Autovacuum's state after inserts (visibility map, statistics), whatever the last run left.
await sql`VACUUM ANALYZE login_attempts, user_sessions, search_log, export_jobs, credit_ledger`.execute(db);

const { rows: sizes } = await sql<{
  organisations: number;
  users: number;
  logins: number;
  sessions: number;
  searches: number;
  exports: number;
  ledger: number;
}>`
  SELECT (SELECT count(*)::int FROM organisations) AS organisations, (SELECT count(*)::int FROM users) AS users,
         (SELECT count(*)::int FROM login_attempts) AS logins, (SELECT count(*)::int FROM user_sessions) AS sessions,
         (SELECT count(*)::int FROM search_log) AS searches, (SELECT count(*)::int FROM export_jobs) AS exports,
         (SELECT count(*)::int FROM credit_ledger) AS ledger`.execute(db);
const { rows: largest } = await sql<{ id: number; name: string; users: number }>`
  SELECT o.id, o.name, count(*)::int AS users FROM organisations o JOIN users u ON u.organisation_id = o.id
  GROUP BY o.id ORDER BY count(*) DESC, o.id LIMIT 1`.execute(db);
const organisation = largest[0]!;

const config = loadConfig({
  DATABASE_URL: url,
  JWT_SECRET: crypto.randomBytes(32).toString('base64url'),
  SERVER_NAME: 'bench',
  LOG_LEVEL: 'warn',
});
const app = await buildApp({ config, database: handle });
await app.ready();
// A KB admin of this run (admin logins need the second factor: a fresh account enrols through the
// API, as a person would on first login, and its session then passes).
const adminEmail = `usage-bench-admin-${crypto.randomBytes(4).toString('hex')}@bench.test`;
const { rows: admins } = await sql<{ id: number }>`INSERT INTO users (email, first_name, last_name, password_hash, is_new_user)
  VALUES (${adminEmail}, 'Bench', 'Admin', ${await hashPassword(DEMO_PASSWORD)}, false) RETURNING id`.execute(db);
await sql`INSERT INTO subscriptions (user_id, role_name, contract_id, start_date, end_date)
  VALUES (${admins[0]!.id}, 'GOSTAR_ADMIN', 'BENCH', now() - interval '1 day', now() + interval '1 day')`.execute(db);
const login = await app.inject({
  method: 'POST',
  url: `/api/pub/${PRODUCT_SLUG}/generate-token`,
  payload: { username: adminEmail, password: DEMO_PASSWORD },
});
if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
const tokens = JSON.parse(login.body) as { token: string; nodeToken: string; secondFactor: string };
const headers = { authorization: `Bearer ${tokens.nodeToken}`, javaauthorization: `Bearer ${tokens.token}` };
if (tokens.secondFactor === 'enrolment_required') {
  const enrol = await app.inject({ method: 'POST', url: '/api/account/mfa/enrol', headers });
  const secret = String((JSON.parse(enrol.body) as { secret: string }).secret);
  const confirmed = await app.inject({
    method: 'POST',
    url: '/api/account/mfa/enrol/confirm',
    headers,
    payload: { code: totpCodeAt(secret, totpStep()) },
  });
  if (confirmed.statusCode !== 200) throw new Error(`second factor: ${confirmed.body}`);
}

async function time(path: string): Promise<{ ms: number; body: unknown }> {
  const started = performance.now();
  const res = await app.inject({ method: 'GET', url: path, headers });
  const ms = performance.now() - started;
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
  return { ms, body: JSON.parse(res.body) };
}

const CALLS = {
  adminDashboard30d: '/api/admin/usage?period=30d',
  adminDashboard1y: '/api/admin/usage?period=1y',
  clientDashboard30d: `/api/admin/client-dashboard?period=30d&organisationId=${organisation.id}`,
  clientDashboard1y: `/api/admin/client-dashboard?period=1y&organisationId=${organisation.id}`,
};

const timings: Record<string, ReturnType<typeof summary>> = {};
const answers: Record<string, unknown> = {};
for (const [name, path] of Object.entries(CALLS)) {
  await time(path); // warm: plans and the pool's connections
  const ms: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const { ms: took, body } = await time(path);
    ms.push(took);
    answers[name] = body;
  }
  timings[name] = summary(ms);
}
const referenceMs: number[] = [];
for (let round = 0; round < rounds; round++) {
  const started = performance.now();
  await sql`SELECT count(*) FROM login_attempts WHERE login_date >= now() - interval '365 days'`.execute(db);
  referenceMs.push(performance.now() - started);
}
timings.referenceCountLoginsYear = summary(referenceMs);

const year = answers.adminDashboard1y as AdminUsage;
const client = answers.clientDashboard1y as ClientDashboard;
const result = {
  date: new Date().toISOString(),
  database: handle.kind,
  url: url.replace(/\/\/[^@]*@/, '//'),
  rounds,
  sizes: sizes[0],
  generationMs: generation,
  clientOrganisation: organisation,
  timings,
  checks: {
    adminYearTotals: year.totals,
    adminYearDays: year.daily.length,
    endingSoon: { within7Days: year.endingSoon.within7Days, within30Days: year.endingSoon.within30Days },
    clientYearUsers: client.users.length,
    clientYearWeeks: client.trend.length,
  },
};
const file = writeResult('admin-dashboards', result);
const line = (name: string) => `${timings[name]!.p50}/${timings[name]!.p95} ms`;
console.log(
  `admin-dashboards ${handle.kind}: ${sizes[0]!.logins} logins, ${sizes[0]!.searches} searches, ${sizes[0]!.exports} exports, ${sizes[0]!.users} users; p50/p95 ` +
    `admin 30d ${line('adminDashboard30d')}, admin 1y ${line('adminDashboard1y')}, ` +
    `client 30d ${line('clientDashboard30d')}, client 1y ${line('clientDashboard1y')} (${organisation.users} users); ` +
    `reference count of a year's logins ${line('referenceCountLoginsYear')} → ${file}`,
);
await app.close();
await handle.close();
