import { describe, expect, it } from 'vitest';
import { deriveProfileAccess, isSubscriptionActive, subscriptionWarnings } from './access.ts';
import type { SubscriptionDetail } from './auth.ts';

const NOW = new Date('2026-06-01T00:00:00Z');
const future = '2027-01-01T00:00:00Z';
const past = '2026-01-01T00:00:00Z';
const sub = (roleName: string, havingFlatFileAccess = false, endDate = future): SubscriptionDetail => ({
  roleName,
  endDate,
  contractId: `C-${roleName}`,
  havingFlatFileAccess,
});
const derive = (...list: SubscriptionDetail[]) => deriveProfileAccess({ subscriptionDetailsList: list }, NOW);

describe('profile handling (spec §6)', () => {
  it('treats a subscription as active only when its end date is in the future', () => {
    expect(isSubscriptionActive({ endDate: future }, NOW)).toBe(true);
    expect(isSubscriptionActive({ endDate: past }, NOW)).toBe(false);
    expect(isSubscriptionActive({ endDate: NOW.toISOString() }, NOW)).toBe(false);
    expect(isSubscriptionActive({ endDate: 'not a date' }, NOW)).toBe(false);
  });

  it('makes the last recognised role the current role', () => {
    expect(derive(sub('FULL_USER'), sub('GOSTAR_ADMIN')).currentRole).toBe('GOSTAR_ADMIN');
    expect(derive(sub('GOSTAR_ADMIN'), sub('FULL_USER')).currentRole).toBe('FULL_USER');
  });

  it('skips unrecognised role names when choosing the current role', () => {
    const access = derive(sub('EVALUATE_USER'), sub('SOMETHING_ELSE'));
    expect(access.currentRole).toBe('EVALUATE_USER');
    expect(access.roles).toEqual(['EVALUATE_USER']);
  });

  it('ignores ended subscriptions', () => {
    const access = derive(sub('FULL_USER', true, past), sub('EVALUATE_USER'));
    expect(access.roles).toEqual(['EVALUATE_USER']);
    expect(access.havingFlatFileAccess).toBe(false);
    expect(derive(sub('FULL_USER', false, past)).hasActiveSubscription).toBe(false);
    expect(derive(sub('FULL_USER', false, past)).currentRole).toBeNull();
  });

  it.each(['FULL_USER', 'PARTIAL_USER', 'EVALUATE_USER', 'DOWNLOAD_EVALUATOR'])(
    'sets flat-file access when a %s subscription marks it',
    (role) => {
      expect(derive(sub(role, true)).havingFlatFileAccess).toBe(true);
      expect(derive(sub(role, false)).havingFlatFileAccess).toBe(false);
    },
  );

  it('does not set flat-file access from the mark on a role outside the first five', () => {
    expect(derive(sub('GOSTAR_ADMIN', true)).havingFlatFileAccess).toBe(false);
    expect(derive(sub('FLAT_FILE_ADMIN', true)).havingFlatFileAccess).toBe(false);
    expect(derive(sub('SUPER_ADMIN', true)).havingFlatFileAccess).toBe(false);
  });

  it('sets flat-file access whenever the roles include FLAT_FILE_ONLY, without marking multiple roles', () => {
    const access = derive(sub('FLAT_FILE_ONLY'));
    expect(access.havingFlatFileAccess).toBe(true);
    expect(access.hasMultipleRoles).toBe(false);
    expect(access.roleFlags).toEqual({});
  });

  it('lets every other role set its own flag and mark multiple roles', () => {
    const access = derive(sub('DOWNLOAD_EVALUATOR'), sub('SUPER_ADMIN'));
    expect(access.roleFlags).toEqual({ DOWNLOAD_EVALUATOR: true, SUPER_ADMIN: true });
    expect(access.hasMultipleRoles).toBe(true);
    expect(derive(sub('GOSTAR_ADMIN')).hasMultipleRoles).toBe(true);
  });
});

describe('subscription warnings (spec §9)', () => {
  it('warns about downloads at 100 or fewer and not above', () => {
    expect(subscriptionWarnings({ daysLeft: 300, creditBalance: 100 })).toEqual(['You have 100 downloads remaining.']);
    expect(subscriptionWarnings({ daysLeft: 300, creditBalance: 101 })).toEqual([]);
  });

  it('asks for renewal when the end date is under 7 days away', () => {
    expect(subscriptionWarnings({ daysLeft: 6, creditBalance: 5000 })).toEqual(['Subscriptions renewal required.']);
    expect(subscriptionWarnings({ daysLeft: 7, creditBalance: 5000 })).toEqual([]);
  });

  it('shows both for the low-credit demo account', () => {
    expect(subscriptionWarnings({ daysLeft: 3, creditBalance: 50 })).toEqual([
      'You have 50 downloads remaining.',
      'Subscriptions renewal required.',
    ]);
  });
});
