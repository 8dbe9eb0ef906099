import { describe, expect, it } from 'vitest';
import type { AppliedFilter } from '@kb/contracts/search';
import { otherFilteredTabs, sameFilter, tabsLacking, withFilters } from './filter-scope.ts';

const target: AppliedFilter = { chartKey: 'target', include: [12, 7] };
const year: AppliedFilter = { chartKey: 'year', minValue: 2010, maxValue: null };
const counts = { structuretab: 40, activitiestab: 120, assaytab: 9, developmentcompoundstab: 0, documentstab: 5 };

describe('filter scope', () => {
  it('tells the same filter by chart, values in any order and bounds, whatever tab it names', () => {
    expect(sameFilter(target, { chartKey: 'target', include: [7, 12], tab: 'structuretab' })).toBe(true);
    expect(sameFilter(target, { chartKey: 'target', exclude: [7, 12] })).toBe(false);
    expect(sameFilter(year, { chartKey: 'year', minValue: 2010 })).toBe(true);
    expect(sameFilter(year, { chartKey: 'year', minValue: 2011 })).toBe(false);
  });

  it('copies a filter over the tab’s own filter of that chart and keeps its other charts', () => {
    const own: AppliedFilter[] = [
      { chartKey: 'target', exclude: [3] },
      { chartKey: 'assaytype', include: ['B'] },
    ];
    expect(withFilters(own, [target, year])).toEqual([target, { chartKey: 'assaytype', include: ['B'] }, year]);
  });

  it('lists the tabs with rows that lack one of the filters, never the tab itself', () => {
    const byTab = { activitiestab: [target, year], documentstab: [target, year], structuretab: [year] };
    expect(tabsLacking(byTab, counts, 'activitiestab')).toEqual(['structuretab', 'assaytab']);
    expect(tabsLacking(byTab, counts, 'assaytab')).toEqual([]);
    expect(tabsLacking({ activitiestab: [target], developmentcompoundstab: [year] }, counts, 'activitiestab')).toContain(
      'developmentcompoundstab',
    );
  });

  it('names the other tabs with filters of their own', () => {
    expect(otherFilteredTabs({ activitiestab: [target], documentstab: [target, year], assaytab: [] }, 'activitiestab')).toEqual([
      { tab: 'documentstab', label: 'Documents', filters: 2 },
    ]);
  });
});
