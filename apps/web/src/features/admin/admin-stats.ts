import { isSubscriptionActive } from '@kb/contracts/access';
import type { AdminUserRow } from '@kb/contracts/admin';
import type { LoginTrackerRow } from '@kb/contracts/admin-trackers';

export interface AdminStats {
  users: number;
  activeUsers: number;
  /** Users holding an active subscription of each role. */
  usersPerRole: Record<string, number>;
  /** Failed logins in the window, newest first. */
  recentFailedLogins: LoginTrackerRow[];
}

const DAY_MS = 86_400_000;

/** The GOSTAR_ADMIN dashboard figures, derived from the subscriptions and the login tracker's answers. */
export function deriveAdminStats(users: readonly AdminUserRow[], trackers: readonly LoginTrackerRow[], now: Date = new Date(), windowMs: number = 7 * DAY_MS): AdminStats {
  const usersPerRole: Record<string, number> = {};
  for (const user of users) {
    const roles = new Set(user.subscriptions.filter((subscription) => isSubscriptionActive(subscription, now)).map((subscription) => subscription.roleName));
    for (const role of roles) usersPerRole[role] = (usersPerRole[role] ?? 0) + 1;
  }
  const since = now.getTime() - windowMs;
  const recentFailedLogins = trackers
    .filter((row) => row.failed && Date.parse(row.loginDate) >= since)
    .sort((a, b) => Date.parse(b.loginDate) - Date.parse(a.loginDate));
  return {
    users: users.length,
    activeUsers: users.filter((user) => user.active).length,
    usersPerRole,
    recentFailedLogins,
  };
}
