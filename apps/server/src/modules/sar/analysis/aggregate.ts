import type { SarActivity } from '@kb/contracts/sar';

/**
 * A compound's value from its measurements (docs/sar.md "Aggregation"): the median — the mean of
 * the middle two for an even count — robust to one outlying assay, with n and the range shown.
 */
export function aggregate(values: readonly number[]): SarActivity {
  if (!values.length) throw new Error('aggregate: no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { value: median, n: sorted.length, min: sorted[0]!, max: sorted[sorted.length - 1]! };
}
