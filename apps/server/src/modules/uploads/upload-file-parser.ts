import ExcelJS from 'exceljs';
import type { CellValue } from 'exceljs';
import { parse as parseCsv } from 'csv-parse/sync';
import { UPLOAD_EXTENSIONS, UPLOAD_MAX_BYTES } from '@kb/contracts/uploads';

/**
 * Reading an uploaded file of search terms (spec §2, §5) into its cells, before any list rule:
 *
 * - txt: every line is one cell.
 * - csv and xlsx (first visible worksheet): the leftmost column that holds a value, one cell per
 *   row, so a sheet with an id column followed by notes gives the ids only. A file with a single
 *   row is a list laid out across ("123,456,789") and gives every cell of that row. A header row is
 *   kept as a cell: the list rules then report it (e.g. "pubmed_id" is not a number) instead of a
 *   guess silently dropping a first term.
 *
 * Files are refused with an UploadFileError whose message the user can act on.
 */

export type UploadFormat = (typeof UPLOAD_EXTENSIONS)[number];

/** A file that cannot be read as a list of terms; the message is shown to the user. */
export class UploadFileError extends Error {}

/** Declared unpacked size of a workbook's parts: a 2 MB .xlsx of 100,000 terms unpacks to ~15 MB. */
const MAX_UNPACKED_BYTES = 64 * 1024 * 1024;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** FileReader.readAsDataURL puts this in front; accepted so the client may read files either way. */
const DATA_URL_PREFIX = /^data:[^,]{0,200};base64,/;

/** The file's bytes from the request's base64 text. */
export function decodeBase64(content: string): Buffer {
  const compact = content.replace(DATA_URL_PREFIX, '').replace(/\s+/g, '');
  if (!BASE64.test(compact)) throw new UploadFileError('The file could not be read: its content did not arrive as base64.');
  return Buffer.from(compact, 'base64');
}

/** The name without any folder a browser put in front ("C:\fakepath\ids.txt"). */
export function baseName(fileName: string): string {
  return (fileName.split(/[\\/]/).pop() ?? fileName).trim();
}

export function formatOf(fileName: string): UploadFormat {
  const name = baseName(fileName);
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  const known = UPLOAD_EXTENSIONS.find((e) => e === ext);
  if (known) return known;
  if (ext === 'xls') throw new UploadFileError('Old Excel files (.xls) cannot be read. Save the sheet as .xlsx or .csv and upload it again.');
  const what = ext ? `is a .${ext} file` : 'has no extension';
  throw new UploadFileError(`Only .txt, .csv and .xlsx files can be uploaded; "${name}" ${what}.`);
}

const megabytes = (bytes: number) => `${Number((bytes / 1024 / 1024).toFixed(1))} MB`;

/** The cells of an upload as the browser sends it: file name and base64 content. */
export async function readUpload(fileName: string, contentBase64: string): Promise<string[]> {
  formatOf(fileName); // a wrong kind of file is named as such, whatever its content
  return readUploadCells(fileName, decodeBase64(contentBase64));
}

/** The cells of an uploaded file, in file order; blank cells included (the term rules drop them). */
export async function readUploadCells(fileName: string, bytes: Buffer): Promise<string[]> {
  const format = formatOf(fileName);
  if (bytes.length === 0) throw new UploadFileError(`"${baseName(fileName)}" is empty.`);
  if (bytes.length > UPLOAD_MAX_BYTES) {
    throw new UploadFileError(
      `"${baseName(fileName)}" is ${megabytes(bytes.length)}; a file of search terms may be at most ${megabytes(UPLOAD_MAX_BYTES)}. Split the list into smaller files.`,
    );
  }
  switch (format) {
    case 'txt':
      return decodeText(bytes).split(/\r\n|\r|\n/);
    case 'csv':
      return listCells(readCsvRows(decodeText(bytes)));
    case 'xlsx':
      return listCells(await readWorkbookRows(bytes));
  }
}

/**
 * UTF-8 (with or without BOM) or UTF-16 with a BOM (Excel's "Unicode Text"). Anything else is
 * refused rather than guessed: a wrong guess would silently turn names into different names.
 */
export function decodeText(bytes: Buffer): string {
  const utf16 = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : null;
  const binary = new UploadFileError(
    'The file looks like a binary file, not text. Upload a spreadsheet as .xlsx, and a list of terms as a plain .txt or .csv file.',
  );
  if (!utf16 && bytes.includes(0)) throw binary;
  let text: string;
  try {
    text = new TextDecoder(utf16 ?? 'utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UploadFileError(
      utf16
        ? 'The file is not valid UTF-16 text.'
        : 'The file is not UTF-8 text. Save it with UTF-8 encoding (in Excel: "CSV UTF-8"), or upload the spreadsheet as .xlsx.',
    );
  }
  // A trailing Ctrl-Z is the end-of-file mark of old DOS editors, not content.
  if (text.endsWith('\u001a')) text = text.slice(0, -1);
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
  if (/[\u0000-\u0008\u000e-\u001f]/.test(text)) throw binary;
  return text;
}

