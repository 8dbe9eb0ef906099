import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Database } from '../../db/schema.ts';
import { openSession } from '../sessions/session-repository.ts';

/*
 * The SQL of the administration pages. Users and their subscriptions are joined here, in one
 * statement (a JSON array per user), instead of loading both tables and matching them in memory:
 * the page costs one round trip and memory for the answer only, however many users there are.
 */

type Db = Kysely<Database>;

/**
 * A timestamp as JavaScript's `Date#toISOString()` writes it ("2027-01-31T00:00:00.000Z"): values
 * inside a JSON aggregate are not turned into Dates by the driver, and the API answers the same
 * text it did when they were.
 */
export function isoTimestamp(column: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** Every user (by e-mail) with the last successful login and the subscriptions in their order. */
export function usersWithSubscriptions(db: Db) {
  return db
    .selectFrom('users as u')
    .select((eb) => [
      'u.id',
      'u.email',
      'u.first_name',
      'u.last_name',
      'u.credit_balance',
      'u.active',
      eb
        .selectFrom('login_attempts as a')
        .select((inner) => inner.fn.max('a.login_date').as('last'))
        .whereRef('a.user_id', '=', 'u.id')
        .where('a.failed', '=', false)
        .as('last_login'),
      jsonArrayFrom(
        eb
          .selectFrom('subscriptions as s')
          .select([
            's.role_name as roleName',
            isoTimestamp(sql.ref('s.end_date')).as('endDate'),
            's.contract_id as contractId',
            's.having_flat_file_access as havingFlatFileAccess',
          ])
          .whereRef('s.user_id', '=', 'u.id')
          .orderBy('s.position')
          .orderBy('s.id'),
      ).as('subscriptions'),
    ])
    .orderBy('u.email')
    .execute();
}

/** The figures of the super-admin overview, counted in one statement. */
export function overviewCounts(db: Db) {
  const count = sql<number>`count(*)::int`;
  return db
    .selectNoFrom((eb) => [
      eb.selectFrom('users').select(count.as('n')).as('users'),
      eb.selectFrom('user_sessions').select(count.as('n')).where(openSession()).as('active_sessions'),
      eb
        .selectFrom('login_attempts')
        .select(count.as('n'))
        .where('failed', '=', true)
        .where('login_date', '>', sql<Date>`now() - interval '1 day'`)
        .as('failed_last_day'),
      eb.selectFrom('outbox').select(count.as('n')).where('sent_at', 'is', null).as('outbox_pending'),
    ])
    .executeTakeFirstOrThrow();
}

/** Users with a running subscription, per role. */
export function activeUsersPerRole(db: Db) {
  return db
    .selectFrom('subscriptions')
    .select(['role_name', sql<number>`count(distinct user_id)::int`.as('n')])
    .where('start_date', '<=', sql<Date>`now()`)
    .where('end_date', '>', sql<Date>`now()`)
    .groupBy('role_name')
    .execute();
}
