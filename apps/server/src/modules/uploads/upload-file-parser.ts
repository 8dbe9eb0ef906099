import { Readable } from 'node:stream';
import { inflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import type { CellValue } from 'exceljs';
import { parse as parseCsv } from 'csv-parse/sync';
import { UPLOAD_EXTENSIONS, UPLOAD_MAX_BYTES, UPLOAD_MAX_TERMS } from '@kb/contracts/uploads';
import { splitTerms } from './upload-terms.ts';

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
 * Files are refused with an UploadFileError whose message the user can act on, among them files of
 * more than UPLOAD_MAX_TERMS filled lines or rows. The server runs this in a worker thread
 * (upload-parser-thread.ts): a large workbook takes seconds of CPU.
 */

export type UploadFormat = (typeof UPLOAD_EXTENSIONS)[number];

/** A file that cannot be read as a list of terms; the message is shown to the user. */
export class UploadFileError extends Error {}

/** Declared unpacked size of a workbook's parts: a 2 MB .xlsx of 100,000 terms unpacks to ~15 MB. */
const MAX_UNPACKED_BYTES = 64 * 1024 * 1024;

const NOT_A_WORKBOOK = 'The file is not a valid Excel workbook (.xlsx). Open it in Excel and save it as .xlsx, or upload a .csv.';

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
  if (ext === 'xls')
    throw new UploadFileError('Old Excel files (.xls) cannot be read. Save the sheet as .xlsx or .csv and upload it again.');
  const what = ext ? `is a .${ext} file` : 'has no extension';
  throw new UploadFileError(`Only .txt, .csv and .xlsx files can be uploaded; "${name}" ${what}.`);
}

const megabytes = (bytes: number) => `${Number((bytes / 1024 / 1024).toFixed(1))} MB`;
const count = (n: number) => n.toLocaleString('en-US');

function tooManyLines(fileName: string, lines: number, what: 'lines' | 'rows', exact: boolean): UploadFileError {
  const has = exact ? count(lines) : `more than ${count(lines)}`;
  return new UploadFileError(
    `"${baseName(fileName)}" has ${has} ${what}; a term list may have at most ${count(UPLOAD_MAX_TERMS)}. Split it into several lists.`,
  );
}

/** Lines holding more than blanks (a trailing newline or blank separator lines are no terms). */
export function countFilledLines(lines: readonly string[]): number {
  let filled = 0;
  for (const line of lines) if (line.trim() !== '') filled++;
  return filled;
}

/** The cells of an upload as the browser sends it: file name and base64 content. */
export async function readUpload(fileName: string, contentBase64: string): Promise<string[]> {
  formatOf(fileName); // a wrong kind of file is named as such, whatever its content
  return readUploadCells(fileName, decodeBase64(contentBase64));
}

