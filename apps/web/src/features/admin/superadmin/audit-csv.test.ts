import { describe, expect, it } from 'vitest';
import type { AuditRow } from '@kb/contracts/superadmin';
import { auditCsv, auditCsvFileName } from './audit-csv.ts';

const row = (over: Partial<AuditRow>): AuditRow => ({
  id: 1,
  createdAt: '2026-01-05T10:00:00.000Z',
  actorEmail: 'admin@demo.test',
  action: 'user.update',
  targetType: 'user',
  targetId: '7',
  targetLabel: 'ada@example.org',
  before: null,
  after: null,
  ipAddress: '10.0.0.1',
  ...over,
});

describe('the audit-log CSV', () => {
  it('writes one line per changed field under the header, CRLF-ended', () => {
    const text = auditCsv([
      row({ before: { firstName: 'Ada', credits: 10 }, after: { firstName: 'Ada', credits: -5 } }),
      row({ id: 2, action: 'session.revoke' }),
    ]);
    expect(text.split('\r\n')).toEqual([
      'when,actor,action,target type,target id,target,field,before,after,ip address',
      // A number stays a number, "-5" included.
      '2026-01-05T10:00:00.000Z,admin@demo.test,user.update,user,7,ada@example.org,credits,10,-5,10.0.0.1',
      '2026-01-05T10:00:00.000Z,admin@demo.test,session.revoke,user,7,ada@example.org,,,,10.0.0.1',
      '',
    ]);
  });

  it('neutralises values a spreadsheet would run as formulas, and quotes separators', () => {
    const text = auditCsv([
      row({
        targetLabel: '=HYPERLINK("http://evil.test","click")',
        before: { lastName: 'Smith, Jr.' },
        after: { lastName: '@SUM(A1:A9)' },
      }),
      row({ targetLabel: '+cmd|/C calc!A0', before: { organisation: null }, after: { organisation: '-2+3' } }),
    ]);
    const [, first, second] = text.split('\r\n');
    expect(first).toBe(
      `2026-01-05T10:00:00.000Z,admin@demo.test,user.update,user,7,"'=HYPERLINK(""http://evil.test"",""click"")",lastName,"Smith, Jr.",'@SUM(A1:A9),10.0.0.1`,
    );
    expect(second).toBe("2026-01-05T10:00:00.000Z,admin@demo.test,user.update,user,7,'+cmd|/C calc!A0,organisation,,'-2+3,10.0.0.1");
  });

  it('names the file after the UTC day', () => {
    expect(auditCsvFileName(new Date('2026-03-01T23:30:00Z'))).toBe('audit-log-2026-03-01.csv');
  });
});
