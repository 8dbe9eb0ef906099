import { describe, expect, it } from 'vitest';
import { NO_NUMBER, formatNumber, formatNumberRange, formatPchembl } from './number-format.ts';

describe('formatNumber', () => {
  it('rounds float noise away to two decimals', () => {
    expect(formatNumber(297.38300000000004)).toBe('297.38');
    expect(formatNumber(905.0469999999997)).toBe('905.05');
    expect(formatNumber(0.1 + 0.2)).toBe('0.3');
  });

  it('shows whole numbers without decimals and with thousands separators', () => {
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(42)).toBe('42');
    expect(formatNumber(1234567)).toBe('1,234,567');
  });

  it('keeps three significant digits of values below one', () => {
    expect(formatNumber(0.00123456)).toBe('0.00123');
    expect(formatNumber(0.0456)).toBe('0.0456');
    expect(formatNumber(-0.678)).toBe('-0.678');
  });

  it('writes negative values with a minus and never "-0"', () => {
    expect(formatNumber(-2.345)).toBe('-2.35');
    expect(formatNumber(-0)).toBe('0');
    expect(formatNumber(-1234.5)).toBe('-1,234.5');
  });

  it('switches to scientific notation for very large and very small magnitudes', () => {
    expect(formatNumber(1.5e21)).toBe('1.5E21');
    expect(formatNumber(2.5e-9)).toBe('2.5E-9');
    expect(formatNumber(0.000123456)).toBe('1.23E-4');
    expect(formatNumber(-3e-7)).toBe('-3E-7');
    expect(formatNumber(4.2e12)).toBe('4.2E12');
    expect(formatNumber(999_999_999_999)).toBe('999,999,999,999');
  });

  it('shows a dash, never NaN or Infinity, for values that are not numbers', () => {
    expect(formatNumber(Number.NaN)).toBe(NO_NUMBER);
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe(NO_NUMBER);
    expect(formatNumber(null)).toBe(NO_NUMBER);
    expect(formatNumber(undefined, { unit: 'g/mol' })).toBe(NO_NUMBER);
  });

  it('adds the unit after a space', () => {
    expect(formatNumber(297.38300000000004, { unit: 'g/mol' })).toBe('297.38 g/mol');
  });

  it('leaves years without grouping', () => {
    expect(formatNumber(2015, { grouping: false })).toBe('2015');
    expect(formatNumber(2015)).toBe('2,015');
  });

  it('honours a smaller number of decimals', () => {
    expect(formatNumber(3.14159, { maxFractionDigits: 1 })).toBe('3.1');
  });
});

describe('formatNumberRange', () => {
  it('writes the unit once, after both ends', () => {
    expect(formatNumberRange(297.38300000000004, 905.0469999999997, { unit: 'g/mol' })).toBe('297.38–905.05 g/mol');
    expect(formatNumberRange(-1.5, 7.25)).toBe('-1.5–7.25');
  });

  it('shows a dash for a missing end', () => {
    expect(formatNumberRange(null, 5)).toBe(`${NO_NUMBER}–5`);
  });
});

describe('formatPchembl', () => {
  it('always shows two decimals, as ChEMBL publishes it', () => {
    expect(formatPchembl(7.2)).toBe('7.20');
    expect(formatPchembl(7.35)).toBe('7.35');
    expect(formatPchembl(null)).toBe(NO_NUMBER);
    expect(formatPchembl(Number.NaN)).toBe(NO_NUMBER);
  });
});
