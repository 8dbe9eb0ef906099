import { describe, expect, it } from 'vitest';
import { endInstant, lastDay, missingDayReason, startInstant } from './plain-date.ts';

describe('plain dates', () => {
  it('starts a plain date at 00:00 UTC and ends it at 24:00 UTC: the end date is the last day, inclusive', () => {
    expect(startInstant('2027-03-31').toISOString()).toBe('2027-03-31T00:00:00.000Z');
    expect(endInstant('2027-03-31').toISOString()).toBe('2027-04-01T00:00:00.000Z');
    expect(endInstant('2027-12-31').toISOString()).toBe('2028-01-01T00:00:00.000Z');
  });

  it('takes an ISO date-time as the instant it names', () => {
    expect(startInstant('2027-03-31T10:15:00Z').toISOString()).toBe('2027-03-31T10:15:00.000Z');
    expect(endInstant('2027-03-31T10:15:00+02:00').toISOString()).toBe('2027-03-31T08:15:00.000Z');
  });

  it('shows the last day included: the day before a midnight end, the same day for an end during the day', () => {
    expect(lastDay(endInstant('2027-03-31'))).toBe('2027-03-31');
    expect(lastDay('2027-04-01T13:00:00.000Z')).toBe('2027-04-01');
  });
});

describe('missingDayReason', () => {
  it('says in words why a YYYY-MM-DD is no day of the calendar', () => {
    expect(missingDayReason('2027-02-30')).toBe('February 2027 has 28 days');
    expect(missingDayReason('2028-02-29')).toBeNull();
    expect(missingDayReason('2027-04-31')).toBe('April 2027 has 30 days');
    expect(missingDayReason('2027-13-01')).toBe('there is no month 13');
    expect(missingDayReason('2027-00-10')).toBe('there is no month 00');
    expect(missingDayReason('2027-01-00')).toBe('January 2027 has 31 days');
    expect(missingDayReason('27-1-1')).toBe('write dates as YYYY-MM-DD');
    expect(missingDayReason('2027-03-31')).toBeNull();
  });
});
