import { describe, expect, it } from 'vitest';
import { BAR_COLORS, barColor, barLabel, binInRange, fullLabel, listChartOption } from './bar-options.ts';

describe('bar colours', () => {
  it('marks included bars and dims the others, marks excluded bars and keeps the others plain', () => {
    expect([barColor(true, true, 'include'), barColor(false, true, 'include')]).toEqual([BAR_COLORS.include, BAR_COLORS.dimmed]);
    expect([barColor(true, true, 'exclude'), barColor(false, true, 'exclude')]).toEqual([BAR_COLORS.exclude, BAR_COLORS.plain]);
    expect(barColor(false, false, 'include')).toBe(BAR_COLORS.plain);
  });
});

describe('range bins', () => {
  const bin = { id: '2010', label: '2010 – 2012', count: 3, from: 2010, to: 2012 };

  it('counts a bin as chosen when it overlaps the range, its upper edge excluded', () => {
    expect(binInRange(bin, 2011, 2015)).toBe(true);
    expect(binInRange(bin, 2012, null)).toBe(false);
    expect(binInRange(bin, null, 2009)).toBe(false);
    expect(binInRange(bin, null, null)).toBe(true);
  });
});

describe('list chart option', () => {
  it('keeps two values with one label as two bars, in the server order', () => {
    const option = listChartOption(
      [
        { id: 1, label: 'J Med Chem', count: 5 },
        { id: 2, label: 'J Med Chem', count: 3 },
      ],
      [2],
      'include',
    );
    const yAxis = option.yAxis as { data: string[] };
    expect(yAxis.data).toEqual(['0', '1']);
    const series = (option.series as Array<{ data: Array<{ value: number; itemStyle: { color: string } }> }>)[0]!;
    expect(series.data.map((bar) => [bar.value, bar.itemStyle.color])).toEqual([
      [5, BAR_COLORS.dimmed],
      [3, BAR_COLORS.include],
    ]);
  });
});

describe('bar labels', () => {
  it('shows a target by its gene symbol, a target without one by its last words, other values as they are', () => {
    const jak2 = { id: 1, label: 'Tyrosine-protein kinase JAK2', short: 'JAK2', count: 4 };
    const complex = { id: 2, label: 'Cyclin-dependent kinase 2/cyclin A complex', short: null, count: 2 };
    const reference = { id: 3, label: 'Kim T. 2019, J. Med. Chem.', count: 1 };
    expect(barLabel(jak2)).toBe('JAK2');
    expect(barLabel(complex)).toBe('…2/cyclin A complex');
    expect(barLabel(reference)).toBe(reference.label);
    expect(fullLabel(jak2)).toBe('JAK2 · Tyrosine-protein kinase JAK2');
    expect(fullLabel(complex)).toBe(complex.label);
    const yAxis = listChartOption([jak2, complex], [], 'include').yAxis as { axisLabel: { formatter: (v: string, i: number) => string } };
    expect([0, 1].map((i) => yAxis.axisLabel.formatter(String(i), i))).toEqual(['JAK2', '…2/cyclin A complex']);
  });
});
