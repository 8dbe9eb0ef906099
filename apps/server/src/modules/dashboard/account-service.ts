import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { SubscriptionInfo, SubscriptionSummary, UserProfile } from '@kb/contracts/auth';
import { SUBSCRIPTION_WARNING } from '@kb/contracts/auth';
import type { LoginHistoryRow, NotificationSettings } from '@kb/contracts/dashboard';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';

const DAY_MS = 86_400_000;

/** The caller's own account: profile, subscription state, login history, notification settings. */
export class AccountService {
  constructor(private readonly db: Kysely<Database>) {}

  async profile(userId: number): Promise<UserProfile> {
    const user = await this.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
    if (!user) throw notFound('No such user.');
    const [subscriptions, unread] = await Promise.all([
      // A subscription that has not started yet is not the user's yet (the web derives roles from end dates).
      this.db
        .selectFrom('subscriptions')
        .selectAll()
        .where('user_id', '=', userId)
        .where('start_date', '<=', sql<Date>`now()`)
        .orderBy('position')
        .orderBy('id')
        .execute(),
      this.db
        .selectFrom('notifications')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('user_id', '=', userId)
        .where('read_at', 'is', null)
        .executeTakeFirstOrThrow(),
    ]);
    return {
      userId: user.id,
      userName: user.email,
      firstName: user.first_name,
      lastName: user.last_name,
      isNewUser: user.is_new_user,
      notificationsCount: unread.n,
      subscriptionDetailsList: subscriptions.map((s) => ({
        roleName: s.role_name,
        endDate: s.end_date.toISOString(),
        contractId: s.contract_id,
        havingFlatFileAccess: s.having_flat_file_access,
      })),
    };
  }

  /** Latest end date among active subscriptions, credit balance, days left. */
  private async subscriptionState(userId: number) {
    const row = await this.db
      .selectFrom('users as u')
      .select([
        'u.email',
        'u.credit_balance',
        sql<Date | null>`(select max(end_date) from subscriptions s where s.user_id = u.id and s.start_date <= now() and s.end_date > now())`.as(
          'end_date',
        ),
      ])
      .where('u.id', '=', userId)
      .executeTakeFirst();
    if (!row) throw notFound('No such user.');
    const daysLeft = row.end_date ? Math.floor((row.end_date.getTime() - Date.now()) / DAY_MS) : null;
    return { ...row, daysLeft };
  }

  async subscriptionInfo(userId: number): Promise<SubscriptionInfo> {
    const state = await this.subscriptionState(userId);
    return {
      end_date: state.end_date?.toISOString() ?? null,
      creditbalance: state.credit_balance,
      userExpiring: state.daysLeft === null || state.daysLeft < SUBSCRIPTION_WARNING.daysBelow,
    };
  }

  async subscriptionSummary(userId: number): Promise<SubscriptionSummary> {
    const state = await this.subscriptionState(userId);
    return {
      downloadBalance: state.credit_balance,
      username: state.email,
      expiringDays: state.daysLeft,
      endDate: state.end_date?.toISOString() ?? null,
      expiring: state.daysLeft === null || state.daysLeft < SUBSCRIPTION_WARNING.daysBelow,
    };
  }

  async loginHistory(userId: number, limit = 200): Promise<LoginHistoryRow[]> {
    const rows = await this.db
      .selectFrom('login_attempts')
      .select(['login_date', 'logout_date', 'failed', 'ip_address'])
      .where('user_id', '=', userId)
      .orderBy('login_date', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      loginDate: r.login_date.toISOString(),
      logoutDate: r.logout_date?.toISOString() ?? null,
      failed: r.failed,
      TotalDuration_seconds: r.logout_date ? Math.max(0, Math.round((r.logout_date.getTime() - r.login_date.getTime()) / 1000)) : null,
      ipAddress: r.ip_address,
    }));
  }

  async notificationSettings(userId: number, update?: Omit<NotificationSettings, 'notificationSettingsId'>): Promise<NotificationSettings> {
    if (update) {
      await this.db
        .insertInto('notification_settings')
        .values({
          user_id: userId,
          notification_system_email: update.notificationSystemEmail,
          notification_database_email: update.notificationDatabaseEmail,
          is_notification_email: update.is_notification_email,
        })
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet({
            notification_system_email: update.notificationSystemEmail,
            notification_database_email: update.notificationDatabaseEmail,
            is_notification_email: update.is_notification_email,
            updated_at: sql`now()`,
          }),
        )
        .execute();
    }
    const row = await this.db.selectFrom('notification_settings').selectAll().where('user_id', '=', userId).executeTakeFirst();
    // No row yet means the defaults: every notification on.
    return {
      notificationSettingsId: row?.id ?? null,
      notificationSystemEmail: row?.notification_system_email ?? true,
      notificationDatabaseEmail: row?.notification_database_email ?? true,
      is_notification_email: row?.is_notification_email ?? true,
    };
  }
}
