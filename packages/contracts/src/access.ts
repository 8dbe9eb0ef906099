import type { SubscriptionDetail, UserProfile } from './auth.ts';
import type { Role } from './roles.ts';
import { FLAT_FILE_CAPABLE_ROLES, isRole } from './roles.ts';

/** What spec §6 "Profile handling" derives from a profile. */
export interface ProfileAccess {
  /** Recognised roles in the order of the subscription list. */
  roles: Role[];
  /** The last recognised role, or null when none is recognised. */
  currentRole: Role | null;
  havingFlatFileAccess: boolean;
  hasMultipleRoles: boolean;
  /** One flag per recognised role other than FLAT_FILE_ONLY ("each other role sets its own access flag"). */
  roleFlags: Partial<Record<Role, true>>;
  /** True when at least one subscription's end date is in the future. */
  hasActiveSubscription: boolean;
}

/** Spec §6: a subscription is active if its end date is in the future. */
export function isSubscriptionActive(subscription: Pick<SubscriptionDetail, 'endDate'>, now: Date = new Date()): boolean {
  const end = Date.parse(subscription.endDate);
  return Number.isFinite(end) && end > now.getTime();
}

/**
 * Spec §6 profile handling, literally: flat-file access is set by a subscription that marks it for
 * one of the first five roles, or by holding FLAT_FILE_ONLY; every recognised role other than
 * FLAT_FILE_ONLY sets its own flag and marks the user as having multiple roles; the current role is
 * the last recognised role. Only active subscriptions count.
 */
export function deriveProfileAccess(profile: Pick<UserProfile, 'subscriptionDetailsList'>, now: Date = new Date()): ProfileAccess {
  const access: ProfileAccess = {
    roles: [],
    currentRole: null,
    havingFlatFileAccess: false,
    hasMultipleRoles: false,
    roleFlags: {},
    hasActiveSubscription: false,
  };
  for (const subscription of profile.subscriptionDetailsList) {
    if (!isSubscriptionActive(subscription, now)) continue;
    access.hasActiveSubscription = true;
    const role = subscription.roleName;
    if (!isRole(role)) continue;
    if (!access.roles.includes(role)) access.roles.push(role);
    access.currentRole = role;
    if (role === 'FLAT_FILE_ONLY') {
      access.havingFlatFileAccess = true;
      continue;
    }
    if (FLAT_FILE_CAPABLE_ROLES.includes(role) && subscription.havingFlatFileAccess) access.havingFlatFileAccess = true;
    access.roleFlags[role] = true;
    access.hasMultipleRoles = true;
  }
  return access;
}

/** Spec §9 subscription warnings: texts to show, in order. */
export function subscriptionWarnings(input: { daysLeft: number | null; creditBalance: number }): string[] {
  const warnings: string[] = [];
  if (input.creditBalance <= 100) warnings.push(`You have ${input.creditBalance} downloads remaining.`);
  if (input.daysLeft !== null && input.daysLeft < 7) warnings.push('Subscriptions renewal required.');
  return warnings;
}
