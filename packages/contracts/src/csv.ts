/*
 * CSV cells and lines (RFC 4180), shared by every CSV file the product writes: the export jobs'
 * CSV (results tabs, dynamic queries, measurement lists), the trackers' CSV and the demo datasets
 * (server), the audit-log export and the onboarding template (web). XLSX files write text as typed
 * text cells instead (server modules/export/export-formats.ts). docs/exports.md "One cell rule".
 *
 * Much of what goes into these files was typed by someone (search terms, comments, names, audit
 * values), and a spreadsheet reads a cell starting with = + - @ (or a tab or carriage return that
 * hides one) as a formula: "CSV injection" (OWASP). Such text cells get a leading apostrophe, which
 * the spreadsheet shows as text. Numbers stay numbers: a number value, or text that is exactly a
 * decimal number such as "-5", is not a formula.
 */

export type CsvValue = string | number | boolean | null | undefined;

/** Text a spreadsheet would read as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** Text that is a plain decimal number (a spreadsheet reads it as that number, never as a formula). */
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** One cell: formula-looking text neutralised, then quoted when it holds a comma, a quote or a line break. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line of cells, without its line end. */
export function csvLine(values: readonly CsvValue[]): string {
  return values.map(csvCell).join(',');
}

/** A whole file: the lines with CRLF line ends, as spreadsheets write them. */
export function csvText(rows: readonly (readonly CsvValue[])[]): string {
  return rows.map((row) => `${csvLine(row)}\r\n`).join('');
}
