import { describe, expect, it } from 'vitest';
import { auditChanges, auditValue } from './audit-diff.ts';

describe('auditChanges', () => {
  it('lists only the fields whose values differ, before and after, labelled in words', () => {
    expect(
      auditChanges(
        { role: 'GOSTAR_ADMIN', endDate: '2027-01-01', user: 'a@b.c' },
        { role: 'GOSTAR_ADMIN', endDate: '2026-05-01', user: 'a@b.c' },
      ),
    ).toEqual([
      {
        field: 'endDate',
        label: 'End date',
        before: '01 Jan 2027',
        after: '01 May 2026',
        storedBefore: '2027-01-01',
        storedAfter: '2026-05-01',
      },
    ]);
  });

  it('shows every field of a creation with no value before, and a field that disappeared with none after', () => {
    expect(auditChanges(null, { loginPerAccountAddress: 2 })).toEqual([
      {
        field: 'loginPerAccountAddress',
        label: 'Login per account address',
        before: null,
        after: '2',
        storedBefore: null,
        storedAfter: '2',
      },
    ]);
    expect(auditChanges({ open: true, ip: '10.0.0.1' }, { open: false }).map((c) => [c.label, c.before, c.after])).toEqual([
      ['Open', 'yes', 'no'],
      ['Ip', '10.0.0.1', null],
    ]);
  });

  it('opens a nested subscription into labelled fields and writes its end as the last day entered, not as JSON or an instant', () => {
    const before = null;
    const after = {
      subscription: { role: 'FULL_USER', contractId: 'C-9', startDate: '2026-11-25T00:00:00.000Z', endDate: '2027-04-01T00:00:00.000Z' },
      credits: 1000,
    };
    expect(auditChanges(before, after).map((c) => [c.label, c.after])).toEqual([
      ['Subscription · Role', 'FULL_USER'],
      ['Subscription · Contract id', 'C-9'],
      ['Subscription · Start date', '25 Nov 2026'],
      ['Subscription · End date', '31 Mar 2027'],
      ['Credits', '1,000'],
    ]);
    // What a program reads keeps the stored values.
    expect(auditChanges(before, after).find((c) => c.field === 'subscription.endDate')!.storedAfter).toBe('2027-04-01T00:00:00.000Z');
  });

  it('compares lists by content and joins them for reading', () => {
    expect(auditChanges({ tags: ['a'] }, { tags: ['a'] })).toEqual([]);
    expect(auditChanges({ tags: ['a'] }, { tags: ['a', 'b'] }).map((c) => [c.before, c.after, c.storedAfter])).toEqual([
      ['a', 'a, b', '["a","b"]'],
    ]);
  });
});

describe('auditValue', () => {
  it('writes ids as they are and other numbers by the shared rule', () => {
    expect(auditValue(123456, 'userId')).toBe('123456');
    expect(auditValue(123456, 'credits')).toBe('123,456');
    expect(auditValue(-5, 'credits')).toBe('-5');
    expect(auditValue(2, 'ended_at')).toBe('2');
  });
});
