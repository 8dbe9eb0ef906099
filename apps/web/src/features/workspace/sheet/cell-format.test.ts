import { describe, expect, it } from 'vitest';
import type { SheetCell } from '@kb/contracts/sheet';
import { BLANK, cellDetails, formatQualified, formatSheetNumber, isCensoredCell } from './cell-format.ts';

const CELL: SheetCell = {
  value: 7.254,
  qualifier: '=',
  n: 4,
  censored: 1,
  median: 7.254,
  geomean: 7.1,
  best: 8,
  bestQualifier: '>',
  sd: 0.3333,
  min: 6.9,
  max: 7.6,
};

describe('sheet cell text', () => {
  it('shows two decimals, a dash for no value', () => {
    expect(formatSheetNumber(7.254)).toBe('7.25');
    expect(formatSheetNumber(-0.5)).toBe('-0.50');
    expect(formatSheetNumber(null)).toBe(BLANK);
    expect(formatSheetNumber(Number.NaN)).toBe(BLANK);
  });

  it('keeps the qualifier of a censored value in front', () => {
    expect(formatQualified(7, '>')).toBe('>7.00');
    expect(formatQualified(5, '<')).toBe('<5.00');
    expect(formatQualified(6.456, '=')).toBe('6.46');
    expect(formatQualified(null, '>')).toBe(BLANK);
  });

  it('knows a censored cell', () => {
    expect(isCensoredCell(CELL)).toBe(false);
    expect(isCensoredCell({ qualifier: '<' })).toBe(true);
    expect(isCensoredCell(null)).toBe(false);
  });

  it('lists every aggregate for the hover', () => {
    expect(cellDetails(CELL)).toEqual([
      { label: 'Median', value: '7.25' },
      { label: 'Geometric mean', value: '7.10' },
      { label: 'Best', value: '>8.00' },
      { label: 'Measurements', value: '4' },
      { label: 'Censored (< or >)', value: '1' },
      { label: 'SD', value: '0.33' },
      { label: 'Min – max', value: '6.90 – 7.60' },
    ]);
    expect(cellDetails({ ...CELL, sd: null, min: null, max: null }).slice(-2)).toEqual([
      { label: 'SD', value: BLANK },
      { label: 'Min – max', value: BLANK },
    ]);
  });
});
