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

/** Spec §3: the login-history `failed` flag is displayed inverted, as "successful attempt". */
export function successfulAttempt(failed: boolean): 'Yes' | 'No' {
  return failed ? 'No' : 'Yes';
}
