import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { containsPattern } from '../../db/like-pattern.ts';

/*
 * The SQL of the usage dashboards. Everything is aggregated in the database: a period's days come
 * from generate_series, each event table is read once per statement through its date index, and
 * only the figures travel. Days are UTC calendar days: an event's day is its instant in UTC.
 *
 * Where a figure comes from:
 * - logins and failed logins: login_attempts (failed = wrong password, unknown account, no
 *   subscription …);
 * - active users: distinct users with a successful login that day or a session open that day
 *   (user_sessions from creation to last activity), so a user who stays logged in past midnight
 *   counts on both days;
 * - searches: search_log (one row per search run); exports: export_jobs (one per export started);
 * - credits spent: credit_ledger rows of kind 'export' (negative) and 'refund' (positive), negated.
 */

type Db = Kysely<Database>;

/** A period as instants: [start, end) covers the UTC days from..to. */
export interface PeriodBounds {
  from: string;
  to: string;
  start: Date;
  end: Date;
}

/**
 * The days of a period with their UTC bounds, as a CTE. The series runs over `timestamp` (no zone):
 * each d is a UTC midnight as wall-clock time and `d AT TIME ZONE 'UTC'` is that instant. Over
 * dates or `timestamptz` the series would be midnights of the session's time zone instead.
 */
const daysCte = (p: PeriodBounds) => sql`days AS (
      SELECT d::date AS day, d AT TIME ZONE 'UTC' AS t0, (d + interval '1 day') AT TIME ZONE 'UTC' AS t1
      FROM generate_series(${p.from}::date::timestamp, ${p.to}::date::timestamp, interval '1 day') AS d
    )`;

/**
 * (day, user) of sessions running past midnight, on each later day of theirs inside the period
 * (the day a session starts, its login counts the user), as a CTE. Few rows: found through the
 * partial index of overnight sessions (migration 0019).
 */
const overnightCte = (p: PeriodBounds) => sql`overnight AS MATERIALIZED (
      SELECT DISTINCT g::date AS day, s.user_id
      FROM user_sessions s
      CROSS JOIN LATERAL generate_series(
        greatest(date_trunc('day', s.created_at AT TIME ZONE 'UTC') + interval '1 day', ${p.from}::date::timestamp),
        least(s.last_activity_at, ${p.end}::timestamptz - interval '1 microsecond') AT TIME ZONE 'UTC',
        interval '1 day') AS g
      WHERE (s.last_activity_at AT TIME ZONE 'UTC')::date > (s.created_at AT TIME ZONE 'UTC')::date
        AND s.last_activity_at >= ${p.start} AND s.created_at < ${p.end}
    )`;

/**
 * Logins, failed logins and the users who logged in, one row per day of the period, counted day
 * by day (a LATERAL per day over the covering date index, migration 0019): each day's distinct
 * users are a small count, where one distinct count of (day, user) pairs over a year hashed or
 * sorted half a million rows.
 */
export async function dailyLogins(db: Db, p: PeriodBounds) {
  const { rows } = await sql<{ day: string; logged_in: number; logins: number; failed_logins: number }>`
    WITH ${daysCte(p)}
    SELECT to_char(days.day, 'YYYY-MM-DD') AS day, x.logged_in, x.ok AS logins, x.failed AS failed_logins
    FROM days
    CROSS JOIN LATERAL (
      SELECT count(DISTINCT user_id) FILTER (WHERE NOT failed)::int AS logged_in,
             count(*) FILTER (WHERE NOT failed)::int AS ok,
             count(*) FILTER (WHERE failed)::int AS failed
      FROM login_attempts WHERE login_date >= days.t0 AND login_date < days.t1
    ) AS x
    ORDER BY days.day`.execute(db);
  return rows;
}

/**
 * Users active on a day only through a session running past midnight (no login that day), per
 * day of the period that has any: added to the day's users who logged in. The check is forced
 * per pair (a scalar EXISTS, an index-only probe of the successful logins, 0019); as an anti-join
 * the optimiser hashed every login of the period instead.
 */
