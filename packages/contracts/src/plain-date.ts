/*
 * Plain dates (YYYY-MM-DD) of subscriptions, admin roles and date filters, one rule for the server
 * and the web app, all in UTC: a period given as start day .. end day runs from 00:00 UTC of the
 * start day to 24:00 UTC of the end day — the end date is the last day, inclusive. Stored and sent
 * back as instants: the end instant is the next midnight, and the web shows the day before it.
 */

export const DAY_MS = 86_400_000;
export const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** When a period given as `text` starts: 00:00 UTC of a plain date, or the instant of an ISO date-time. */
export function startInstant(text: string): Date {
  return new Date(PLAIN_DATE.test(text) ? `${text}T00:00:00.000Z` : text);
}

/** When a period given as `text` ends: 24:00 UTC of a plain date (its last day, inclusive), or the instant of an ISO date-time. */
export function endInstant(text: string): Date {
  return PLAIN_DATE.test(text) ? new Date(startInstant(text).getTime() + DAY_MS) : new Date(text);
}

/** The UTC day (YYYY-MM-DD) of an instant. */
export function utcDay(instant: Date | string): string {
  return new Date(instant).toISOString().slice(0, 10);
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * Why a YYYY-MM-DD is no day of the calendar, in words ("February 2027 has 28 days"), or null when
 * it is one. JavaScript's Date.parse takes 2027-02-30 for 2 March, so the day is checked here.
 */
export function missingDayReason(text: string): string | null {
  if (!PLAIN_DATE.test(text)) return 'write dates as YYYY-MM-DD';
  const [year, month, day] = text.split('-').map(Number) as [number, number, number];
  if (month < 1 || month > 12) return `there is no month ${String(month).padStart(2, '0')}`;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > days) return `${MONTHS[month - 1]} ${year} has ${days} days`;
  return null;
}

/** The last day (YYYY-MM-DD, UTC) a period ending at `end` includes: the day before a midnight end, else the end's own day. */
export function lastDay(end: Date | string): string {
  return utcDay(new Date(new Date(end).getTime() - 1));
}
