import { describe, expect, it } from 'vitest';
import { formatMolar, formatPlainSignificant } from './molar-format.ts';

describe('molar amounts', () => {
  it('writes a µM value in the unit of its size with three significant digits', () => {
    expect(formatMolar(0.000241)).toBe('0.241 nM');
    expect(formatMolar(0.0123)).toBe('12.3 nM');
    expect(formatMolar(0.5)).toBe('500 nM');
    expect(formatMolar(2.4149)).toBe('2.41 µM');
    expect(formatMolar(1500)).toBe('1.5 mM');
    expect(formatMolar(0.0000005)).toBe('0.0005 nM');
    expect(formatMolar(0)).toBe('0 µM');
    expect(formatMolar(null)).toBe('');
    expect(formatMolar(Number.NaN)).toBe('');
  });

  it('never writes E-notation', () => {
    for (const value of [1e-12, 2.41e-4, 3e-9, 7e15]) {
      expect(formatMolar(value)).not.toMatch(/e/i);
      expect(formatPlainSignificant(value)).not.toMatch(/e/i);
    }
    expect(formatPlainSignificant(0.0000123)).toBe('0.0000123');
  });
});
