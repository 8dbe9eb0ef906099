import type { AppliedFilter } from '@kb/contracts/search';

/** Spec §4 "Charts": the four charts enabled by default, in chart order. */
export const DEFAULT_CHART_KEYS: readonly string[] = ['bibliographyrefid', 'bibliography', 'year', 'assaytype'];
/** Spec §9: charts enabled by default. */
const DEFAULT_CHART_COUNT = 4;

/**
 * The charts to enable when a saved query is opened (spec §4, §9): its filtered charts come first.
 * Up to four of them replace defaults one for one (the set stays four charts: the saved ones, then
 * the first defaults not already among them); more than four become the whole set. A query without
 * applied filters keeps the defaults.
 */
export function chartsForSavedQuery(filters: readonly AppliedFilter[], defaults: readonly string[] = DEFAULT_CHART_KEYS): string[] {
  const saved = [...new Set(filters.map((filter) => filter.chartKey))];
  if (saved.length > DEFAULT_CHART_COUNT) return saved;
  const fill = defaults.filter((key) => !saved.includes(key));
  return [...saved, ...fill].slice(0, Math.max(DEFAULT_CHART_COUNT, saved.length));
}
