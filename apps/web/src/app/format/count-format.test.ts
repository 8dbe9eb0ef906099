import { describe, expect, it } from 'vitest';
import { formatCount, toCount } from './count-format.ts';

describe('count formatting', () => {
  it('shows thousands separators', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1234)).toBe('1,234');
    expect(formatCount(27_000_123)).toBe('27,000,123');
  });

  it('strips comma separators from count strings (spec §5)', () => {
    expect(toCount('750,001')).toBe(750_001);
    expect(toCount(' 1,234,567 ')).toBe(1_234_567);
    expect(toCount(42)).toBe(42);
  });

  it('reads anything that is not a count as zero, never NaN', () => {
    expect(formatCount(Number.NaN)).toBe('0');
    expect(toCount('12a')).toBe(0);
    expect(toCount('')).toBe(0);
    expect(toCount(null)).toBe(0);
    expect(toCount(Number.NaN)).toBe(0);
    expect(toCount(-5)).toBe(0);
  });
});
