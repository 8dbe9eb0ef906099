import { describe, expect, it } from 'vitest';
import { auditChanges } from './audit-diff.ts';

describe('auditChanges', () => {
  it('lists only the fields whose values differ, before and after', () => {
    expect(auditChanges({ role: 'GOSTAR_ADMIN', endDate: '2027-01-01', user: 'a@b.c' }, { role: 'GOSTAR_ADMIN', endDate: '2026-05-01', user: 'a@b.c' })).toEqual([
      { field: 'endDate', before: '2027-01-01', after: '2026-05-01' },
    ]);
  });

  it('shows every field of a creation with no value before, and a field that disappeared with none after', () => {
    expect(auditChanges(null, { loginPerAccountAddress: 2 })).toEqual([{ field: 'loginPerAccountAddress', before: null, after: '2' }]);
    expect(auditChanges({ open: true, ip: '10.0.0.1' }, { open: false })).toEqual([
      { field: 'open', before: 'true', after: 'false' },
      { field: 'ip', before: '10.0.0.1', after: null },
    ]);
  });

  it('writes nested values as JSON and compares them by content', () => {
    expect(auditChanges({ tags: ['a'] }, { tags: ['a'] })).toEqual([]);
    expect(auditChanges({ tags: ['a'] }, { tags: ['a', 'b'] })).toEqual([{ field: 'tags', before: '["a"]', after: '["a","b"]' }]);
  });
});