/** Comma, semicolon (European Excel) or tab, whichever the first line uses most outside quotes. */
export function sniffDelimiter(text: string): ',' | ';' | '\t' {
  const firstLine = text.split(/\r\n|\r|\n/).find((line) => line.trim() !== '') ?? '';
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const ch of firstLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === ',' || ch === ';' || ch === '\t')) counts[ch] += 1;
  }
  if (counts[';'] > counts[','] && counts[';'] >= counts['\t']) return ';';
  if (counts['\t'] > counts[',']) return '\t';
  return ',';
}

export function readCsvRows(text: string): string[][] {
  try {
    return parseCsv(text, {
      delimiter: sniffDelimiter(text),
      bom: true,
      relax_column_count: true,
      // A stray quote inside an unquoted name (5" etc.) is text, not a syntax error.
      relax_quotes: true,
      skip_empty_lines: true,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UploadFileError(`The CSV file could not be read: ${reason}`);
  }
}

/** The list in a table of rows: a single row's cells, else the leftmost column holding a value. */
export function listCells(rows: readonly (readonly string[])[]): string[] {
  const filled = rows.filter((row) => row.some((cell) => cell.trim() !== ''));
  if (filled.length === 1) return [...(filled[0] ?? [])];
  const width = Math.max(0, ...filled.map((row) => row.length));
  for (let col = 0; col < width; col++) {
    if (filled.some((row) => (row[col] ?? '').trim() !== '')) return filled.map((row) => row[col] ?? '');
  }
  return [];
}

/**
 * Refuses what is not a zip archive, and archives that declare more unpacked data than a list of
 * terms can need (a "zip bomb" would otherwise be inflated in memory by the workbook reader). The
 * sizes come from the zip's central directory, which every .xlsx writer fills in.
 */
export function checkWorkbookArchive(bytes: Buffer): void {
  const notWorkbook = new UploadFileError('The file is not a valid Excel workbook (.xlsx). Open it in Excel and save it as .xlsx, or upload a .csv.');
  if (bytes.length < 22 || bytes.readUInt32LE(0) !== 0x04034b50) throw notWorkbook;
  // The end-of-central-directory record closes the archive, followed by a comment of at most 64 KiB.
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (bytes.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw notWorkbook;
  const entries = bytes.readUInt16LE(end + 10);
  let offset = bytes.readUInt32LE(end + 16);
  let unpacked = 0;
  for (let n = 0; n < entries; n++) {
    if (offset + 46 > bytes.length || bytes.readUInt32LE(offset) !== 0x02014b50) throw notWorkbook;
    unpacked += bytes.readUInt32LE(offset + 24);
    offset += 46 + bytes.readUInt16LE(offset + 28) + bytes.readUInt16LE(offset + 30) + bytes.readUInt16LE(offset + 32);
  }
  if (unpacked > MAX_UNPACKED_BYTES) {
    throw new UploadFileError(`The workbook unpacks to more than ${megabytes(MAX_UNPACKED_BYTES)}. Upload the list of terms on its own, as .xlsx, .csv or .txt.`);
  }
}

/** The rows of the first visible worksheet, each as its cells' text (column A at index 0). */
export async function readWorkbookRows(bytes: Buffer): Promise<string[][]> {
  checkWorkbookArchive(bytes);
  const workbook = new ExcelJS.Workbook();
  try {
    // A copy as ArrayBuffer: the reader's typings predate Node's generic Buffer.
    await workbook.xlsx.load(new Uint8Array(bytes).buffer);
  } catch {
    throw new UploadFileError('The file is not a valid Excel workbook (.xlsx). Open it in Excel and save it as .xlsx, or upload a .csv.');
  }
  const sheet = workbook.worksheets.find((s) => s.state === 'visible') ?? workbook.worksheets[0];
  if (!sheet) throw new UploadFileError('The workbook has no worksheet.');
  const rows: string[][] = [];
  sheet.eachRow({ includeEmpty: false }, (row) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, col) => {
      cells[col - 1] = cellText(cell.value);
    });
    rows.push(Array.from(cells, (cell) => cell ?? ''));
  });
  return rows;
}

/** What a cell shows as a term: numbers without formatting (ids stay ids), formulas by their result. */
export function cellText(value: CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('hyperlink' in value) return typeof value.text === 'string' ? value.text : cellText(value.text as CellValue);
  if ('formula' in value || 'sharedFormula' in value) return cellText(value.result ?? null);
  // Error values (#N/A ...) are no term.
  return '';
}
