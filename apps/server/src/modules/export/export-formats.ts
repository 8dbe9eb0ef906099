import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { csvLine } from '@kb/contracts/csv';
import type { ExportFormat } from '@kb/contracts/exports';
import { exportNumber } from '@kb/contracts/quantities';
import type { ColumnType, ResultRow } from '@kb/contracts/results';

/**
 * The three export formats (docs/exports.md): CSV and XLSX write one line per row with the chosen
 * columns under their labels; SDF writes one molecule record per row (the row's structure as a
 * V2000 molblock with 2D coordinates) with the chosen columns as data fields named by their labels.
 * Numbers keep every stored digit without float8 noise (contracts/quantities.ts exportNumber).
 */

export interface ExportColumn {
  key: string;
  label: string;
  type: ColumnType;
}

/** Where a writer's bytes go (a stored file being written). */
interface ByteSink {
  write(data: Buffer | string): Promise<void>;
}

/** Rows handed to a writer carry their structure's SMILES here when the format needs it. */
export const SMILES_FIELD = '__smiles';
export const TITLE_FIELD = '__title';

export interface FormatWriter {
  rows(rows: readonly ResultRow[]): Promise<void>;
  end(): Promise<void>;
}

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  sdf: 'chemical/x-mdl-sdfile',
};

/** A cell as text for CSV and SDF: numbers with every stored digit but no float noise, lists and objects as JSON, nothing as empty. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return exportNumber(value);
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value);
}

/** A cell for a spreadsheet: numeric columns as numbers (PostgreSQL numerics arrive as text). */
export function cellValue(value: unknown, type: ColumnType): string | number | Date | null {
  if (value === null || value === undefined) return null;
  if ((type === 'number' || type === 'integer') && (typeof value === 'string' || typeof value === 'number')) {
    const number = Number(value);
    if (Number.isFinite(number)) return Number(exportNumber(number));
    // NaN and infinities are no numbers a spreadsheet can hold: an empty cell; a text (n/a) stays as written.
    return typeof value === 'number' ? null : value;
  }
  if (value instanceof Date) return value;
  if (typeof value === 'number') return Number.isFinite(value) ? Number(exportNumber(value)) : null;
  return cellText(value);
}

class CsvWriter implements FormatWriter {
  private started = false;
  constructor(
    private readonly columns: readonly ExportColumn[],
    private readonly sink: ByteSink,
  ) {}

  async rows(rows: readonly ResultRow[]): Promise<void> {
    // Every cell through contracts/csv.ts: formula-looking text (a relation "=", an imported "@…")
    // is written as text, never as a formula a spreadsheet would run.
    const records = rows.map((row) => `${csvLine(this.columns.map((column) => cellText(row[column.key])))}\n`).join('');
    // A byte-order mark first, so Excel opens the UTF-8 text with its accents and Greek letters intact.
    const head = this.started ? '' : `\ufeff${csvLine(this.columns.map((column) => column.label))}\n`;
    this.started = true;
    await this.sink.write(head + records);
  }

  async end(): Promise<void> {
    if (!this.started) await this.rows([]);
  }
}

/**
 * The XLSX side of the one cell rule (contracts/csv.ts is the CSV side). A workbook types each cell,
 * so nothing is prefixed: text is written as an exceljs string value (a string cell with the exact
 * text, so a relation "=" stays "="), never as { formula }, and numbers as numbers (a pActivity of
 * -1.5 stays a number a sum can add). A string cell is never run, but Excel parses a cell again when
 * it is edited (F2, Enter): the Text number format ("@") on every text cell keeps "=HYPERLINK(…)"
 * literal text then too. Number and date cells keep the General format.
 */
const TEXT_FORMAT = '@';

class XlsxWriter implements FormatWriter {
  private readonly out = new PassThrough();
  private readonly produced: Buffer[] = [];
  private readonly workbook: ExcelJS.stream.xlsx.WorkbookWriter;
  private readonly sheet: ExcelJS.Worksheet;

