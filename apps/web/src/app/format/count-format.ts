/**
 * Counts (rows, structures, values): whole numbers with thousands separators, and the text of a
 * count that may come from the server as "1,234".
 */

const grouping = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A count with thousands separators (spec §3): 1234567 → "1,234,567". */
export function formatCount(value: number): string {
  return grouping.format(Number.isFinite(value) ? value : 0);
}

/**
 * Spec §5 "Comma separators in count strings are stripped": "1,234" → 1234. Numbers pass through;
 * anything that is not a whole count reads as 0 rather than NaN, so a bad value never shows as a count.
 */
export function toCount(value: number | string | null | undefined): number {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.trunc(value) : 0;
  if (typeof value !== 'string') return 0;
  const digits = value.replace(/,/g, '').trim();
  return /^\d+$/.test(digits) ? Number(digits) : 0;
}
