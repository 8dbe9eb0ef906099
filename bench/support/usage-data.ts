// M-size usage data for the usage dashboards (issue 16): organisations, users with subscriptions,
// login attempts with their sessions, search runs, exports with their ledger rows, spread over the
// last 12 months. Written with INSERT ... SELECT generate_series, so the database does the work
// (about a minute on PostgreSQL for the M size). Deterministic per row (hashes of the row number),
// apart from the dates, which are relative to now.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../../apps/server/src/db/schema.ts';

export interface UsageDataSize {
  organisations: number;
  users: number;
  logins: number;
  searches: number;
  exports: number;
  /** Distinct client addresses logins come from. */
  addresses: number;
  days: number;
}

/** The M size of the brief: 300 organisations, 5,000 users, 500k logins, 300k searches, 100k exports over a year. */
export const USAGE_M: UsageDataSize = {
  organisations: 300,
  users: 5_000,
  logins: 500_000,
  searches: 300_000,
  exports: 100_000,
  addresses: 2_000,
  days: 365,
};

const EMAIL_PREFIX = 'usage-';
const DOMAIN = '@bench.test';

/** How many generated users the database holds (0 when the data was never written). */
export async function usageDataUsers(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM users WHERE email LIKE ${`${EMAIL_PREFIX}%${DOMAIN}`}`.execute(
    db,
  );
  return rows[0]?.n ?? 0;
}

/** A number in [0, 1) from a row number and a salt: the same rows every run. */
const unit = (g: ReturnType<typeof sql.ref> | ReturnType<typeof sql.raw>, salt: number) =>
  sql`(('x' || substr(md5(${g}::text || ':' || ${salt}::text), 1, 8))::bit(32)::bigint::float8 / 4294967296.0)`;

/**
 * Writes the usage data (call on an empty database or after `clearUsageData`). Answers the time
 * each table took, in ms.
 */
export async function writeUsageData(db: Kysely<Database>, size: UsageDataSize): Promise<Record<string, number>> {
  const timings: Record<string, number> = {};
  const step = async (name: string, run: () => Promise<unknown>) => {
    const started = performance.now();
    await run();
    timings[name] = Math.round(performance.now() - started);
    console.error(`usage data: ${name} ${timings[name]} ms`);
  };
  const g = sql.ref('g');
  const span = sql.lit(size.days);

  await step('organisations', () =>
    sql`INSERT INTO organisations (name, seats, created_at)
        SELECT 'Bench organisation ' || lpad(g::text, 4, '0'), 5 + (${unit(g, 1)} * 60)::int, now() - interval '400 days'
        FROM generate_series(1, ${size.organisations}) g`.execute(db),
  );
  // Users: one in twenty without an organisation; organisations of uneven size (squared draw). The
  // credit balances are written with the ledger (below).
  await step('users', () =>
    sql`WITH orgs AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM organisations WHERE name LIKE 'Bench organisation %')
        INSERT INTO users (email, first_name, last_name, organisation_id, credit_balance, is_new_user, created_at)
        SELECT ${EMAIL_PREFIX} || lpad(g::text, 5, '0') || ${DOMAIN}, 'User', lpad(g::text, 5, '0'),
               CASE WHEN ${unit(g, 2)} < 0.05 THEN NULL
                    ELSE (SELECT id FROM orgs WHERE k = floor(power(${unit(g, 3)}, 2) * ${size.organisations})::int) END,
               0, false, now() - interval '400 days'
        FROM generate_series(1, ${size.users}) g`.execute(db),
  );
  // One subscription a user, a year long, started some time in the last 400 days: about one in
  // twelve ends within the next 30 days.
  await step('subscriptions', () =>
    sql`INSERT INTO subscriptions (user_id, role_name, contract_id, start_date, end_date, position)
        SELECT u.id, (ARRAY['FULL_USER', 'FULL_USER', 'FULL_USER', 'EVALUATE_USER', 'DOWNLOAD_EVALUATOR', 'FLAT_FILE_ONLY'])[1 + (${unit(sql.ref('u.id'), 5)} * 6)::int % 6],
               'BENCH-' || u.id, s.start, s.start + interval '365 days', 0
        FROM users u
        CROSS JOIN LATERAL (SELECT now() - (${unit(sql.ref('u.id'), 6)} * 400) * interval '1 day' AS start) s
        WHERE u.email LIKE ${`${EMAIL_PREFIX}%${DOMAIN}`}`.execute(db),
  );
  const users = sql`(SELECT id, email, row_number() OVER (ORDER BY id) - 1 AS k FROM users WHERE email LIKE ${`${EMAIL_PREFIX}%${DOMAIN}`})`;
  // Logins: one in ten failed; a busy core of users (squared draw); sessions for the successful ones.
  await step('login_attempts', () =>
    sql`WITH u AS MATERIALIZED ${users}
        INSERT INTO login_attempts (user_id, username, ip_address, login_date, failed, failure_reason)
        SELECT u.id, u.email, '10.' || (a % 250) || '.' || (a / 250 % 250) || '.1', t, f, CASE WHEN f THEN 'password' END
        FROM generate_series(1, ${size.logins}) g
        CROSS JOIN LATERAL (SELECT floor(power(${unit(g, 7)}, 2) * ${size.users})::int AS k,
                                   (${unit(g, 8)} * ${size.addresses})::int AS a,
                                   now() - ${unit(g, 9)} * ${span} * interval '1 day' AS t,
                                   ${unit(g, 10)} < 0.1 AS f) r
        JOIN u ON u.k = r.k`.execute(db),
  );
  await step('user_sessions', () =>
    sql`INSERT INTO user_sessions (user_id, created_at, last_activity_at, closed_at, close_reason)
        SELECT user_id, login_date, login_date + ${unit(sql.ref('id'), 11)} * interval '3 hours',
               login_date + ${unit(sql.ref('id'), 11)} * interval '3 hours' + interval '30 minutes', 'idle'
        FROM login_attempts WHERE NOT failed AND username LIKE ${`${EMAIL_PREFIX}%${DOMAIN}`}`.execute(db),
  );
  await step('search_log', () =>
    sql`WITH u AS MATERIALIZED ${users}
        INSERT INTO search_log (user_id, summary, duration_ms, failed, created_at)
        SELECT u.id, 'bench search', (${unit(g, 12)} * 3000)::int, ${unit(g, 13)} < 0.02, now() - ${unit(g, 14)} * ${span} * interval '1 day'
        FROM generate_series(1, ${size.searches}) g
        JOIN u ON u.k = floor(power(${unit(g, 15)}, 2) * ${size.users})::int`.execute(db),
  );
  await step('export_jobs', () =>
    sql`WITH u AS MATERIALIZED ${users}
        INSERT INTO export_jobs (user_id, search_session_id, set_id, tab, format, columns, row_count, credits, status, file_name, refunded, created_at, finished_at)
        SELECT u.id, gen_random_uuid(), 0, 'structuretab', 'csv', '["str_id"]'::jsonb, c, c,
               CASE WHEN ${unit(g, 16)} < 0.05 THEN 'failed' ELSE 'done' END, 'bench.csv', ${unit(g, 16)} < 0.05, t, t + interval '1 minute'
        FROM generate_series(1, ${size.exports}) g
        CROSS JOIN LATERAL (SELECT 1 + (${unit(g, 17)} * 500)::int AS c, now() - ${unit(g, 18)} * ${span} * interval '1 day' AS t) r
        JOIN u ON u.k = floor(power(${unit(g, 19)}, 2) * ${size.users})::int`.execute(db),
  );
  // The ledger, as the app keeps it: an opening grant per user (enough for all of the user's exports,
  // plus a random 0-5,000 left over), a debit per export, a refund per failed export. balance_after
  // is the running sum per user in time order (a window over all the rows, one statement), and
  // users.credit_balance the sum of the user's rows, so ledger and balances agree.
  await step('credit_ledger', async () => {
    const benchUsers = sql`SELECT id FROM users WHERE email LIKE ${`${EMAIL_PREFIX}%${DOMAIN}`}`;
    await sql`WITH bench_users AS MATERIALIZED (${benchUsers}),
        jobs AS MATERIALIZED (SELECT e.id, e.user_id, e.credits, e.status, e.created_at, e.finished_at FROM export_jobs e JOIN bench_users u ON u.id = e.user_id),
        entries AS (
          SELECT u.id AS user_id, 1 + coalesce(d.debits, 0) + (${unit(sql.ref('u.id'), 4)} * 5000)::int AS delta, 'opening' AS kind,
                 NULL::bigint AS export_job_id, 'bench' AS reason, now() - interval '400 days' AS created_at, 0 AS turn
          FROM bench_users u LEFT JOIN (SELECT user_id, sum(credits)::int AS debits FROM jobs GROUP BY user_id) d ON d.user_id = u.id
          UNION ALL
          SELECT user_id, -credits, 'export', id, '', created_at, 1 FROM jobs
          UNION ALL
          SELECT user_id, credits, 'refund', id, '', finished_at, 2 FROM jobs WHERE status = 'failed'
        )
        INSERT INTO credit_ledger (user_id, delta, kind, export_job_id, reason, balance_after, created_at)
        SELECT user_id, delta, kind, export_job_id, reason,
               (sum(delta) OVER (PARTITION BY user_id ORDER BY created_at, turn, export_job_id ROWS UNBOUNDED PRECEDING))::int, created_at
        FROM entries
        ORDER BY created_at, turn, export_job_id`.execute(db);
    await sql`UPDATE users u SET credit_balance = l.balance
              FROM (SELECT user_id, sum(delta)::int AS balance FROM credit_ledger WHERE user_id IN (${benchUsers}) GROUP BY user_id) l
              WHERE u.id = l.user_id`.execute(db);
  });
  await step('ledger check', async () => {
    const wrong = await ledgerInconsistencies(db);
    if (wrong) throw new Error(`usage data: the credit ledger does not add up (${JSON.stringify(wrong)})`);
  });
  // VACUUM as autovacuum would after these inserts: it sets the visibility map index-only scans read.
  await step('vacuum analyze', () =>
    sql`VACUUM ANALYZE organisations, users, subscriptions, login_attempts, user_sessions, search_log, export_jobs, credit_ledger`.execute(
      db,
    ),
  );
  return timings;
}

/**
 * What does not add up in the credit ledger, or null: rows whose balance_after is not the running
 * sum of the user's deltas (in time order), negative balances, users whose credit_balance is not
 * the sum of their rows.
 */
export async function ledgerInconsistencies(
  db: Kysely<Database>,
): Promise<{ runningSums: number; negative: number; balances: number } | null> {
  const { rows } = await sql<{ running_sums: number; negative: number; balances: number }>`
    SELECT
      (SELECT count(*)::int FROM (
         SELECT balance_after, sum(delta) OVER (PARTITION BY user_id ORDER BY created_at, id) AS running FROM credit_ledger) r
       WHERE r.running <> r.balance_after) AS running_sums,
      (SELECT count(*)::int FROM credit_ledger WHERE balance_after < 0) AS negative,
      (SELECT count(*)::int FROM users u
       WHERE u.credit_balance <> coalesce((SELECT sum(delta) FROM credit_ledger l WHERE l.user_id = u.id), 0)) AS balances`.execute(db);
  const row = rows[0];
  if (!row || (row.running_sums === 0 && row.negative === 0 && row.balances === 0)) return null;
  return { runningSums: row.running_sums, negative: row.negative, balances: row.balances };
}