  constructor(
    private readonly columns: readonly ExportColumn[],
    private readonly sink: ByteSink,
    sheetName: string,
  ) {
    this.out.on('data', (chunk: Buffer) => this.produced.push(chunk));
    // The streaming writer: rows are committed as they come and never held all at once.
    this.workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: this.out, useStyles: true, useSharedStrings: false });
    this.sheet = this.workbook.addWorksheet(sheetName.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
    this.sheet.columns = columns.map((column) => ({
      header: column.label,
      key: column.key,
      width: Math.min(60, Math.max(10, column.label.length + 2)),
    }));
    const header = this.sheet.getRow(1);
    header.font = { bold: true };
    header.eachCell((cell) => (cell.numFmt = TEXT_FORMAT));
    header.commit();
  }

  private async drain(): Promise<void> {
    while (this.produced.length) await this.sink.write(this.produced.shift()!);
  }

  async rows(rows: readonly ResultRow[]): Promise<void> {
    for (const row of rows) {
      const written = this.sheet.addRow(this.columns.map((column) => cellValue(row[column.key], column.type)));
      written.eachCell((cell) => {
        if (typeof cell.value === 'string') cell.numFmt = TEXT_FORMAT;
      });
      written.commit();
    }
    await this.drain();
  }

  async end(): Promise<void> {
    this.sheet.commit();
    await this.workbook.commit();
    await this.drain();
  }
}

const EMPTY_MOLBLOCK = '\n     RDKit          2D\n\n  0  0  0  0  0  0  0  0  0  0999 V2000\nM  END';

/** An SDF data-field value: one or more lines, none empty (an empty line ends the field). */
function sdfValue(value: unknown): string {
  return cellText(value)
    .split(/\r?\n/)
    .map((line) => (line === '' ? ' ' : line))
    .join('\n');
}

/** A data field's name: the column's label, as the CSV header has it; angle brackets and line breaks would end the name early. */
export function sdfFieldName(label: string): string {
  return label
    .replace(/[<>\r\n]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Molblocks kept per SMILES: an Activities-tab SDF repeats each structure for each of its activities. */
const MOLBLOCK_CACHE_SIZE = 20_000;

class SdfWriter implements FormatWriter {
  private readonly cache = new Map<string, string | null>();

  constructor(
    private readonly columns: readonly ExportColumn[],
    private readonly sink: ByteSink,
    private readonly molblocks: (smiles: readonly string[]) => Promise<(string | null)[]>,
  ) {}

  /** Molblocks of a batch: RDKit lays out only the structures not seen lately. */
  private async blocksOf(smiles: readonly string[]): Promise<(string | null)[]> {
    const batch = new Map<string, string | null>();
    const missing: string[] = [];
    for (const s of new Set(smiles)) {
      // No SMILES: an activity of a compound without structure; it gets the empty molecule, keeping its data.
      if (s === '') batch.set(s, null);
      else if (this.cache.has(s)) batch.set(s, this.cache.get(s) ?? null);
      else missing.push(s);
    }
    if (missing.length) {
      const made = await this.molblocks(missing);
      if (this.cache.size + missing.length > MOLBLOCK_CACHE_SIZE) this.cache.clear();
      missing.forEach((s, index) => {
        batch.set(s, made[index] ?? null);
        this.cache.set(s, made[index] ?? null);
      });
    }
    return smiles.map((s) => batch.get(s) ?? null);
  }

  async rows(rows: readonly ResultRow[]): Promise<void> {
    const blocks = await this.blocksOf(rows.map((row) => String(row[SMILES_FIELD] ?? '')));
    const records = rows.map((row, index) => {
      // The first line of a molblock is the record's name: the row's id.
      const lines = (blocks[index] ?? EMPTY_MOLBLOCK).replace(/\s+$/, '').split('\n');
      lines[0] = cellText(row[TITLE_FIELD]).slice(0, 80);
      const fields = this.columns.map((column) => `> <${sdfFieldName(column.label)}>\n${sdfValue(row[column.key])}\n`);
      return `${lines.join('\n')}\n${fields.join('\n')}\n$$$$\n`;
    });
    await this.sink.write(records.join(''));
  }

  async end(): Promise<void> {}
}

export interface WriterOptions {
  format: ExportFormat;
  columns: readonly ExportColumn[];
  sink: ByteSink;
  sheetName: string;
  molblocks: (smiles: readonly string[]) => Promise<(string | null)[]>;
}

/**
 * One writer per format of the contract. A Record over ExportFormat, so a format added to the
 * contract does not compile until it has a writer (before, anything unknown fell through to SDF).
 */
const WRITERS: Record<ExportFormat, (options: WriterOptions) => FormatWriter> = {
  csv: (o) => new CsvWriter(o.columns, o.sink),
  xlsx: (o) => new XlsxWriter(o.columns, o.sink, o.sheetName),
  sdf: (o) => new SdfWriter(o.columns, o.sink, o.molblocks),
};

export function createFormatWriter(options: WriterOptions): FormatWriter {
  // Formats come validated from the contract; a stored job of a format since removed must not be
  // written as something else.
  const create = Object.hasOwn(WRITERS, options.format) ? WRITERS[options.format] : undefined;
  if (!create) throw new Error(`No writer for the export format "${String(options.format)}".`);
  return create(options);
}