export async function sessionOnlyDays(db: Db, p: PeriodBounds) {
  const { rows } = await sql<{ day: string; users: number }>`
    WITH ${overnightCte(p)}
    SELECT to_char(o.day, 'YYYY-MM-DD') AS day, count(*)::int AS users
    FROM overnight o
    WHERE NOT (SELECT EXISTS (
      SELECT 1 FROM login_attempts a
      WHERE a.user_id = o.user_id AND NOT a.failed
        AND a.login_date >= o.day::timestamp AT TIME ZONE 'UTC' AND a.login_date < (o.day + 1)::timestamp AT TIME ZONE 'UTC'))
    GROUP BY o.day
    ORDER BY o.day`.execute(db);
  return rows;
}

/** Searches, exports and credits spent (refunds deducted), one row per day: a count over a short range of each covering date index. */
export async function dailyEvents(db: Db, p: PeriodBounds) {
  const { rows } = await sql<{ day: string; searches: number; exports: number; credits_spent: number }>`
    WITH ${daysCte(p)}
    SELECT to_char(days.day, 'YYYY-MM-DD') AS day,
           (SELECT count(*)::int FROM search_log WHERE created_at >= days.t0 AND created_at < days.t1) AS searches,
           (SELECT count(*)::int FROM export_jobs WHERE created_at >= days.t0 AND created_at < days.t1) AS exports,
           (SELECT coalesce(-sum(delta), 0)::int FROM credit_ledger
             WHERE created_at >= days.t0 AND created_at < days.t1 AND kind IN ('export', 'refund')) AS credits_spent
    FROM days
    ORDER BY days.day`.execute(db);
  return rows;
}

/**
 * Distinct users active in the period: a successful login in it (a probe per user through the
 * index of successful logins, not a distinct count over every login), or a session running past
 * midnight that overlaps it (a session's first day is counted by its login; one that started
 * before the period and ran into it makes its user active on the period's first day).
 */
