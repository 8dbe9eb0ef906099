import { describe, expect, it } from 'vitest';
import { aggregateCell, difference, molarPoint, plainPoint } from './sheet-values.ts';

describe('sheet values', () => {
  it('reads pChEMBL first, converts a molar value, and flips a censored concentration', () => {
    expect(molarPoint({ pchembl: 7.2, value: 63, units: 'nM', relation: '=' })).toEqual({ value: 7.2, qualifier: '=' });
    expect(molarPoint({ pchembl: null, value: 100, units: 'nM', relation: '=' })).toEqual({ value: 7, qualifier: '=' });
    // IC50 > 10 µM: pIC50 < 5.
    expect(molarPoint({ pchembl: null, value: 10, units: 'uM', relation: '>' })).toEqual({ value: 5, qualifier: '<' });
    expect(molarPoint({ pchembl: null, value: 1, units: 'nM', relation: '<=' })).toEqual({ value: 9, qualifier: '>' });
    expect(molarPoint({ pchembl: null, value: 5, units: '%', relation: '=' })).toBeNull();
    expect(molarPoint({ pchembl: null, value: 5, units: 'nM', relation: '~' })).toBeNull();
    expect(plainPoint({ pchembl: null, value: 40, units: '%', relation: '>' }, '%')).toEqual({ value: 40, qualifier: '>' });
    expect(plainPoint({ pchembl: null, value: 40, units: 'ug/mL', relation: '=' }, '%')).toBeNull();
  });

  it('gives one measurement the cell every aggregate reads, exact or censored', () => {
    expect(aggregateCell([{ value: 7.5, qualifier: '=' }], 'median', true)).toEqual({
      value: 7.5,
      qualifier: '=',
      n: 1,
      censored: 0,
      median: 7.5,
      geomean: 7.5,
      best: 7.5,
      bestQualifier: '=',
      sd: null,
      min: 7.5,
      max: 7.5,
    });
    for (const qualifier of ['>', '<'] as const) {
      const cell = aggregateCell([{ value: 5, qualifier }], 'median', true)!;
      expect(cell).toMatchObject({
        value: 5,
        qualifier,
        n: 1,
        censored: 1,
        median: null,
        geomean: null,
        best: 5,
        bestQualifier: qualifier,
      });
      expect(aggregateCell([{ value: 5, qualifier }], 'best', true)).toEqual(cell);
    }
    // A plain value's geometric mean of one value is that value (as exp(log v)).
    expect(aggregateCell([{ value: 40, qualifier: '=' }], 'geomean', false)!.value).toBeCloseTo(40, 12);
  });

  it('aggregates exact values only and counts the censored ones', () => {
    const cell = aggregateCell(
      [
        { value: 6, qualifier: '=' },
        { value: 7, qualifier: '=' },
        { value: 9, qualifier: '=' },
        { value: 8, qualifier: '>' },
        { value: 4, qualifier: '<' },
      ],
      'median',
      true,
    )!;
    expect(cell).toMatchObject({ value: 7, qualifier: '=', n: 5, censored: 2, median: 7, min: 6, max: 9 });
    expect(cell.geomean).toBeCloseTo(22 / 3, 12);
    expect(cell.sd).toBeCloseTo(Math.sqrt(((6 - 22 / 3) ** 2 + (7 - 22 / 3) ** 2 + (9 - 22 / 3) ** 2) / 2), 12);
    // The best is the exact 9; a bound "> 8" is below it.
    expect(cell).toMatchObject({ best: 9, bestQualifier: '=' });
    expect(
      aggregateCell(
        [
          { value: 6, qualifier: '=' },
          { value: 8, qualifier: '=' },
        ],
        'median',
        true,
      )!.value,
    ).toBe(7);
  });

  it('shows the most informative bound when nothing exact was measured', () => {
    expect(
      aggregateCell(
        [
          { value: 5, qualifier: '<' },
          { value: 4.5, qualifier: '<' },
        ],
        'median',
        true,
      ),
    ).toMatchObject({
      value: 4.5,
      qualifier: '<',
      median: null,
      sd: null,
      censored: 2,
    });
    expect(
      aggregateCell(
        [
          { value: 8, qualifier: '>' },
          { value: 5, qualifier: '<' },
        ],
        'median',
        true,
      ),
    ).toMatchObject({ value: 8, qualifier: '>' });
    expect(
      aggregateCell(
        [
          { value: 6, qualifier: '=' },
          { value: 8.5, qualifier: '>' },
        ],
        'best',
        true,
      ),
    ).toMatchObject({ value: 8.5, qualifier: '>' });
    expect(aggregateCell([], 'median', true)).toBeNull();
  });

  it('gives a non-molar geometric mean of the values themselves', () => {
    const cell = aggregateCell(
      [
        { value: 10, qualifier: '=' },
        { value: 1000, qualifier: '=' },
      ],
      'geomean',
      false,
    )!;
    expect(cell.value).toBeCloseTo(100, 9);
  });

  it('signs a difference by the censoring of its two sides', () => {
    expect(difference({ value: 7.3, qualifier: '=' }, { value: 6.1, qualifier: '=' })).toEqual({ value: 1.2, qualifier: '=' });
    expect(difference({ value: 8, qualifier: '>' }, { value: 6, qualifier: '=' })).toEqual({ value: 2, qualifier: '>' });
    expect(difference({ value: 8, qualifier: '=' }, { value: 5, qualifier: '<' })).toEqual({ value: 3, qualifier: '>' });
    expect(difference({ value: 5, qualifier: '<' }, { value: 7, qualifier: '>' })).toEqual({ value: -2, qualifier: '<' });
    expect(difference({ value: 8, qualifier: '>' }, { value: 6, qualifier: '>' })).toBeNull();
    expect(difference({ value: 8, qualifier: '=' }, null)).toBeNull();
  });
});
