import { describe, expect, it } from 'vitest';
import {
  addOneYear,
  endDateInput,
  formatCreditDelta,
  formatDay,
  formatLastDay,
  GRANTABLE_ROLES,
  isCalendarDay,
  renewalEndDate,
  subscriptionTone,
  toDateInput,
  toneText,
} from './account-format.ts';

const now = Date.parse('2030-06-01T12:00:00.000Z');
const inDays = (days: number) => new Date(now + days * 24 * 60 * 60 * 1000).toISOString();

describe('subscriptionTone', () => {
  it('colours a running subscription by how soon it ends: within 7 days, within 30 days, later', () => {
    expect(subscriptionTone({ status: 'active', endDate: inDays(3) }, now)).toBe('week');
    expect(subscriptionTone({ status: 'active', endDate: inDays(7) }, now)).toBe('week');
    expect(subscriptionTone({ status: 'active', endDate: inDays(8) }, now)).toBe('month');
    expect(subscriptionTone({ status: 'active', endDate: inDays(30) }, now)).toBe('month');
    expect(subscriptionTone({ status: 'active', endDate: inDays(31) }, now)).toBe('later');
  });

  it('marks an ended subscription, and one whose end date has passed, as ended', () => {
    expect(subscriptionTone({ status: 'ended', endDate: inDays(100) }, now)).toBe('ended');
    expect(subscriptionTone({ status: 'active', endDate: inDays(-1) }, now)).toBe('ended');
  });

  it('keeps a subscription that starts later apart from the running ones', () => {
    expect(subscriptionTone({ status: 'scheduled', endDate: inDays(3) }, now)).toBe('scheduled');
  });

  it('says the days left in words, not only in colour', () => {
    expect(toneText({ status: 'active', startDate: inDays(-10), endDate: inDays(5) }, now)).toMatch(/^ends in 5 days \(/);
    expect(toneText({ status: 'ended', startDate: inDays(-10), endDate: inDays(-1) }, now)).toBe('ended');
    expect(toneText({ status: 'active', startDate: inDays(-10), endDate: inDays(200) }, now)).toMatch(/^until /);
  });
});

describe('renewalEndDate', () => {
  it('renews a running subscription to one year after its end', () => {
    expect(renewalEndDate({ endDate: '2030-09-15T12:00:00.000Z' }, new Date(now))).toBe('2031-09-15');
  });

  it('renews an ended subscription to one year from today, not into the past', () => {
    expect(renewalEndDate({ endDate: '2029-01-10T12:00:00.000Z' }, new Date(now))).toBe('2031-06-01');
  });

  it('keeps the day semantics: a period whose last day is 15 Sep 2030 (ending 16 Sep 00:00 UTC) renews to 15 Sep 2031', () => {
    expect(renewalEndDate({ endDate: '2030-09-16T00:00:00.000Z' }, new Date(now))).toBe('2031-09-15');
  });

  it('takes today as the UTC day, whatever the local time zone', () => {
    expect(renewalEndDate({ endDate: '2029-01-10T00:00:00.000Z' }, new Date('2030-06-01T23:30:00.000Z'))).toBe('2031-06-01');
    expect(renewalEndDate({ endDate: '2029-01-10T00:00:00.000Z' }, new Date('2030-06-02T00:30:00.000Z'))).toBe('2031-06-02');
  });

  it('turns 29 February into 28 February of the next year', () => {
    expect(addOneYear('2028-02-29')).toBe('2029-02-28');
    expect(addOneYear('2027-12-31')).toBe('2028-12-31');
  });
});

describe('UTC days', () => {
  it('shows an end instant as the last day it includes, in UTC', () => {
    expect(endDateInput('2027-04-01T00:00:00.000Z')).toBe('2027-03-31');
    expect(endDateInput('2027-04-01T15:20:00.000Z')).toBe('2027-04-01');
    expect(formatLastDay('2027-04-01T00:00:00.000Z')).toBe('31 Mar 2027');
    expect(formatLastDay(null)).toBe('—');
  });

  it('writes the UTC day of a start or a moment, not the local one', () => {
    expect(toDateInput('2027-03-31T23:30:00.000Z')).toBe('2027-03-31');
    expect(toDateInput('2027-04-01T00:30:00.000Z')).toBe('2027-04-01');
    expect(formatDay('2027-04-01T00:00:00.000Z')).toBe('01 Apr 2027');
    expect(formatDay('2027-03-31')).toBe('31 Mar 2027');
  });
});

describe('dates and figures', () => {
  it('accepts only real calendar days', () => {
    expect(isCalendarDay('2028-02-29')).toBe(true);
    expect(isCalendarDay('2027-02-29')).toBe(false);
    expect(isCalendarDay('2027-13-01')).toBe(false);
    expect(isCalendarDay('1/2/2027')).toBe(false);
  });

  it('writes a credit movement with its sign and thousands separators', () => {
    expect(formatCreditDelta(1500)).toBe('+1,500');
    expect(formatCreditDelta(-250)).toBe('−250');
  });

  it('does not offer the admin roles, which are granted on /superadmin', () => {
    expect(GRANTABLE_ROLES).toEqual(['FULL_USER', 'PARTIAL_USER', 'EVALUATE_USER', 'DOWNLOAD_EVALUATOR', 'FLAT_FILE_ONLY']);
  });
});
