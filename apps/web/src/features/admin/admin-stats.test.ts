import { describe, expect, it } from 'vitest';
import type { AdminUserRow } from '@kb/contracts/admin';
import type { LoginTrackerRow } from '@kb/contracts/admin-trackers';
import { deriveAdminStats } from './admin-stats.ts';

const now = new Date('2030-06-01T00:00:00.000Z');

function user(id: number, roles: [string, string][], active = true): AdminUserRow {
  return {
    userId: id,
    userName: `u${id}@demo.test`,
    firstName: 'U',
    lastName: String(id),
    creditBalance: 100,
    active,
    lastLoginAt: null,
    subscriptions: roles.map(([roleName, endDate], index) => ({ roleName, endDate, contractId: `C${id}-${index}`, havingFlatFileAccess: false })),
  };
}

function tracker(userEmail: string, loginDate: string, failed: boolean): LoginTrackerRow {
  return { id: 0, userEmail, organisation: null, loginDate, logoutDate: null, failed, failureReason: null, ipAddress: null };
}

describe('admin dashboard stats', () => {
  it('counts users, active accounts and users per active role', () => {
    const stats = deriveAdminStats(
      [
        user(1, [['FULL_USER', '2031-01-01'], ['GOSTAR_ADMIN', '2031-01-01']]),
        user(2, [['FULL_USER', '2031-01-01'], ['FULL_USER', '2032-01-01']]),
        user(3, [['EVALUATE_USER', '2020-01-01']], false),
      ],
      [],
      now,
    );
    expect(stats.users).toBe(3);
    expect(stats.activeUsers).toBe(2);
    expect(stats.usersPerRole).toEqual({ FULL_USER: 2, GOSTAR_ADMIN: 1 });
  });

  it('keeps failed logins of the last 7 days, newest first', () => {
    const stats = deriveAdminStats(
      [],
      [
        tracker('a', '2030-05-30T10:00:00.000Z', true),
        tracker('b', '2030-05-31T10:00:00.000Z', true),
        tracker('c', '2030-05-31T11:00:00.000Z', false),
        tracker('d', '2030-05-01T10:00:00.000Z', true),
      ],
      now,
    );
    expect(stats.recentFailedLogins.map((row) => row.userEmail)).toEqual(['b', 'a']);
  });
});
