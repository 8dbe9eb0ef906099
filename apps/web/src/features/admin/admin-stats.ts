import type { UsagePeriodQuery, UsagePreset } from '@kb/contracts/admin-usage';
import { USAGE_MAX_DAYS, USAGE_PRESETS, periodDays } from '@kb/contracts/admin-usage';

/*
 * The pure parts of the usage dashboards (/admin/dashboard, /admin/client-dashboard): the period
 * in the page's address, its checks before a call, and the axis labels of the charts. The figures
 * themselves are counted by the server.
 */

/** The presets in the order the picker shows them. */
export const PRESETS: readonly UsagePreset[] = ['7d', '30d', '90d', '1y'];
const DEFAULT_PRESET: UsagePreset = '30d';

const isPreset = (value: string | null): value is UsagePreset => value !== null && value in USAGE_PRESETS;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The period of the page's address: `?period=7d`, or `?from=YYYY-MM-DD&to=YYYY-MM-DD`; anything
 * else is the default preset (the server checks the dates again).
 */
export function periodFromParams(params: URLSearchParams): UsagePeriodQuery {
  const from = params.get('from');
  const to = params.get('to');
  if (from && to && DATE.test(from) && DATE.test(to)) return { from, to };
  const period = params.get('period');
  return { period: isPreset(period) ? period : DEFAULT_PRESET };
}

/** The address parameters of a period (other parameters of the page are kept). */
export function periodParams(period: UsagePeriodQuery, current: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const key of ['period', 'from', 'to']) next.delete(key);
  if (period.from && period.to) {
    next.set('from', period.from);
    next.set('to', period.to);
  } else {
    next.set('period', period.period ?? DEFAULT_PRESET);
  }
  return next;
}

/** Why a custom period cannot be asked for (the server's rules, said before the call), or null. */
export function customPeriodError(from: string, to: string): string | null {
  if (!DATE.test(from) || !DATE.test(to)) return 'Choose both dates.';
  const days = periodDays(from, to);
  if (!Number.isFinite(days)) return 'Choose both dates.';
  if (days < 1) return 'The start date is after the end date.';
  if (days > USAGE_MAX_DAYS) return 'Choose at most two years.';
  return null;
}

const DAY_LABEL = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const DAY_YEAR_LABEL = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** "5 Jan" for an axis; with the year when the period spans more than one ("5 Jan 2026"). */
export function dayLabel(day: string, withYear = false): string {
  const time = Date.parse(`${day}T00:00:00Z`);
  if (!Number.isFinite(time)) return day;
  return (withYear ? DAY_YEAR_LABEL : DAY_LABEL).format(time);
}

/** Whether labels of these days need the year (the first and last fall in different years). */
export function spansYears(days: readonly string[]): boolean {
  return days.length > 0 && days[0]!.slice(0, 4) !== days.at(-1)!.slice(0, 4);
}

/** How long a subscription has left, from whole days rounded up: "within 1 day", "within 3 days". */
export function daysLeftLabel(daysLeft: number): string {
  const days = Math.max(1, daysLeft);
  return `within ${days} ${days === 1 ? 'day' : 'days'}`;
}

/** Seats in use as a sentence: "12 of 25 seats", or "12 users (no seat limit)". */
/** Seats taken are accounts not deactivated, invited ones included (docs/administration.md). */
export function seatsLabel(seatsTaken: number, seats: number | null): string {
  if (seats === null) return `${seatsTaken} ${seatsTaken === 1 ? 'seat' : 'seats'} taken (no seat limit)`;
  return `${seatsTaken} of ${seats} seats taken`;
}
