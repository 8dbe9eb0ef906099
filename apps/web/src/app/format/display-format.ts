import { lastDay } from '@kb/contracts/plain-date';

/** "1 h 05 min", "12 min 30 s", "45 s"; a dash when unknown. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return '—';
  const whole = Math.round(seconds);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, '0')} min`;
  if (minutes > 0) return `${minutes} min ${String(rest).padStart(2, '0')} s`;
  return `${rest} s`;
}

/** A readable local date and time; a dash for null or an unparsable value. */
export function formatDateTime(value: string | null): string {
  if (!value) return '—';
  const time = Date.parse(value);
  if (!Number.isFinite(time)) return '—';
  return new Date(time).toLocaleString(undefined, { year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit' });
}

/** A readable local date; a dash for null or an unparsable value. */
export function formatDate(value: string | null): string {
  if (!value) return '—';
  const time = Date.parse(value);
  if (!Number.isFinite(time)) return '—';
  return new Date(time).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: '2-digit' });
}

/**
 * The last day of a subscription ending at `end`, in UTC as the administrators set it (contracts
 * plain-date.ts): an end at 1 Apr 2027 00:00 UTC is shown as 31 Mar 2027. A dash for null.
 */
export function formatLastDay(end: string | null): string {
  if (!end || !Number.isFinite(Date.parse(end))) return '—';
  return new Date(`${lastDay(end)}T00:00:00.000Z`).toLocaleDateString(undefined, {
    year: 'numeric',
    month: 'short',
    day: '2-digit',
    timeZone: 'UTC',
  });
}

/** Spec §3: the login-history `failed` flag is displayed inverted, as "successful attempt". */
export function successfulAttempt(failed: boolean): 'Yes' | 'No' {
  return failed ? 'No' : 'Yes';
}

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** A file size as people read it, in powers of 1024: "512 B", "1.5 KB", "256 MB"; a dash when unknown. */
export function formatBytes(bytes: number | null): string {
  if (bytes === null || !Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  // 1023.6 KB would round to "1024 KB": it reads as 1 MB instead.
  while (value >= 1023.5 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${value} B`;
  // One decimal below 10 ("1.5 MB"), none above ("256 MB"); a trailing ".0" is dropped.
  const text = value < 10 ? value.toFixed(1).replace(/\.0$/, '') : String(Math.round(value));
  return `${text} ${BYTE_UNITS[unit]}`;
}
