import { describe, expect, it } from 'vitest';
import {
  EMPTY_DRAFT,
  describeFilter,
  describeIgnored,
  draftDiffers,
  draftFromApplied,
  draftProblem,
  filterFromDraft,
  flattenTabFilters,
  replaceChartFilter,
  savedFiltersByTab,
  toggleValue,
} from './chart-filters.ts';

describe('building an AppliedFilter from a chart selection', () => {
  it('turns picked bars into an include list, or an exclude list in exclude mode', () => {
    const picked = toggleValue(toggleValue(EMPTY_DRAFT, 'Binding'), 'ADME');
    expect(filterFromDraft('assaytype', 'List', picked)).toEqual({ chartKey: 'assaytype', include: ['Binding', 'ADME'] });
    expect(filterFromDraft('assaytype', 'List', { ...picked, mode: 'exclude' })).toEqual({
      chartKey: 'assaytype',
      exclude: ['Binding', 'ADME'],
    });
  });

  it('turns a range into minValue and maxValue, leaving an open bound null', () => {
    expect(filterFromDraft('year', 'Range', { ...EMPTY_DRAFT, min: 2010, max: 2015 })).toEqual({
      chartKey: 'year',
      minValue: 2010,
      maxValue: 2015,
    });
    expect(filterFromDraft('year', 'Range', { ...EMPTY_DRAFT, min: 2010 })).toEqual({ chartKey: 'year', minValue: 2010, maxValue: null });
  });

  it('gives no filter for a selection that picks nothing', () => {
    expect(filterFromDraft('assaytype', 'List', EMPTY_DRAFT)).toBeNull();
    expect(filterFromDraft('year', 'Range', EMPTY_DRAFT)).toBeNull();
  });

  it('unpicks a value picked twice, whether the id came back as a number or as text', () => {
    expect(toggleValue(toggleValue(EMPTY_DRAFT, 12), 12).values).toEqual([]);
    expect(toggleValue({ ...EMPTY_DRAFT, values: ['12'] }, 12).values).toEqual([]);
  });

  it('refuses a minimum above the maximum', () => {
    expect(draftProblem({ ...EMPTY_DRAFT, min: 2020, max: 2010 })).toBe('The minimum is above the maximum');
    expect(draftProblem({ ...EMPTY_DRAFT, min: 2010, max: 2010 })).toBeNull();
  });
});

describe('starting from the applied filter', () => {
  it('reads the mode and values of an applied include or exclude filter', () => {
    expect(draftFromApplied({ chartKey: 'assaytype', exclude: ['ADME'] })).toEqual({
      mode: 'exclude',
      values: ['ADME'],
      min: null,
      max: null,
    });
    expect(draftFromApplied({ chartKey: 'year', minValue: 2000, maxValue: null })).toEqual({
      mode: 'include',
      values: [],
      min: 2000,
      max: null,
    });
    expect(draftFromApplied(null)).toEqual(EMPTY_DRAFT);
  });

  it('sees no change when the picks equal the applied filter in another order', () => {
    const applied = { chartKey: 'assaytype', tab: 'activitiestab' as const, include: ['ADME', 'Binding'] };
    expect(draftDiffers('assaytype', 'List', { ...EMPTY_DRAFT, values: ['Binding', 'ADME'] }, applied)).toBe(false);
    expect(draftDiffers('assaytype', 'List', { ...EMPTY_DRAFT, mode: 'exclude', values: ['Binding', 'ADME'] }, applied)).toBe(true);
    expect(draftDiffers('assaytype', 'List', EMPTY_DRAFT, null)).toBe(false);
  });
});

describe('the filter list of a tab', () => {
  const year = { chartKey: 'year', minValue: 2010, maxValue: 2015 };
  const assay = { chartKey: 'assaytype', include: ['Binding'] };

  it('replaces one chart in place and keeps the other charts, since the server replaces the whole list', () => {
    expect(replaceChartFilter([year, assay], 'year', { chartKey: 'year', minValue: 2000, maxValue: null })).toEqual([
      { chartKey: 'year', minValue: 2000, maxValue: null },
      assay,
    ]);
    expect(replaceChartFilter([year], 'assaytype', assay)).toEqual([year, assay]);
  });

  it('removes a chart when its filter is cleared', () => {
    expect(replaceChartFilter([year, assay], 'year', null)).toEqual([assay]);
  });

  it('sends filters without their tab, which travels in the path', () => {
    expect(replaceChartFilter([{ ...year, tab: 'activitiestab' }], 'assaytype', { ...assay, tab: 'activitiestab' })).toEqual([year, assay]);
  });

  it('applies saved-query filters without a tab to Activities, and one filter per chart and tab', () => {
    const byTab = savedFiltersByTab([year, { ...assay, tab: 'assaytab' }, { chartKey: 'year', minValue: 1999 }]);
    expect([...byTab.keys()]).toEqual(['activitiestab', 'assaytab']);
    expect(byTab.get('activitiestab')).toEqual([{ chartKey: 'year', minValue: 1999 }]);
    expect(byTab.get('assaytab')).toEqual([assay]);
  });

  it('names the tab of every filter when the tabs are flattened for a saved query', () => {
    expect(flattenTabFilters({ activitiestab: [year], structuretab: [], assaytab: [assay] })).toEqual([
      { ...year, tab: 'activitiestab' },
      { ...assay, tab: 'assaytab' },
    ]);
  });
});

describe('describing filters', () => {
  it('names the chart and the values of a chip, with labels where known', () => {
    expect(describeFilter({ chartKey: 'bibliographyrefid', include: [12, 15] }, new Map([['12', 'J Med Chem 2010']]))).toBe(
      'References: J Med Chem 2010, 15',
    );
    expect(describeFilter({ chartKey: 'assaytype', exclude: ['ADME', 'Toxicity', 'Binding', 'Functional'] })).toBe(
      'Assay type: not ADME, Toxicity, Binding +1 more',
    );
    expect(describeFilter({ chartKey: 'year', minValue: 2010, maxValue: 2015 })).toBe('Publication year: 2010–2015');
    expect(describeFilter({ chartKey: 'logp', minValue: null, maxValue: 3.5 })).toBe('cLogP: ≤ 3.5');
  });

  it('lists the values the server ignored by chart', () => {
    expect(
      describeIgnored([
        { chartKey: 'assaytype', values: ['Gone'] },
        { chartKey: 'year', values: [] },
        { chartKey: 'mystery', values: [1, 2] },
      ]),
    ).toBe('Assay type: Gone; mystery: 1, 2');
  });
});
