import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import type { ExportFormat } from '@kb/contracts/exports';
import { ExportFormatSchema } from '@kb/contracts/exports';
import type { ExportColumn } from './export-formats.ts';
import { SMILES_FIELD, TITLE_FIELD, cellText, cellValue, createFormatWriter, sdfFieldName } from './export-formats.ts';

const COLUMNS: ExportColumn[] = [
  { key: 'str_id', label: 'Str ID', type: 'integer' },
  { key: 'name', label: 'Name, as "published"', type: 'text' },
  { key: 'mw', label: 'Mol. weight', type: 'number' },
];

function sink() {
  const parts: string[] = [];
  return { parts, write: async (data: Buffer | string) => void parts.push(data.toString()) };
}

describe('export formats', () => {
  it('writes cells as text: nothing as empty, objects as JSON, dates as ISO', () => {
    expect(cellText(null)).toBe('');
    expect(cellText(12.5)).toBe('12.5');
    expect(cellText({ a: 1 })).toBe('{"a":1}');
    expect(cellText(new Date('2024-01-02T03:04:05Z'))).toBe('2024-01-02T03:04:05.000Z');
    expect(cellValue('12.50', 'number')).toBe(12.5);
    expect(cellValue('n/a', 'number')).toBe('n/a');
    expect(cellValue('12', 'text')).toBe('12');
  });

  it('writes numbers with every stored digit and without float8 noise, in text and in spreadsheets', () => {
    expect(cellText(412.2430000000001)).toBe('412.243');
    expect(cellText(3.9124000000000025)).toBe('3.9124');
    expect(cellText(123456789)).toBe('123456789');
    expect(cellValue(412.2430000000001, 'number')).toBe(412.243);
    expect(cellValue('988.2579999999994', 'number')).toBe(988.258);
    expect(cellValue(Number.NaN, 'number')).toBeNull();
  });

  it('names SDF fields by the labels of the CSV header, without characters that would end the name', () => {
    expect(sdfFieldName('Mol. weight')).toBe('Mol. weight');
    expect(sdfFieldName('Value <µM>\n')).toBe('Value µM');
  });

  it('writes CSV with a byte-order mark, a header of labels and quoted fields where needed', async () => {
    const out = sink();
    const writer = createFormatWriter({ format: 'csv', columns: COLUMNS, sink: out, sheetName: 'x', molblocks: async () => [] });
    await writer.rows([{ str_id: 1, name: 'a, b', mw: '180.16' }]);
    await writer.rows([{ str_id: 2, name: 'say "hi"\nthere', mw: null }]);
    await writer.end();
    const text = out.parts.join('');
    expect(text.startsWith('\ufeff')).toBe(true);
    expect(parse(text, { bom: true })).toEqual([
      ['Str ID', 'Name, as "published"', 'Mol. weight'],
      ['1', 'a, b', '180.16'],
      ['2', 'say "hi"\nthere', ''],
    ]);
  });

  it('writes formula-looking text as text (a leading apostrophe) and keeps numbers, negative ones too, as numbers', async () => {
    const out = sink();
    const writer = createFormatWriter({ format: 'csv', columns: COLUMNS, sink: out, sheetName: 'x', molblocks: async () => [] });
    await writer.rows([
      { str_id: 505, name: '=', mw: 22.2 },
      { str_id: 506, name: '=HYPERLINK("http://x","y")', mw: -1.5 },
      { str_id: 507, name: '@SUM(A1)', mw: '-2' },
      { str_id: 508, name: '+1 cell', mw: null },
    ]);
    await writer.end();
    const text = out.parts.join('');
    expect(text.split('\n')[1]).toBe("505,'=,22.2");
    expect(parse(text, { bom: true }).slice(1)).toEqual([
      ['505', "'=", '22.2'],
      ['506', `'=HYPERLINK("http://x","y")`, '-1.5'],
      ['507', "'@SUM(A1)", '-2'],
      ['508', "'+1 cell", ''],
    ]);
  });

  it('writes formula-looking text as the literal text in every format, numbers as numbers (CSV apostrophe, XLSX text cells, SDF as is)', async () => {
    const columns: ExportColumn[] = [
      { key: 'act_id', label: 'Act ID', type: 'integer' },
      { key: 'relation', label: 'Prefix', type: 'text' },
      { key: 'name', label: 'Name', type: 'text' },
      { key: 'p', label: 'pActivity', type: 'number' },
    ];
    const TEXTS = ['=', '=HYPERLINK("http://x")', '+A1', '@SUM(A1)', '-2+3', '\t=1+1', '+1'];
    // In the CSV: an apostrophe before each, but "+1", text that is exactly a number (no formula), stays.
    const CSV_TEXTS = ["'=", `'=HYPERLINK("http://x")`, "'+A1", "'@SUM(A1)", "'-2+3", "'\t=1+1", '+1'];
    const source = TEXTS.map((text, index) => ({
      [TITLE_FIELD]: index + 1,
      [SMILES_FIELD]: 'C',
      act_id: index + 1,
      relation: '=',
      name: text,
      p: index % 2 ? -1.5 : '-2.25',
    }));
    const written = async (format: ExportFormat) => {
      const out = { chunks: [] as Buffer[], write: async (data: Buffer | string) => void out.chunks.push(Buffer.from(data)) };
      const molblocks = async (smiles: readonly string[]) =>
        smiles.map(
          () => '\n     RDKit          2D\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\n    0.0000    0.0000    0.0000 C   0  0\nM  END\n',
        );
      const writer = createFormatWriter({ format, columns, sink: out, sheetName: 'Activities', molblocks });
      await writer.rows(source);
      await writer.end();
      return Buffer.concat(out.chunks);
    };
    const pValue = (index: number) => (index % 2 ? -1.5 : -2.25);
    // A Record over the contract's formats: a format added without a check here does not compile.
    const checks: Record<ExportFormat, (file: Buffer) => Promise<void>> = {
      csv: async (file) => {
        const records = parse(file.toString('utf8'), { bom: true }) as string[][];
        expect(records.slice(1)).toEqual(TEXTS.map((_, index) => [String(index + 1), "'=", CSV_TEXTS[index], String(pValue(index))]));
      },
      xlsx: async (file) => {
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.load(file as unknown as ArrayBuffer);
        const sheet = workbook.worksheets[0]!;
        expect(sheet.rowCount).toBe(TEXTS.length + 1);
        sheet.eachRow((row, rowNumber) => {
          row.eachCell({ includeEmpty: true }, (cell, column) => {
            // No formula anywhere; header and text are string cells in the Text format, with the exact text.
            expect(cell.formula, cell.address).toBeUndefined();
            const text = rowNumber === 1 || column === 2 || column === 3;
            expect(cell.type, cell.address).toBe(text ? ExcelJS.ValueType.String : ExcelJS.ValueType.Number);
            expect(cell.numFmt, cell.address).toBe(text ? '@' : undefined);
          });
          if (rowNumber === 1) return;
          const index = rowNumber - 2;
          expect(row.values).toEqual([undefined, index + 1, '=', TEXTS[index], pValue(index)]);
        });
      },
      // SDF is no spreadsheet: a data field is read as data, never run, so it keeps the text as is.
      sdf: async (file) => {
        const records = file.toString('utf8').split('$$$$\n').slice(0, -1);
        expect(records.map((record) => record.slice(record.indexOf('> <Prefix>')))).toEqual(
          TEXTS.map((text, index) => `> <Prefix>\n=\n\n> <Name>\n${text}\n\n> <pActivity>\n${pValue(index)}\n\n`),
        );
      },
    };
    for (const format of ExportFormatSchema.options) await checks[format](await written(format));
  });

  it('writes a header even when there are no rows', async () => {
    const out = sink();
    const writer = createFormatWriter({ format: 'csv', columns: COLUMNS, sink: out, sheetName: 'x', molblocks: async () => [] });
    await writer.end();
    expect(parse(out.parts.join(''), { bom: true })).toEqual([['Str ID', 'Name, as "published"', 'Mol. weight']]);
  });

  it('writes SDF records titled by the row id, with data fields, an empty molecule where RDKit has none, and asks RDKit once per structure', async () => {
    const out = sink();
    const asked: string[][] = [];
    const molblocks = async (smiles: readonly string[]) => {
      asked.push([...smiles]);
      return smiles.map((s) =>
        s === 'bad'
          ? null
          : `\n     RDKit          2D\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\n    0.0000    0.0000    0.0000 C   0  0\nM  END\n`,
      );
    };
    const writer = createFormatWriter({ format: 'sdf', columns: COLUMNS, sink: out, sheetName: 'x', molblocks });
    await writer.rows([
      { [TITLE_FIELD]: 7, [SMILES_FIELD]: 'C', str_id: 7, name: 'two\n\nlines', mw: 16 },
      { [TITLE_FIELD]: 8, [SMILES_FIELD]: 'bad', str_id: 8, name: null, mw: null },
      { [TITLE_FIELD]: 9, [SMILES_FIELD]: 'C', str_id: 7, name: 'again', mw: 16 },
    ]);
    const records = out.parts.join('').split('$$$$\n');
    expect(records).toHaveLength(4);
    expect(records[0]!.split('\n')[0]).toBe('7');
    expect(records[0]).toContain('M  END\n> <Str ID>\n7\n\n> <Name, as "published">\ntwo\n \nlines\n\n> <Mol. weight>\n16\n\n');
    expect(records[1]).toContain('  0  0  0  0  0  0  0  0  0  0999 V2000\nM  END');
    expect(records[2]!.split('\n')[0]).toBe('9');
    expect(asked).toEqual([['C', 'bad']]);
  });

  it('refuses a format without a writer instead of writing it as SDF (a job stored before a format was removed)', () => {
    for (const stored of ['mol2', 'toString']) {
      // What the database hands back is only typed, not checked: simulate a value outside the enum.
      const format = JSON.parse(JSON.stringify(stored)) as ExportFormat;
      expect(() => createFormatWriter({ format, columns: COLUMNS, sink: sink(), sheetName: 'x', molblocks: async () => [] })).toThrow(
        `No writer for the export format "${stored}".`,
      );
    }
  });

  it('has a writer for every format of the contract', () => {
    for (const format of ExportFormatSchema.options) {
      expect(createFormatWriter({ format, columns: COLUMNS, sink: sink(), sheetName: 'x', molblocks: async () => [] })).toBeDefined();
    }
  });
});

