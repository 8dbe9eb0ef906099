import type { AdminSubscription, AdminUser, CreditKind } from '@kb/contracts/admin-accounts';
import type { Role } from '@kb/contracts/roles';
import { ADMIN_ROLES, ROLES } from '@kb/contracts/roles';
import { lastDay, utcDay } from '@kb/contracts/plain-date';
import { formatCount } from '../../../app/format/count-format.ts';

/**
 * How the account-administration page shows users, subscriptions and credits. Pure functions of
 * the contract's shapes and a clock, so the colours and texts are tested without a browser.
 * Days are UTC days, as the server reads them (contracts plain-date.ts): an end date is the last
 * day, inclusive — the server sends the instant after it (24:00 UTC), shown as that last day.
 */

/** Roles a KB admin may grant here; the admin roles are granted on /superadmin. */
export const GRANTABLE_ROLES: readonly Role[] = ROLES.filter((role) => !ADMIN_ROLES.includes(role));

const DAY_MS = 24 * 60 * 60 * 1000;

/** How close a subscription is to its end: the colour of its badge. */
export type EndTone = 'scheduled' | 'later' | 'month' | 'week' | 'ended';

export const TONE_COLOR: Readonly<Record<EndTone, string>> = {
  scheduled: 'grape',
  later: 'blue',
  month: 'yellow',
  week: 'red',
  ended: 'gray',
};

/** Whole days from `now` until `iso` (rounded up: ending later today is 1 day), negative once past. */
function daysUntil(iso: string, now: number = Date.now()): number {
  const time = Date.parse(iso);
  if (!Number.isFinite(time)) return Number.NaN;
  return Math.ceil((time - now) / DAY_MS);
}

/** Ended (or past its end date), ending within 7 or 30 days, later, or not started yet. */
export function subscriptionTone(subscription: Pick<AdminSubscription, 'status' | 'endDate'>, now: number = Date.now()): EndTone {
  if (subscription.status === 'ended') return 'ended';
  const days = daysUntil(subscription.endDate, now);
  if (!(days > 0)) return 'ended';
  if (subscription.status === 'scheduled') return 'scheduled';
  if (days <= 7) return 'week';
  if (days <= 30) return 'month';
  return 'later';
}

/** The words beside a badge's colour (colour alone must not carry the meaning). */
export function toneText(subscription: Pick<AdminSubscription, 'status' | 'endDate' | 'startDate'>, now: number = Date.now()): string {
  const tone = subscriptionTone(subscription, now);
  if (tone === 'ended') return 'ended';
  if (tone === 'scheduled') return `starts ${formatDay(subscription.startDate)}`;
  const days = daysUntil(subscription.endDate, now);
  if (tone === 'later') return `until ${formatLastDay(subscription.endDate)}`;
  return `${days === 1 ? 'ends within a day' : `ends in ${days} days`} (last day ${formatLastDay(subscription.endDate)})`;
}

export const STATE_BADGE: Readonly<Record<AdminUser['state'], { label: string; color: string }>> = {
  active: { label: 'Active', color: 'green' },
  invited: { label: 'Invited', color: 'blue' },
  deactivated: { label: 'Deactivated', color: 'gray' },
};

export const CREDIT_KIND_LABEL: Readonly<Record<CreditKind, string>> = {
  opening: 'Opening balance',
  grant: 'Added',
  export: 'Export',
  refund: 'Refund',
  adjustment: 'Adjustment',
};

export function fullName(user: Pick<AdminUser, 'firstName' | 'lastName'>): string {
  return `${user.firstName} ${user.lastName}`.trim();
}

/** A credit movement with its sign: "+1,000", "−250" (a true minus sign). */
export function formatCreditDelta(delta: number): string {
  if (delta > 0) return `+${formatCount(delta)}`;
  if (delta < 0) return `−${formatCount(-delta)}`;
  return '0';
}

/** A readable UTC day ("12 Mar 2027") of a day or an instant; a dash for null or an unparsable value. */
export function formatDay(value: string | null): string {
  if (!value) return '—';
  const time = Date.parse(value);
  if (!Number.isFinite(time)) return '—';
  return new Date(time).toLocaleDateString('en-GB', { year: 'numeric', month: 'short', day: '2-digit', timeZone: 'UTC' });
}

/** The last day a period ending at `end` includes, readable: "31 Mar 2027" for an end at 1 Apr 2027 00:00 UTC. */
export function formatLastDay(end: string | null): string {
  if (!end || !Number.isFinite(Date.parse(end))) return '—';
  return formatDay(lastDay(end));
}

/** A readable local date and time; a dash for null. */
export function formatMoment(value: string | null): string {
  if (!value) return '—';
  const time = Date.parse(value);
  if (!Number.isFinite(time)) return '—';
  return new Date(time).toLocaleString('en-GB', { year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit' });
}

/** The `YYYY-MM-DD` a date input shows for a moment: its UTC day (a start date, today). */
export function toDateInput(value: string | Date): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  return Number.isFinite(date.getTime()) ? utcDay(date) : '';
}

/** The `YYYY-MM-DD` a date input shows for a period's end: its last day (UTC), inclusive. */
export function endDateInput(end: string): string {
  return Number.isFinite(Date.parse(end)) ? lastDay(end) : '';
}

/** Whether a date input's text is a real calendar day (`2027-02-30` is not). */
export function isCalendarDay(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The day a year after `day` (29 February becomes 28 February). */
export function addOneYear(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(year + 1, month - 1, date));
  // Date.UTC rolls 29 Feb of a non-leap year into March: take the last day of February instead.
  if (next.getUTCMonth() !== month - 1) next.setUTCDate(0);
  return next.toISOString().slice(0, 10);
}

/**
 * The new end date (last day, UTC) of "Renew": one year after the current last day, or a year from
 * today when the subscription has already ended (renewing into the past would leave it ended).
 */
export function renewalEndDate(subscription: Pick<AdminSubscription, 'endDate'>, now: Date = new Date()): string {
  const end = endDateInput(subscription.endDate);
  const today = toDateInput(now);
  return addOneYear(end > today ? end : today);
}
