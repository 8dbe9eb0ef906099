import { csvText } from '@kb/contracts/csv';
import type { CsvValue } from '@kb/contracts/csv';
import type { AuditRow } from '@kb/contracts/superadmin';
import { auditChanges } from './audit-diff.ts';

const HEADER = ['when', 'actor', 'action', 'target type', 'target id', 'target', 'field', 'before', 'after', 'ip address'] as const;

/**
 * Audit rows as a CSV file, one line per changed field (a row without changes keeps one line).
 * Names, labels and values were typed by people: the shared cell writer (contracts csv.ts)
 * neutralises text a spreadsheet would run as a formula.
 */
export function auditCsv(rows: readonly AuditRow[]): string {
  const lines: CsvValue[][] = [[...HEADER]];
  for (const row of rows) {
    const changes = auditChanges(row.before, row.after);
    // The stored values and field paths: a program reading the file gets 1000 and an ISO instant, not "1,000" and "31 Mar 2027".
    for (const change of changes.length ? changes : [{ field: '', storedBefore: null, storedAfter: null }]) {
      lines.push([
        row.createdAt,
        row.actorEmail,
        row.action,
        row.targetType,
        row.targetId,
        row.targetLabel,
        change.field,
        change.storedBefore,
        change.storedAfter,
        row.ipAddress,
      ]);
    }
  }
  return csvText(lines);
}

/** The file name of an audit-log export made on `now`'s day (UTC). */
export const auditCsvFileName = (now: Date = new Date()) => `audit-log-${now.toISOString().slice(0, 10)}.csv`;
