import { describe, expect, it } from 'vitest';
import { boundAfterDrag, enabledDefinitions, hasWholeBins, nextMaxCount, rangeStep, sortParams } from './chart-options.ts';

describe('chart sort options', () => {
  it('maps each spec sort option to the sortType and sortOrder the chart call takes', () => {
    expect(sortParams('az')).toEqual({ sortType: 'label', sortOrder: 'asc' });
    expect(sortParams('za')).toEqual({ sortType: 'label', sortOrder: 'desc' });
    expect(sortParams('least')).toEqual({ sortType: 'count', sortOrder: 'asc' });
    expect(sortParams('most')).toEqual({ sortType: 'count', sortOrder: 'desc' });
  });

  it('sorts by most results when no option is chosen', () => {
    expect(sortParams()).toEqual({ sortType: 'count', sortOrder: 'desc' });
  });
});

describe('show more', () => {
  it('asks for 10, then 50, 200 and at most the 500 values the server gives', () => {
    expect(nextMaxCount(10)).toBe(50);
    expect(nextMaxCount(50)).toBe(200);
    expect(nextMaxCount(200)).toBe(500);
    expect(nextMaxCount(500)).toBeNull();
  });
});

describe('enabled charts', () => {
  it('lists the known enabled charts in chart order and skips keys this version does not have', () => {
    expect(enabledDefinitions(['assaytype', 'source', 'bibliographyrefid', 'year']).map((chart) => chart.chartKey)).toEqual([
      'bibliographyrefid',
      'year',
      'assaytype',
    ]);
  });
});

describe('range slider step', () => {
  it('steps whole-number data by one and gives fractional data about a hundred steps', () => {
    expect(rangeStep(2011, 2014, true)).toBe(1);
    expect(rangeStep(1990, 2024, true)).toBe(1);
    expect(rangeStep(-2.5, 7.8, false)).toBeCloseTo(0.1);
    expect(rangeStep(120.5, 980.2, false)).toBe(1);
    expect(rangeStep(3, 3, false)).toBe(1);
  });

  it('sees whole-number bins only when every edge is whole', () => {
    expect(hasWholeBins([{ id: '2010', label: '2010', count: 1, from: 2010, to: 2011 }])).toBe(true);
    expect(hasWholeBins([{ id: '1', label: '1 – 1.5', count: 1, from: 1, to: 1.5 }])).toBe(false);
  });
});

describe('dragging the range slider', () => {
  it('keeps an open bound open while its thumb stays at the end of the data', () => {
    expect(boundAfterDrag(1990, 1990, null)).toBeNull();
    expect(boundAfterDrag(2001, 1990, null)).toBe(2001);
  });

  it('keeps an applied bound that sits at the end of the data, so moving the other thumb never widens the filter', () => {
    expect(boundAfterDrag(2011, 2011, 2011)).toBe(2011);
  });
});
