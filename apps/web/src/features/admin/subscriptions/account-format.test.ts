import { describe, expect, it } from 'vitest';
import { addOneYear, formatCreditDelta, GRANTABLE_ROLES, isCalendarDay, renewalEndDate, subscriptionTone, toneText } from './account-format.ts';

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

  it('turns 29 February into 28 February of the next year', () => {
    expect(addOneYear('2028-02-29')).toBe('2029-02-28');
    expect(addOneYear('2027-12-31')).toBe('2028-12-31');
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
