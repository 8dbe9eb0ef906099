import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { adminEndpoints } from '@kb/contracts/api';
import type { Database } from '../../db/schema.ts';
import type { DatabaseKind } from '../../db/database.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';

export function registerAdminRoutes(app: FastifyInstance, db: Kysely<Database>, kind: DatabaseKind): void {
  registerEndpoint(app, adminEndpoints.subscriptions, async () => {
    const [users, subscriptions] = await Promise.all([
      db
        .selectFrom('users as u')
        .select([
          'u.id',
          'u.email',
          'u.first_name',
          'u.last_name',
          'u.credit_balance',
          'u.active',
          sql<Date | null>`(select max(login_date) from login_attempts a where a.user_id = u.id and not a.failed)`.as('last_login'),
        ])
        .orderBy('u.email')
        .execute(),
      db.selectFrom('subscriptions').selectAll().orderBy('user_id').orderBy('position').orderBy('id').execute(),
    ]);
    return {
      rows: users.map((u) => ({
        userId: u.id,
        userName: u.email,
        firstName: u.first_name,
        lastName: u.last_name,
        creditBalance: u.credit_balance,
        active: u.active,
        lastLoginAt: u.last_login?.toISOString() ?? null,
        subscriptions: subscriptions
          .filter((s) => s.user_id === u.id)
          .map((s) => ({
            roleName: s.role_name,
            endDate: s.end_date.toISOString(),
            contractId: s.contract_id,
            havingFlatFileAccess: s.having_flat_file_access,
          })),
      })),
    };
  });

  registerEndpoint(app, adminEndpoints.trackers, async () => {
    const rows = await db
      .selectFrom('login_attempts')
      .select(['username', 'login_date', 'logout_date', 'failed', 'ip_address'])
      .orderBy('login_date', 'desc')
      .orderBy('id', 'desc')
      .limit(500)
      .execute();
    return {
      rows: rows.map((r) => ({
        userName: r.username,
        loginDate: r.login_date.toISOString(),
        logoutDate: r.logout_date?.toISOString() ?? null,
        failed: r.failed,
        ipAddress: r.ip_address,
      })),
    };
  });

  registerEndpoint(app, adminEndpoints.superAdminOverview, async () => {
    const count = (table: 'users' | 'outbox') => db.selectFrom(table).select(sql<number>`count(*)::int`.as('n'));
    const [users, sessions, perRole, failed, outbox] = await Promise.all([
      count('users').executeTakeFirstOrThrow(),
      db.selectFrom('user_sessions').select(sql<number>`count(*)::int`.as('n')).where('closed_at', 'is', null).executeTakeFirstOrThrow(),
      db
        .selectFrom('subscriptions')
        .select(['role_name', sql<number>`count(distinct user_id)::int`.as('n')])
        .where('end_date', '>', sql<Date>`now()`)
        .groupBy('role_name')
        .execute(),
      db
        .selectFrom('login_attempts')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('failed', '=', true)
        .where('login_date', '>', sql<Date>`now() - interval '1 day'`)
        .executeTakeFirstOrThrow(),
      count('outbox').where('sent_at', 'is', null).executeTakeFirstOrThrow(),
    ]);
    return {
      database: kind,
      users: users.n,
      activeSessions: sessions.n,
      usersPerRole: Object.fromEntries(perRole.map((r) => [r.role_name, r.n])),
      failedLoginsLastDay: failed.n,
      outboxPending: outbox.n,
    };
  });
}
