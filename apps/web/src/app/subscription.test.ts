import { describe, expect, it } from 'vitest';
import { daysUntil, warningsFor } from './subscription.ts';
import { refreshDelayMs } from '../shell/token-refresh.ts';

const now = Date.parse('2030-01-01T12:00:00.000Z');

describe('subscription warnings', () => {
  it('counts whole days left, rounding up', () => {
    expect(daysUntil('2030-01-04T12:00:00.000Z', now)).toBe(3);
    expect(daysUntil('2030-01-04T13:00:00.000Z', now)).toBe(4);
    expect(daysUntil(null, now)).toBeNull();
    expect(daysUntil('garbage', now)).toBeNull();
  });

  it('warns about renewal under 7 days and about a balance of 100 or fewer', () => {
    expect(warningsFor({ end_date: '2030-01-05T12:00:00.000Z', creditbalance: 100, userExpiring: true }, now)).toEqual([
      'You have 100 downloads remaining.',
      'Subscriptions renewal required.',
    ]);
  });

  it('stays quiet for a healthy subscription', () => {
    expect(warningsFor({ end_date: '2030-03-01T00:00:00.000Z', creditbalance: 5000, userExpiring: false }, now)).toEqual([]);
  });
});

describe('token regeneration delay', () => {
  it('regenerates five minutes before expiry', () => {
    expect(refreshDelayMs('2030-01-01T13:00:00.000Z', now)).toBe(55 * 60_000);
  });

  it('regenerates at once when inside the margin and ignores bad dates', () => {
    expect(refreshDelayMs('2030-01-01T12:01:00.000Z', now)).toBe(0);
    expect(refreshDelayMs('nope', now)).toBeNull();
  });
});
