import { describe, expect, it } from 'vitest';
import { formatDate, formatDuration, successfulAttempt } from './format.ts';

describe('dashboard formatting', () => {
  it('formats durations', () => {
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(750)).toBe('12 min 30 s');
    expect(formatDuration(3900)).toBe('1 h 05 min');
    expect(formatDuration(null)).toBe('—');
  });

  it('shows the failed flag inverted as a successful attempt', () => {
    expect(successfulAttempt(false)).toBe('Yes');
    expect(successfulAttempt(true)).toBe('No');
  });

  it('shows a dash for missing dates', () => {
    expect(formatDate(null)).toBe('—');
    expect(formatDate('not a date')).toBe('—');
  });
});
