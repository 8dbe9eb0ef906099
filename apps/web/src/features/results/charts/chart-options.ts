import { CHART_CATALOGUE, CHART_SORTS, DEFAULT_CHART_MAX_COUNT, DEFAULT_CHART_SORT, MAX_CHART_VALUES } from '@kb/contracts/charts';
import type { ChartDefinition, ChartItem, ChartSortKey } from '@kb/contracts/charts';

export interface ChartSortParams {
  sortType: 'label' | 'count';
  sortOrder: 'asc' | 'desc';
}

/** The request fields of a sort option (spec §9: A-Z, Z-A, Least Results, Most Results). */
export function sortParams(key: ChartSortKey = DEFAULT_CHART_SORT): ChartSortParams {
  const sort = CHART_SORTS.find((option) => option.key === key) ?? CHART_SORTS.find((option) => option.key === DEFAULT_CHART_SORT)!;
  return { sortType: sort.sortType, sortOrder: sort.sortOrder };
}

/** "Show more" steps: each press asks for the next one, up to the server's limit. */
const MAX_COUNT_STEPS = [DEFAULT_CHART_MAX_COUNT, 50, 200, MAX_CHART_VALUES] as const;

/** The next, larger number of values to ask for, or null when `current` is already the most. */
export function nextMaxCount(current: number): number | null {
  return MAX_COUNT_STEPS.find((step) => step > current) ?? null;
}

/** The enabled charts that exist, in chart order (a saved query may name charts this version lacks). */
export function enabledDefinitions(enabled: readonly string[]): ChartDefinition[] {
  const wanted = new Set(enabled);
  return CHART_CATALOGUE.filter((chart) => wanted.has(chart.chartKey)).sort((a, b) => a.chartPriorityOrder - b.chartPriorityOrder);
}

/**
 * A step for a range slider over [min, max]: whole-number data (years, or bins with whole edges)
 * steps by one; otherwise a power of ten giving about a hundred steps (0.1 for cLogP).
 */
export function rangeStep(min: number, max: number, wholeNumbers: boolean): number {
  const span = max - min;
  if (wholeNumbers && Number.isInteger(min) && Number.isInteger(max)) return 1;
  if (!(span > 0)) return 1;
  return 10 ** Math.floor(Math.log10(span / 100));
}

/** True when a Range chart's bins all have whole-number edges (its values step by one). */
export function hasWholeBins(items: readonly ChartItem[]): boolean {
  return items.every((item) => (item.from == null || Number.isInteger(item.from)) && (item.to == null || Number.isInteger(item.to)));
}

/**
 * A bound after a slider drag. A thumb still at the end of the data whose bound was open stays
 * open; any other position is an explicit bound. (The chart counts the rows its own filter let
 * through, so the ends of an applied range are the data's ends: turning them into open bounds
 * would silently widen the filter.)
 */
export function boundAfterDrag(value: number, end: number, current: number | null): number | null {
  return current === null && value === end ? null : value;
}
