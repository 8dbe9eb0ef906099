import { describe, expect, it } from 'vitest';
import { aggregate } from './aggregate.ts';
import { isMolarUnit, toPActivity } from './pactivity.ts';

describe('pActivity', () => {
  it.each([
    ['M', 1e-7, 7],
    ['mM', 1e-4, 7],
    ['uM', 0.1, 7],
    ['µM', 1, 6],
    ['nM', 10, 8],
    ['nM', 1, 9],
    ['pM', 100, 10],
    ['fM', 1000, 12],
  ])('%s: %f → %f', (unit, value, expected) => {
    const p = toPActivity(value, unit);
    expect(p?.molar).toBe(true);
    expect(p?.value).toBeCloseTo(expected, 10);
    expect(isMolarUnit(unit)).toBe(true);
  });

  it('keeps non-molar values as published and says so', () => {
    expect(toPActivity(45, '%')).toEqual({ value: 45, molar: false });
    expect(toPActivity(-3, null)).toEqual({ value: -3, molar: false });
    expect(isMolarUnit('%')).toBe(false);
    expect(isMolarUnit(null)).toBe(false);
    expect(isMolarUnit('ug.mL-1')).toBe(false);
  });

  it('refuses molar values without a logarithm', () => {
    expect(toPActivity(0, 'nM')).toBeNull();
    expect(toPActivity(-5, 'uM')).toBeNull();
    expect(toPActivity(Number.NaN, 'nM')).toBeNull();
    expect(toPActivity(Number.POSITIVE_INFINITY, 'nM')).toBeNull();
  });
});

describe('aggregate', () => {
  it('is the median with n and the range', () => {
    expect(aggregate([7])).toEqual({ value: 7, n: 1, min: 7, max: 7 });
    expect(aggregate([5, 9, 6])).toEqual({ value: 6, n: 3, min: 5, max: 9 });
    expect(aggregate([8, 5, 6, 9])).toEqual({ value: 7, n: 4, min: 5, max: 9 });
  });
});
