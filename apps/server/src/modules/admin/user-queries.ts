import { sql } from 'kysely';
import type { Expression, Kysely, SqlBool } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { AdminSubscription, AdminUser, AdminUserList, AdminUserListQuery } from '@kb/contracts/admin-accounts';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import { isoTimestamp } from './admin-queries.ts';
import type { AdminDeps } from './admin-context.ts';
import { openSession } from '../sessions/session-repository.ts';
import { containsPattern } from '../../db/like-pattern.ts';

/*
 * The administrators' user list: searched, filtered, sorted and paged in SQL, each user with their
 * organisation, subscriptions (one JSON array), last login and open sessions in one statement.
 */

type Db = Kysely<Database>;

/** A subscription runs between its start and end dates. */
const RUNNING = sql<SqlBool>`s.start_date <= now() AND s.end_date > now()`;
const EXPIRING_DAYS = 30;

function baseQuery(db: Db) {
  return db.selectFrom('users as u').leftJoin('organisations as o', 'o.id', 'u.organisation_id');
}

type Base = ReturnType<typeof baseQuery>;

function filtered(query: Base, filter: Partial<AdminUserListQuery> & { userIds?: readonly number[] }): Base {
  const conditions: Expression<SqlBool>[] = [];
  if (filter.userIds) conditions.push(sql<SqlBool>`u.id IN (${sql.join(filter.userIds.length ? filter.userIds : [0])})`);
  if (filter.q) {
    const pattern = containsPattern(filter.q);
    conditions.push(sql<SqlBool>`(u.email ILIKE ${pattern} OR (u.first_name || ' ' || u.last_name) ILIKE ${pattern}
      OR (u.last_name || ' ' || u.first_name) ILIKE ${pattern} OR o.name ILIKE ${pattern})`);
  }
  if (filter.organisationId !== undefined) conditions.push(sql<SqlBool>`u.organisation_id = ${filter.organisationId}`);
  if (filter.role) {
    conditions.push(
      sql<SqlBool>`EXISTS (SELECT 1 FROM subscriptions s WHERE s.user_id = u.id AND s.role_name = ${filter.role} AND s.end_date > now())`,
    );
  }
  const running = sql<SqlBool>`EXISTS (SELECT 1 FROM subscriptions s WHERE s.user_id = u.id AND ${RUNNING})`;
  switch (filter.status) {
    case 'active':
      conditions.push(running);
      break;
    case 'expiring':
      conditions.push(
        sql<SqlBool>`(SELECT max(s.end_date) FROM subscriptions s WHERE s.user_id = u.id AND ${RUNNING}) <= now() + make_interval(days => ${EXPIRING_DAYS})`,
      );
      break;
    case 'ended':
      conditions.push(sql<SqlBool>`EXISTS (SELECT 1 FROM subscriptions s WHERE s.user_id = u.id)
        AND NOT EXISTS (SELECT 1 FROM subscriptions s WHERE s.user_id = u.id AND s.end_date > now())`);
      break;
    case 'none':
      conditions.push(sql<SqlBool>`NOT ${running}`);
      break;
    case 'deactivated':
      conditions.push(sql<SqlBool>`NOT u.active`);
      break;
    case 'invited':
      conditions.push(sql<SqlBool>`u.password_hash IS NULL AND u.active`);
      break;
    case undefined:
      break;
  }
  return conditions.reduce((q, condition) => q.where(condition), query);
}

const SORTS: Record<AdminUserListQuery['sort'], ReturnType<typeof sql>> = {
  email: sql`u.email`,
  name: sql`lower(u.last_name || ' ' || u.first_name)`,
  organisation: sql`lower(o.name)`,
  endDate: sql`(SELECT max(s.end_date) FROM subscriptions s WHERE s.user_id = u.id)`,
  lastLogin: sql`(SELECT max(a.login_date) FROM login_attempts a WHERE a.user_id = u.id AND a.failed = false)`,
  credits: sql`u.credit_balance`,
  created: sql`u.created_at`,
};

function selectUsers(query: Base) {
  return query.select((eb) => [
    'u.id',
    'u.email',
    'u.first_name',
    'u.last_name',
    'u.organisation_id',
    'o.name as organisation_name',
    'u.active',
    sql<boolean>`u.password_hash IS NULL`.as('invited'),
    'u.credit_balance',
    'u.created_at',
    sql<Date | null>`(SELECT max(a.login_date) FROM login_attempts a WHERE a.user_id = u.id AND a.failed = false)`.as('last_login'),
    sql<number>`(SELECT count(*)::int FROM user_sessions us WHERE us.user_id = u.id AND ${openSession('us')})`.as('open_sessions'),
    jsonArrayFrom(
      eb
        .selectFrom('subscriptions as s')
        .select([
          's.id',
          's.role_name as roleName',
          's.contract_id as contractId',
          isoTimestamp(sql.ref('s.start_date')).as('startDate'),
          isoTimestamp(sql.ref('s.end_date')).as('endDate'),
          's.having_flat_file_access as havingFlatFileAccess',
          sql<
            AdminSubscription['status']
          >`CASE WHEN s.start_date > now() THEN 'scheduled' WHEN s.end_date > now() THEN 'active' ELSE 'ended' END`.as('status'),
          sql<string | null>`CASE WHEN s.ended_at IS NULL THEN NULL ELSE ${isoTimestamp(sql.ref('s.ended_at'))} END`.as('endedAt'),
        ])
        .whereRef('s.user_id', '=', 'u.id')
        .orderBy('s.position')
        .orderBy('s.id'),
    ).as('subscriptions'),
  ]);
}

type UserRow = Awaited<ReturnType<ReturnType<typeof selectUsers>['execute']>>[number];

function toAdminUser(row: UserRow, lockedOut: Set<number>): AdminUser {
  return {
    userId: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    organisationId: row.organisation_id,
    organisationName: row.organisation_name,
    state: !row.active ? 'deactivated' : row.invited ? 'invited' : 'active',
    creditBalance: row.credit_balance,
    lastLoginAt: row.last_login ? new Date(row.last_login).toISOString() : null,
    openSessions: row.open_sessions,
    lockedOut: lockedOut.has(row.id),
    subscriptions: row.subscriptions.map((s) => ({ ...s, id: Number(s.id), roleName: s.roleName as AdminSubscription['roleName'] })),
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** One page of the user list, with the number of users the filters match. */
export async function listUsers(deps: AdminDeps, query: AdminUserListQuery): Promise<AdminUserList> {
  const direction = sql.raw(query.direction === 'desc' ? 'DESC' : 'ASC');
  const [rows, count] = await Promise.all([
    selectUsers(filtered(baseQuery(deps.db), query))
      .orderBy(sql`${SORTS[query.sort]} ${direction} NULLS LAST`)
      .orderBy('u.id', query.direction)
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    filtered(baseQuery(deps.db), query).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  const locked = await deps.auth.lockedOutUsers(rows.map((r) => r.id));
  return { rows: rows.map((r) => toAdminUser(r, locked)), total: count.n };
}

/** One user as the list shows them; 404 when there is none. Read after any transaction has committed. */
export async function adminUser(deps: AdminDeps, userId: number): Promise<AdminUser> {
  const row = await selectUsers(filtered(baseQuery(deps.db), { userIds: [userId] })).executeTakeFirst();
  if (!row) throw notFound(`There is no user ${userId}.`);
  return toAdminUser(row, await deps.auth.lockedOutUsers([userId]));
}
