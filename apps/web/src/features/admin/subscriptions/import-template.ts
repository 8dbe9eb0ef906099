import type { UserImportReport } from '@kb/contracts/admin-accounts';
import { ADMIN_IMPORT_MAX_BYTES, ADMIN_IMPORT_MAX_ROWS } from '@kb/contracts/admin-accounts';
import { csvText } from '@kb/contracts/csv';
import { countNoun } from '../../../app/format/plural.ts';

/**
 * Bulk onboarding on the client: the template file offered for download, the check of a chosen
 * file before it is sent, and the one-line summary of the server's report.
 */

/** The header row the server reads (contract: UserImportRequestSchema), in the template's order. */
export const IMPORT_COLUMNS = [
  'email',
  'first name',
  'last name',
  'organisation',
  'role',
  'start date',
  'end date',
  'contract',
  'credits',
  'invite',
] as const;

/** One example row under the header, showing each column's format (replace it with real rows). */
const EXAMPLE_ROW = [
  'ada.lovelace@example.org',
  'Ada',
  'Lovelace',
  'Example Labs',
  'FULL_USER',
  '2027-01-01',
  '2027-12-31',
  'CT-2027-014',
  '500',
  'yes',
];

const IMPORT_EXTENSIONS = ['csv', 'xlsx'] as const;

/** The CSV template: the header and one example row, CRLF line ends as spreadsheets write them (contracts csv.ts). */
export function importTemplateCsv(): string {
  return csvText([IMPORT_COLUMNS, EXAMPLE_ROW]);
}

/** What is wrong with a chosen file before it is read and sent, or null. */
export function checkImportFile(file: { name: string; size: number }): string | null {
  const extension = file.name.includes('.') ? (file.name.split('.').pop()?.toLowerCase() ?? '') : '';
  if (!(IMPORT_EXTENSIONS as readonly string[]).includes(extension)) return `“${file.name}” is not a .csv or .xlsx file.`;
  if (file.size === 0) return `“${file.name}” is empty.`;
  if (file.size > ADMIN_IMPORT_MAX_BYTES) {
    return `“${file.name}” is ${(file.size / 1024 / 1024).toFixed(1)} MB; an onboarding file may be at most ${ADMIN_IMPORT_MAX_BYTES / 1024 / 1024} MB (${ADMIN_IMPORT_MAX_ROWS.toLocaleString('en-GB')} rows).`;
  }
  return null;
}

/** The report in one sentence: what a check found, or what a run created. */
export function importSummary(report: UserImportReport, dryRun: boolean): string {
  if (report.errors > 0) {
    return `${countNoun(report.errors, 'row')} ${report.errors === 1 ? 'has' : 'have'} a problem: nothing was created. Fix the file and check it again.`;
  }
  if (dryRun) {
    const ready = report.rows.filter((row) => row.status === 'ready').length;
    return `${countNoun(ready, 'row')} ${ready === 1 ? 'is' : 'are'} ready. Press “Create users” to create ${ready === 1 ? 'it' : 'them'}.`;
  }
  return `${countNoun(report.created, 'user')} created.`;
}
