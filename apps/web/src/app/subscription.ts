import { subscriptionWarnings } from '@kb/contracts/access';
import type { SubscriptionInfo } from '@kb/contracts/auth';

const DAY_MS = 86_400_000;

/** Whole days until `endDate` (rounded up; negative once past), or null without a date. */
export function daysUntil(endDate: string | null, now: number = Date.now()): number | null {
  if (!endDate) return null;
  const end = Date.parse(endDate);
  if (!Number.isFinite(end)) return null;
  return Math.ceil((end - now) / DAY_MS);
}

/** Spec §9 warning texts for a subscription-info answer. */
export function warningsFor(info: SubscriptionInfo, now: number = Date.now()): string[] {
  return subscriptionWarnings({ daysLeft: daysUntil(info.end_date, now), creditBalance: info.creditbalance });
}
