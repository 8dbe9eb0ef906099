import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { RESULT_TABS } from '@kb/contracts/result-tabs';
import type { AppliedFilter } from '@kb/contracts/search';
import { replaceChartFilter } from './chart-filters.ts';

/**
 * Which tabs a filter narrows (docs/results.md "Filters"): a chart filter belongs to one tab; the
 * other tabs' rows are linked to the same values through the search's activities (a structure to
 * the targets of its activities, a reference to their assay types …), so a filter can be copied to
 * every tab and narrows each to the rows linked to the picked values.
 */

type FiltersByTab = Readonly<Record<string, readonly AppliedFilter[]>>;

const sortedValues = (values: AppliedFilter['include']) => (values ?? []).map(String).sort();

/** The same filter (chart, values, bounds), whichever tab it names. */
export function sameFilter(a: AppliedFilter, b: AppliedFilter): boolean {
  return (
    a.chartKey === b.chartKey &&
    sortedValues(a.include).join('\u0000') === sortedValues(b.include).join('\u0000') &&
    sortedValues(a.exclude).join('\u0000') === sortedValues(b.exclude).join('\u0000') &&
    (a.minValue ?? null) === (b.minValue ?? null) &&
    (a.maxValue ?? null) === (b.maxValue ?? null)
  );
}

/** A tab's list with each of `source`'s filters in place of its own filter of the same chart. */
export function withFilters(target: readonly AppliedFilter[], source: readonly AppliedFilter[]): AppliedFilter[] {
  return source.reduce<AppliedFilter[]>((list, filter) => replaceChartFilter(list, filter.chartKey, filter), [...target]);
}

/**
 * The other tabs a tab's filters can be copied to and are not yet on: every tab with rows (or
 * filters of its own) that lacks one of them.
 */
export function tabsLacking(filtersByTab: FiltersByTab, tabCounts: Readonly<Record<string, number>>, tab: ResultTabKey): ResultTabKey[] {
  const source = filtersByTab[tab] ?? [];
  if (source.length === 0) return [];
  return RESULT_TABS.map((entry) => entry.key).filter((other) => {
    if (other === tab) return false;
    const own = filtersByTab[other] ?? [];
    if ((tabCounts[other] ?? 0) === 0 && own.length === 0) return false;
    return !source.every((filter) => own.some((mine) => sameFilter(mine, filter)));
  });
}

/** The other tabs with filters of their own, and how many. */
export function otherFilteredTabs(
  filtersByTab: FiltersByTab,
  tab: ResultTabKey,
): Array<{ tab: ResultTabKey; label: string; filters: number }> {
  return RESULT_TABS.filter((entry) => entry.key !== tab && (filtersByTab[entry.key]?.length ?? 0) > 0).map((entry) => ({
    tab: entry.key,
    label: entry.label,
    filters: filtersByTab[entry.key]!.length,
  }));
}