/** The different terms of an upload, in file order (what the worker thread answers). */
export async function readUploadTerms(fileName: string, contentBase64: string): Promise<string[]> {
  return splitTerms(await readUpload(fileName, contentBase64));
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
    case 'txt': {
      const lines = decodeText(bytes).split(/\r\n|\r|\n/);
      const filled = countFilledLines(lines);
      if (filled > UPLOAD_MAX_TERMS) throw tooManyLines(fileName, filled, 'lines', true);
      return lines;
    }
    case 'csv': {
      const text = decodeText(bytes);
      // Counted before parsing: a record spans at least one line, so this bounds the records too.
      const filled = countFilledLines(text.split(/\r\n|\r|\n/));
      if (filled > UPLOAD_MAX_TERMS) throw tooManyLines(fileName, filled, 'lines', true);
      return listCells(readCsvRows(text));
    }
    case 'xlsx':
      return listCells(await readWorkbookRows(bytes, fileName));
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

function readCsvRows(text: string): string[][] {
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

/** A row of a table file with the line (CSV) or row number (XLSX) it came from, 1-based. */
export interface NumberedRow {
  line: number;
  cells: string[];
}

/** CSV records with the line each ends on (blank lines are skipped but still counted). */
export function readCsvLines(text: string): NumberedRow[] {
  try {
    const records = parseCsv(text, {
      delimiter: sniffDelimiter(text),
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      info: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
    return records.map(({ record, info }) => ({ line: info.lines, cells: record }));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UploadFileError(`The CSV file could not be read: ${reason}`);
  }
}

/** The list in a table of rows: a single row's cells, else the leftmost column holding a value. */
export function listCells(rows: readonly (readonly string[])[]): string[] {
  const filled = rows.filter((row) => row.some((cell) => cell.trim() !== ''));
  if (filled.length === 1) return [...(filled[0] ?? [])];
  // A loop, not Math.max(...lengths): spreading 200,000 arguments overflows the call stack.
  let width = 0;
  for (const row of filled) if (row.length > width) width = row.length;
  for (let col = 0; col < width; col++) {
    if (filled.some((row) => (row[col] ?? '').trim() !== '')) return filled.map((row) => row[col] ?? '');
  }
  return [];
}

/** One member of a zip archive, as its central directory describes it. */
interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  localOffset: number;
}

interface WorkbookArchive {
  entries: ZipEntry[];
  /** Where the central directory starts (the local records lie before it). */
  centralOffset: number;
}

const tooBigUnpacked = () =>
  new UploadFileError(
    `The workbook unpacks to more than ${megabytes(MAX_UNPACKED_BYTES)}. Upload the list of terms on its own, as .xlsx, .csv or .txt.`,
  );

/**
 * Refuses what is not a zip archive, and archives that declare more unpacked data than a list of
 * terms can need (a "zip bomb" would otherwise be inflated by the workbook reader). The sizes come
 * from the zip's central directory, which every .xlsx writer fills in; checkUnpackedSizes then
 * checks what the members really inflate to, since a hostile file can declare anything.
 */
export function checkWorkbookArchive(bytes: Buffer): WorkbookArchive {
  const notWorkbook = new UploadFileError(NOT_A_WORKBOOK);
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
  const count = bytes.readUInt16LE(end + 10);
  const centralOffset = bytes.readUInt32LE(end + 16);
  let offset = centralOffset;
  let unpacked = 0;
  const entries: ZipEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (offset + 46 > bytes.length || bytes.readUInt32LE(offset) !== 0x02014b50) throw notWorkbook;
    unpacked += bytes.readUInt32LE(offset + 24);
    const nameLength = bytes.readUInt16LE(offset + 28);
    entries.push({
      name: bytes.toString('utf8', offset + 46, offset + 46 + nameLength),
      flags: bytes.readUInt16LE(offset + 8),
      method: bytes.readUInt16LE(offset + 10),
      compressedSize: bytes.readUInt32LE(offset + 20),
      localOffset: bytes.readUInt32LE(offset + 42),
    });
    offset += 46 + nameLength + bytes.readUInt16LE(offset + 30) + bytes.readUInt16LE(offset + 32);
  }
  if (unpacked > MAX_UNPACKED_BYTES) throw tooBigUnpacked();
  return { entries, centralOffset };
}

/** A member's local record: header, data and (flag bit 3) the data descriptor after it. */
function localRecord(bytes: Buffer, entry: ZipEntry): { record: Buffer; data: Buffer } {
  const at = entry.localOffset;
  if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== 0x04034b50) throw new UploadFileError(NOT_A_WORKBOOK);
  const dataStart = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
  const dataEnd = dataStart + entry.compressedSize;
  let end = dataEnd;
  if (entry.flags & 0x08) end += dataEnd + 4 <= bytes.length && bytes.readUInt32LE(dataEnd) === 0x08074b50 ? 16 : 12;
  if (end > bytes.length) throw new UploadFileError(NOT_A_WORKBOOK);
  return { record: bytes.subarray(at, end), data: bytes.subarray(dataStart, dataEnd) };
}

/** Inflates every member once, with a ceiling on the output: the sizes an archive declares may lie. */
function checkUnpackedSizes(bytes: Buffer, archive: WorkbookArchive): void {
  let total = 0;
  for (const entry of archive.entries) {
    const { data } = localRecord(bytes, entry);
    if (entry.method === 0) total += data.length;
    else if (entry.method === 8) {
      try {
        total += inflateRawSync(data, { maxOutputLength: MAX_UNPACKED_BYTES - total + 1 }).length;
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooBigUnpacked();
        throw new UploadFileError(NOT_A_WORKBOOK);
      }
    } else throw new UploadFileError(NOT_A_WORKBOOK);
    if (total > MAX_UNPACKED_BYTES) throw tooBigUnpacked();
  }
}

/** The parts the streaming reader needs before any sheet, in the order it needs them. */
const READ_FIRST = ['_rels/.rels', 'xl/_rels/workbook.xml.rels', 'xl/workbook.xml', 'xl/sharedStrings.xml', 'xl/styles.xml'];

/**
 * The archive with the workbook's parts before its sheets. The streaming reader reads members in
 * file order and parks any sheet met before the shared strings in a temporary file (many writers,
 * exceljs among them, put sheets first); in this order every sheet is read straight from memory
 * and reading stops as soon as a sheet has too many rows.
 */
function workbookFirst(bytes: Buffer, archive: WorkbookArchive): Buffer[] {
  const rank = (entry: ZipEntry) => {
    const i = READ_FIRST.indexOf(entry.name);
    return i < 0 ? READ_FIRST.length : i;
  };
  const ordered = [...archive.entries].sort((a, b) => rank(a) - rank(b));
  return [...ordered.map((entry) => localRecord(bytes, entry).record), bytes.subarray(archive.centralOffset)];
}

/** The sheet reader of exceljs's streaming reader, with what its typings leave out. */
interface SheetReader extends AsyncIterable<ExcelJS.Row> {
  name: string;
  state?: string;
}

/**
 * The filled rows of the first visible worksheet, each as its cells' text (column A at index 0).
 * Read as a stream, row by row, and stopped at the first row over the limit: a sheet of a million
 * rows is refused after reading UPLOAD_MAX_TERMS + 1 of them, never held whole.
 */
export async function readWorkbookRows(bytes: Buffer, fileName = 'The workbook'): Promise<string[][]> {
  const rows = await readWorkbookLines(bytes, {
    tooMany: () => tooManyLines(fileName, UPLOAD_MAX_TERMS, 'rows', false),
    maxRows: UPLOAD_MAX_TERMS,
  });
  return rows.map((row) => row.cells);
}

/**
 * The filled rows of the first visible worksheet with their row numbers; reading stops with
 * `tooMany()` at the first row over `maxRows`.
 */
export async function readWorkbookLines(bytes: Buffer, limit: { maxRows: number; tooMany: () => UploadFileError }): Promise<NumberedRow[]> {
  const archive = checkWorkbookArchive(bytes);
  checkUnpackedSizes(bytes, archive);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(workbookFirst(bytes, archive)), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    // Styles tell dates from numbers.
    styles: 'cache',
    entries: 'ignore',
  });
  // A workbook of numbers only has no shared strings: an empty table lets its sheets stream too.
  const parts = reader as unknown as { sharedStrings?: unknown[] };
  if (!archive.entries.some((entry) => entry.name === 'xl/sharedStrings.xml')) parts.sharedStrings = [];
  const rows: NumberedRow[] = [];
  let found = false;
  try {
    for await (const sheet of reader as unknown as AsyncIterable<SheetReader>) {
      if (sheet.state && sheet.state !== 'visible') continue;
      found = true;
      for await (const row of sheet) {
        const cells: string[] = [];
        row.eachCell({ includeEmpty: true }, (cell, col) => {
          cells[col - 1] = cellText(cell.value);
        });
        const texts = Array.from(cells, (cell) => cell ?? '');
        if (!texts.some((cell) => cell.trim() !== '')) continue;
        rows.push({ line: row.number, cells: texts });
        if (rows.length > limit.maxRows) throw limit.tooMany();
      }
      break;
    }
  } catch (error) {
    if (error instanceof UploadFileError) throw error;
    throw new UploadFileError(NOT_A_WORKBOOK);
  }
  if (!found) throw new UploadFileError('The workbook has no visible worksheet.');
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
