import { describe, expect, it } from 'vitest';
import { customPeriodError, dayLabel, daysLeftLabel, periodFromParams, periodParams, seatsLabel, spansYears } from './admin-stats.ts';

describe('usage dashboard period', () => {
  it('reads a preset or a pair of dates from the address, else the last 30 days', () => {
    expect(periodFromParams(new URLSearchParams('period=7d'))).toEqual({ period: '7d' });
    expect(periodFromParams(new URLSearchParams('from=2026-01-05&to=2026-01-11'))).toEqual({ from: '2026-01-05', to: '2026-01-11' });
    expect(periodFromParams(new URLSearchParams('period=5y'))).toEqual({ period: '30d' });
    expect(periodFromParams(new URLSearchParams('from=2026-01-05'))).toEqual({ period: '30d' });
    expect(periodFromParams(new URLSearchParams('from=yesterday&to=today'))).toEqual({ period: '30d' });
  });

  it('writes a period into the address, keeping the other parameters', () => {
    const current = new URLSearchParams('organisationId=7&period=7d');
    expect(periodParams({ from: '2026-01-05', to: '2026-01-11' }, current).toString()).toBe(
      'organisationId=7&from=2026-01-05&to=2026-01-11',
    );
    expect(periodParams({ period: '1y' }, new URLSearchParams('from=2026-01-05&to=2026-01-11')).toString()).toBe('period=1y');
  });

  it('says what is wrong with a custom period before asking the server', () => {
    expect(customPeriodError('2026-01-05', '2026-01-11')).toBeNull();
    expect(customPeriodError('2026-01-05', '2026-01-05')).toBeNull();
    expect(customPeriodError('', '2026-01-11')).toBe('Choose both dates.');
    expect(customPeriodError('2026-01-12', '2026-01-11')).toBe('The start date is after the end date.');
    expect(customPeriodError('2024-01-01', '2026-01-11')).toBe('Choose at most two years.');
    expect(customPeriodError('2024-01-11', '2026-01-10')).toBeNull();
  });
});

describe('usage dashboard labels', () => {
  it('labels days in UTC, with the year when the period spans two', () => {
    expect(dayLabel('2026-01-05')).toBe('5 Jan');
    expect(dayLabel('2026-01-05', true)).toBe('5 Jan 2026');
    expect(spansYears(['2025-12-30', '2026-01-02'])).toBe(true);
    expect(spansYears(['2026-01-01', '2026-01-02'])).toBe(false);
    expect(spansYears([])).toBe(false);
  });

  it('says how long is left and how many seats are used', () => {
    expect(daysLeftLabel(0)).toBe('within 1 day');
    expect(daysLeftLabel(1)).toBe('within 1 day');
    expect(daysLeftLabel(12)).toBe('within 12 days');
    expect(seatsLabel(12, 25)).toBe('12 of 25 seats taken');
    expect(seatsLabel(1, null)).toBe('1 seat taken (no seat limit)');
    expect(seatsLabel(2, null)).toBe('2 seats taken (no seat limit)');
  });
});
