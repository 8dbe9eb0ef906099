import { describe, expect, it } from 'vitest';
import type { ChartResponse } from '@kb/contracts/charts';
import { describeFilter } from './chart-filters.ts';
import { valuesNote } from './chart-card-footer.tsx';
import { binLabel, binTick, formatRangeValue, rangeStyle } from './range-format.ts';

const molweight = (min: number | null, max: number | null, distinct: number): ChartResponse => ({
  tab: 'structuretab',
  chartKey: 'molweight',
  chartLabel: 'Molecular weight',
  chartType: 'Range',
  chartPriorityOrder: 10,
  chartData: [],
  distinct,
  rows: distinct,
  min,
  max,
  maxCount: 10,
  applied: null,
});

describe('Range chart labels', () => {
  it('rounds the span of the values and names the unit once', () => {
    expect(valuesNote(molweight(297.38300000000004, 905.0469999999997, 12))).toBe('12 values from 297.38 to 905.05 g/mol');
    expect(valuesNote(molweight(300, 300, 1))).toBe('1 value from 300 to 300 g/mol');
    expect(valuesNote(molweight(null, null, 0))).toBe('No values');
  });

  it('writes years without thousands separators', () => {
    expect(formatRangeValue('year', 2015)).toBe('2015');
    expect(binLabel({ id: '2015', label: '2015', count: 3, from: 2015, to: 2016 }, rangeStyle('year'))).toBe('2015');
  });

  it('rounds bin edges in ticks and tooltips', () => {
    const bin = { id: '0.30000000000000004', label: '0.30000000000000004 – 0.4', count: 2, from: 0.30000000000000004, to: 0.4 };
    expect(binTick(bin, rangeStyle('logp'))).toBe('0.3');
    expect(binLabel(bin, rangeStyle('logp'))).toBe('0.3–0.4');
    expect(binLabel({ id: '300', label: '300 – 350', count: 2, from: 300, to: 350 }, rangeStyle('molweight'))).toBe('300–350 g/mol');
  });

  it('rounds the bounds of an applied range filter', () => {
    expect(describeFilter({ chartKey: 'molweight', minValue: 297.38300000000004, maxValue: 450 })).toBe(
      'Molecular weight: 297.38–450 g/mol',
    );
    expect(describeFilter({ chartKey: 'logp', minValue: -1.2345, maxValue: null })).toBe('cLogP: ≥ -1.23');
  });
});