export async function periodActiveUsers(db: Db, p: PeriodBounds): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM (
      SELECT s.user_id FROM user_sessions s
      WHERE (s.last_activity_at AT TIME ZONE 'UTC')::date > (s.created_at AT TIME ZONE 'UTC')::date
        AND s.last_activity_at >= ${p.start} AND s.created_at < ${p.end}
      UNION
      SELECT u.id FROM users u
      WHERE EXISTS (SELECT 1 FROM login_attempts a
                    WHERE a.user_id = u.id AND NOT a.failed AND a.login_date >= ${p.start} AND a.login_date < ${p.end})
    ) AS active`.execute(db);
  return rows[0]?.n ?? 0;
}

/** Running subscriptions of active accounts ending within 30 days: both counts and the soonest rows. */
export async function endingSoon(db: Db, limit: number) {
  const window = sql`s.end_date > now() AND s.end_date <= now() + interval '30 days' AND s.start_date <= now() AND u.active`;
  const [counts, rows] = await Promise.all([
    sql<{ within7: number; within30: number }>`
      SELECT count(*) FILTER (WHERE s.end_date <= now() + interval '7 days')::int AS within7, count(*)::int AS within30
      FROM subscriptions s JOIN users u ON u.id = s.user_id
      WHERE ${window}`.execute(db),
    sql<{
      subscription_id: number;
      user_id: number;
      email: string;
      first_name: string;
      last_name: string;
      organisation_id: number | null;
      organisation_name: string | null;
      role_name: string;
      end_date: Date;
      days_left: number;
    }>`
      SELECT s.id AS subscription_id, u.id AS user_id, u.email, u.first_name, u.last_name,
             o.id AS organisation_id, o.name AS organisation_name, s.role_name, s.end_date,
             ceil(extract(epoch FROM s.end_date - now()) / 86400)::int AS days_left
      FROM subscriptions s
      JOIN users u ON u.id = s.user_id
      LEFT JOIN organisations o ON o.id = u.organisation_id
      WHERE ${window}
      ORDER BY s.end_date, s.id
      LIMIT ${limit}`.execute(db),
  ]);
  return { within7: counts.rows[0]?.within7 ?? 0, within30: counts.rows[0]?.within30 ?? 0, rows: rows.rows };
}

/**
 * Organisations by logins + searches + exports in the period (per user first, then per
 * organisation: the joins see one row per active user, not one per event).
 */
export async function topOrganisations(db: Db, p: PeriodBounds, limit: number) {
  const { rows } = await sql<{
    organisation_id: number;
    name: string;
    active_users: number;
    logins: number;
    searches: number;
    exports: number;
  }>`
    WITH per_user AS (
      SELECT user_id, sum(logins)::int AS logins, sum(searches)::int AS searches, sum(exports)::int AS exports
      FROM (
        SELECT user_id, count(*) AS logins, 0 AS searches, 0 AS exports
        FROM login_attempts WHERE login_date >= ${p.start} AND login_date < ${p.end} AND NOT failed AND user_id IS NOT NULL
        GROUP BY user_id
        UNION ALL
        SELECT user_id, 0, count(*), 0
        FROM search_log WHERE created_at >= ${p.start} AND created_at < ${p.end} AND user_id IS NOT NULL
        GROUP BY user_id
        UNION ALL
        SELECT user_id, 0, 0, count(*)
        FROM export_jobs WHERE created_at >= ${p.start} AND created_at < ${p.end}
        GROUP BY user_id
      ) AS events
      GROUP BY user_id
    )
    SELECT o.id AS organisation_id, o.name, count(*)::int AS active_users,
           sum(pu.logins)::int AS logins, sum(pu.searches)::int AS searches, sum(pu.exports)::int AS exports
    FROM per_user pu
    JOIN users u ON u.id = pu.user_id
    JOIN organisations o ON o.id = u.organisation_id
    GROUP BY o.id, o.name
    ORDER BY sum(pu.logins + pu.searches + pu.exports) DESC, o.name
    LIMIT ${limit}`.execute(db);
  return rows;
}

/** Addresses with the most failed logins in the period. */
export async function failedLoginAddresses(db: Db, p: PeriodBounds, limit: number) {
  const { rows } = await sql<{ ip_address: string | null; attempts: number; accounts: number; last_at: Date }>`
    SELECT ip_address, count(*)::int AS attempts, count(DISTINCT username)::int AS accounts, max(login_date) AS last_at
    FROM login_attempts
    WHERE login_date >= ${p.start} AND login_date < ${p.end} AND failed
    GROUP BY ip_address
    ORDER BY count(*) DESC, max(login_date) DESC
    LIMIT ${limit}`.execute(db);
  return rows;
}

/* ---------- client dashboard ---------- */

export function organisationById(db: Db, id: number) {
  return db.selectFrom('organisations').select(['id', 'name', 'seats', 'active']).where('id', '=', id).executeTakeFirst();
}

export async function organisationOfUser(db: Db, userId: number): Promise<number | null> {
  const row = await db.selectFrom('users').select('organisation_id').where('id', '=', userId).executeTakeFirst();
  return row?.organisation_id ?? null;
}

/** The organisation's users (by e-mail, at most `limit`) with their subscriptions and last successful login. */
export async function organisationUsers(db: Db, organisationId: number, limit: number) {
  const { rows } = await sql<{
    id: number;
    email: string;
    first_name: string;
    last_name: string;
    active: boolean;
    credit_balance: number;
    last_login: Date | null;
    subscriptions: { role: string; startDate: string; endDate: string; status: 'scheduled' | 'active' | 'ended' }[];
  }>`
    SELECT u.id, u.email, u.first_name, u.last_name, u.active, u.credit_balance,
      (SELECT max(a.login_date) FROM login_attempts a WHERE a.user_id = u.id AND NOT a.failed) AS last_login,
      coalesce((
        SELECT json_agg(json_build_object(
                 'role', s.role_name,
                 'startDate', to_char(s.start_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                 'endDate', to_char(s.end_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                 'status', CASE WHEN s.start_date > now() THEN 'scheduled' WHEN s.end_date > now() THEN 'active' ELSE 'ended' END)
               ORDER BY s.end_date DESC, s.id)
        FROM subscriptions s WHERE s.user_id = u.id), '[]'::json) AS subscriptions
    FROM users u
    WHERE u.organisation_id = ${organisationId}
    ORDER BY u.email
    LIMIT ${limit}`.execute(db);
  return rows;
}

/**
 * Seats: users; seats taken (accounts not deactivated, the rule account administration enforces);
 * users of active accounts with a subscription running now.
 */
export async function organisationSeats(db: Db, organisationId: number) {
  const { rows } = await sql<{ users: number; seats_taken: number; active_users: number }>`
    SELECT count(*)::int AS users,
           count(*) FILTER (WHERE u.active)::int AS seats_taken,
           count(*) FILTER (WHERE u.active AND EXISTS (
             SELECT 1 FROM subscriptions s WHERE s.user_id = u.id AND s.start_date <= now() AND s.end_date > now()))::int AS active_users
    FROM users u WHERE u.organisation_id = ${organisationId}`.execute(db);
  return rows[0] ?? { users: 0, seats_taken: 0, active_users: 0 };
}

/** The organisation's credits: the ledger of its users by kind (all time and in the period) and their balances. */
export async function organisationCredits(db: Db, organisationId: number, p: PeriodBounds) {
  const { rows } = await sql<{ granted: number; spent: number; adjusted: number; spent_in_period: number; balance: number }>`
    SELECT
      coalesce(sum(l.delta) FILTER (WHERE l.kind IN ('opening', 'grant')), 0)::int AS granted,
      coalesce(-sum(l.delta) FILTER (WHERE l.kind IN ('export', 'refund')), 0)::int AS spent,
      coalesce(sum(l.delta) FILTER (WHERE l.kind = 'adjustment'), 0)::int AS adjusted,
      coalesce(-sum(l.delta) FILTER (WHERE l.kind IN ('export', 'refund') AND l.created_at >= ${p.start} AND l.created_at < ${p.end}), 0)::int AS spent_in_period,
      (SELECT coalesce(sum(credit_balance), 0)::int FROM users WHERE organisation_id = ${organisationId}) AS balance
    FROM credit_ledger l
    WHERE l.user_id IN (SELECT id FROM users WHERE organisation_id = ${organisationId})`.execute(db);
  return rows[0] ?? { granted: 0, spent: 0, adjusted: 0, spent_in_period: 0, balance: 0 };
}

/**
 * Logins, searches and exports of the organisation's users per week (weeks start on Monday; the
 * first and last weeks count only the period's days). Read per user through the (user_id, date) indexes.
 */
export async function organisationTrend(db: Db, organisationId: number, p: PeriodBounds) {
  const week = (column: RawBuilder<unknown>) => sql<string>`date_trunc('week', ${column} AT TIME ZONE 'UTC')::date`;
  const { rows } = await sql<{ week: string; logins: number; searches: number; exports: number }>`
    WITH members AS (SELECT id FROM users WHERE organisation_id = ${organisationId}),
    weeks AS (
      SELECT w::date AS week FROM generate_series(date_trunc('week', ${p.from}::date::timestamp), ${p.to}::date::timestamp, interval '1 week') AS w
    ),
    logins AS (
      SELECT ${week(sql.ref('a.login_date'))} AS week, count(*)::int AS n
      FROM login_attempts a JOIN members m ON m.id = a.user_id
      WHERE a.login_date >= ${p.start} AND a.login_date < ${p.end} AND NOT a.failed
      GROUP BY 1
    ),
    searches AS (
      SELECT ${week(sql.ref('l.created_at'))} AS week, count(*)::int AS n
      FROM search_log l JOIN members m ON m.id = l.user_id
      WHERE l.created_at >= ${p.start} AND l.created_at < ${p.end}
      GROUP BY 1
    ),
    exports AS (
      SELECT ${week(sql.ref('e.created_at'))} AS week, count(*)::int AS n
      FROM export_jobs e JOIN members m ON m.id = e.user_id
      WHERE e.created_at >= ${p.start} AND e.created_at < ${p.end}
      GROUP BY 1
    )
    SELECT to_char(weeks.week, 'YYYY-MM-DD') AS week,
           coalesce(logins.n, 0) AS logins, coalesce(searches.n, 0) AS searches, coalesce(exports.n, 0) AS exports
    FROM weeks
    LEFT JOIN logins ON logins.week = weeks.week
    LEFT JOIN searches ON searches.week = weeks.week
    LEFT JOIN exports ON exports.week = weeks.week
    ORDER BY weeks.week`.execute(db);
  return rows;
}

/** Organisations whose name contains `q` (any case), by name, with their user counts. */
export async function searchOrganisations(db: Db, q: string | undefined, limit: number) {
  const pattern = q ? containsPattern(q) : null;
  const { rows } = await sql<{ id: number; name: string; active: boolean; users: number; total: number }>`
    SELECT o.id, o.name, o.active,
           (SELECT count(*)::int FROM users u WHERE u.organisation_id = o.id) AS users,
           count(*) OVER ()::int AS total
    FROM organisations o
    WHERE ${pattern === null ? sql`true` : sql`o.name ILIKE ${pattern}`}
    ORDER BY lower(o.name), o.id
    LIMIT ${limit}`.execute(db);
  return rows;
}