/**
 * The sources of every file the product writes, server and web (not tests): each CSV is made by the
 * one cell rule of packages/contracts/src/csv.ts, and every XLSX by the writer above (text cells,
 * never formulas). A new writer that skips the rule fails here.
 */
describe('every CSV and XLSX the product writes', () => {
  const root = path.resolve(import.meta.dirname, '../../../../..');
  const sources = ['apps/server/src', 'apps/web/src'].flatMap((dir) =>
    (fs.readdirSync(path.join(root, dir), { recursive: true }) as string[])
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$|\.test-support\.ts$/.test(file))
      .map((file) => path.join(dir, file).split(path.sep).join('/')),
  );
  const text = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

  it('uses no other CSV or spreadsheet writer, and writes XLSX only in export-formats.ts', () => {
    expect(sources.length).toBeGreaterThan(100);
    expect(
      sources.filter((file) =>
        /from '(csv-stringify|papaparse|json2csv|@json2csv|fast-csv|@fast-csv|xlsx|write-excel-file)[/']/.test(text(file)),
      ),
    ).toEqual([]);
    expect(sources.filter((file) => /WorkbookWriter\(|new ExcelJS\.Workbook\(|\.xlsx\.write|writeBuffer\(/.test(text(file)))).toEqual([
      'apps/server/src/modules/export/export-formats.ts',
    ]);
  });

  it('makes every CSV answer, stored CSV and CSV download from contracts/csv.ts (in the file or a module it imports)', () => {
    /** Whether a file, or one of the relative imports it reaches, imports the contract's cell rule. */
    const usesRule = (file: string, seen = new Set<string>()): boolean => {
      if (seen.has(file)) return false;
      seen.add(file);
      const source = text(file);
      if (source.includes("from '@kb/contracts/csv'")) return true;
      return [...source.matchAll(/from '(\.{1,2}\/[^']+\.tsx?)'/g)].some((m) =>
        usesRule(path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]!)), seen),
      );
    };
    const writers = sources.filter((file) => /type\(\s*'text\/csv|type: 'text\/csv|contentType: 'text\/csv|csv: \(o\) =>/.test(text(file)));
    // The trackers' answer, the demo datasets, the results export, the audit log and the onboarding template.
    expect(writers.length).toBeGreaterThanOrEqual(5);
    expect(writers.filter((file) => !usesRule(file))).toEqual([]);
  });
});
