import type { ChartType } from '@kb/contracts/charts';
import { chartDefinition } from '@kb/contracts/charts';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import type { AppliedFilter } from '@kb/contracts/search';
import { formatNumber, formatNumberRange } from '../../../app/format/number-format.ts';
import { rangeStyle } from './range-format.ts';

export type ChartValue = string | number;
export type PickMode = 'include' | 'exclude';

/**
 * What the user has picked on one chart and not necessarily applied: values (List, Image, Tree)
 * with a mode, or a range (Range). A null bound is no bound.
 */
export interface ChartDraft {
  mode: PickMode;
  values: ChartValue[];
  min: number | null;
  max: number | null;
}

export const EMPTY_DRAFT: ChartDraft = { mode: 'include', values: [], min: null, max: null };

/** The tab a saved-query filter applies to: the one it names, else Activities (contract AppliedFilter.tab). */
const DEFAULT_FILTER_TAB: ResultTabKey = 'activitiestab';

/** The draft an applied filter stands for (the panel starts from what the server applied). */
export function draftFromApplied(applied: AppliedFilter | null | undefined): ChartDraft {
  if (!applied) return EMPTY_DRAFT;
  const excluded = applied.exclude ?? [];
  const mode: PickMode = (applied.include?.length ?? 0) === 0 && excluded.length > 0 ? 'exclude' : 'include';
  return {
    mode,
    values: [...(mode === 'exclude' ? excluded : (applied.include ?? []))],
    min: applied.minValue ?? null,
    max: applied.maxValue ?? null,
  };
}

/** One chart's AppliedFilter for a draft, or null when the draft filters nothing. */
export function filterFromDraft(chartKey: string, chartType: ChartType, draft: ChartDraft): AppliedFilter | null {
  if (chartType === 'Range') {
    if (draft.min === null && draft.max === null) return null;
    return { chartKey, minValue: draft.min, maxValue: draft.max };
  }
  if (draft.values.length === 0) return null;
  return { chartKey, [draft.mode]: [...draft.values] };
}

/** Why a draft cannot be applied, or null. */
export function draftProblem(draft: ChartDraft): string | null {
  if (draft.min !== null && draft.max !== null && draft.min > draft.max) return 'The minimum is above the maximum';
  return null;
}

/** Picks or unpicks one value. */
export function toggleValue(draft: ChartDraft, value: ChartValue): ChartDraft {
  const values = draft.values.some((picked) => sameValue(picked, value))
    ? draft.values.filter((picked) => !sameValue(picked, value))
    : [...draft.values, value];
  return { ...draft, values };
}

/** Ids may come back as numbers or as their text (a JSON round trip through a saved query): compare both. */
export function sameValue(a: ChartValue, b: ChartValue): boolean {
  return a === b || String(a) === String(b);
}

export function hasValue(values: readonly ChartValue[], value: ChartValue): boolean {
  return values.some((picked) => sameValue(picked, value));
}

/** True when applying the draft would change what the server applied for this chart. */
export function draftDiffers(
  chartKey: string,
  chartType: ChartType,
  draft: ChartDraft,
  applied: AppliedFilter | null | undefined,
): boolean {
  return filterSignature(filterFromDraft(chartKey, chartType, draft)) !== filterSignature(applied ? { ...applied, tab: undefined } : null);
}

function filterSignature(filter: AppliedFilter | null): string {
  if (!filter) return '';
  const sorted = (values: ChartValue[] | undefined) => (values?.length ? values.map(String).sort() : null);
  return JSON.stringify([
    filter.chartKey,
    sorted(filter.include),
    sorted(filter.exclude),
    filter.minValue ?? null,
    filter.maxValue ?? null,
  ]);
}

/**
 * The tab's whole filter list with one chart's filter replaced (or removed when `next` is null):
 * the server replaces a tab's list on every apply, so the other charts' filters travel along.
 */
export function replaceChartFilter(filters: readonly AppliedFilter[], chartKey: string, next: AppliedFilter | null): AppliedFilter[] {
  const others = filters.filter((filter) => filter.chartKey !== chartKey).map(withoutTab);
  if (!next) return others;
  const index = filters.findIndex((filter) => filter.chartKey === chartKey);
  const kept = withoutTab(next);
  if (index < 0) return [...others, kept];
  return [...others.slice(0, index), kept, ...others.slice(index)];
}

/** The tab travels in the path of applyfilters, not in each filter. */
function withoutTab(filter: AppliedFilter): AppliedFilter {
  const copy = { ...filter };
  delete copy.tab;
  return copy;
}

/** A saved query's filters grouped by the tab each applies to (no tab: Activities). */
export function savedFiltersByTab(filters: readonly AppliedFilter[]): Map<ResultTabKey, AppliedFilter[]> {
  const byTab = new Map<ResultTabKey, AppliedFilter[]>();
  for (const filter of filters) {
    const tab = filter.tab ?? DEFAULT_FILTER_TAB;
    const list = byTab.get(tab) ?? [];
    // A chart filters a tab once: a later entry for the same chart wins.
    byTab.set(tab, replaceChartFilter(list, filter.chartKey, filter));
  }
  return byTab;
}

/** Every tab's filters as one list, each naming its tab (what a saved query keeps). */
export function flattenTabFilters(filtersByTab: Readonly<Record<string, readonly AppliedFilter[]>>): AppliedFilter[] {
  return Object.entries(filtersByTab).flatMap(([tab, filters]) => filters.map((filter) => ({ ...filter, tab: tab as ResultTabKey })));
}

/** Labels known for the values of one chart (from its bars and value searches). */
export type ValueLabels = ReadonlyMap<string, string>;

/** The text of an applied-filter chip: "Assay type: Binding, Functional", "Assay type: not ADME", "Publication year: 2010–2015". */
export function describeFilter(filter: AppliedFilter, labels: ValueLabels = new Map()): string {
  const chartLabel = chartDefinition(filter.chartKey)?.chartLabel ?? filter.chartKey;
  const name = (value: ChartValue) => labels.get(String(value)) ?? String(value);
  const parts: string[] = [];
  if (filter.include?.length) parts.push(shortList(filter.include.map(name)));
  if (filter.exclude?.length) parts.push(`not ${shortList(filter.exclude.map(name))}`);
  const min = filter.minValue ?? null;
  const max = filter.maxValue ?? null;
  const style = rangeStyle(filter.chartKey);
  if (min !== null && max !== null) parts.push(formatNumberRange(min, max, style));
  else if (min !== null) parts.push(`≥ ${formatNumber(min, style)}`);
  else if (max !== null) parts.push(`≤ ${formatNumber(max, style)}`);
  return `${chartLabel}: ${parts.join('; ')}`;
}

const CHIP_NAMES = 3;

function shortList(names: string[]): string {
  if (names.length <= CHIP_NAMES) return names.join(', ');
  return `${names.slice(0, CHIP_NAMES).join(', ')} +${names.length - CHIP_NAMES} more`;
}

/** "Assay type: X, Y; References: 12" for the values the server dropped because they no longer exist. */
export function describeIgnored(ignored: ReadonlyArray<{ chartKey: string; values: ChartValue[] }>): string {
  return ignored
    .filter((entry) => entry.values.length > 0)
    .map((entry) => `${chartDefinition(entry.chartKey)?.chartLabel ?? entry.chartKey}: ${entry.values.map(String).join(', ')}`)
    .join('; ');
}
