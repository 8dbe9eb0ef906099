import type { Kysely } from 'kysely';
import type { AdminSubscriptionsResponse, SuperAdminOverview } from '@kb/contracts/admin';
import type { Database } from '../../db/schema.ts';
import type { DatabaseKind } from '../../db/database.ts';
import { activeUsersPerRole, overviewCounts, usersWithSubscriptions } from './admin-queries.ts';

/**
 * What the administration pages read (spec §4 "Admin"): the routes only check access and answer.
 * The SQL is in admin-queries.ts; this turns rows into the contract's shapes.
 */
export class AdminService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly kind: DatabaseKind,
  ) {}

  async subscriptions(): Promise<AdminSubscriptionsResponse> {
    const users = await usersWithSubscriptions(this.db);
    return {
      rows: users.map((u) => ({
        userId: u.id,
        userName: u.email,
        firstName: u.first_name,
        lastName: u.last_name,
        creditBalance: u.credit_balance,
        active: u.active,
        lastLoginAt: u.last_login?.toISOString() ?? null,
        subscriptions: u.subscriptions,
      })),
    };
  }

  async overview(): Promise<SuperAdminOverview> {
    const [counts, perRole] = await Promise.all([overviewCounts(this.db), activeUsersPerRole(this.db)]);
    return {
      database: this.kind,
      users: counts.users ?? 0,
      activeSessions: counts.active_sessions ?? 0,
      usersPerRole: Object.fromEntries(perRole.map((r) => [r.role_name, r.n])),
      failedLoginsLastDay: counts.failed_last_day ?? 0,
      outboxPending: counts.outbox_pending ?? 0,
    };
  }
}
