import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
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
      return smiles.map((s) => (s === 'bad' ? null : `\n     RDKit          2D\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\n    0.0000    0.0000    0.0000 C   0  0\nM  END\n`));
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
      expect(() => createFormatWriter({ format, columns: COLUMNS, sink: sink(), sheetName: 'x', molblocks: async () => [] }))
        .toThrow(`No writer for the export format "${stored}".`);
    }
  });

  it('has a writer for every format of the contract', () => {
    for (const format of ExportFormatSchema.options) {
      expect(createFormatWriter({ format, columns: COLUMNS, sink: sink(), sheetName: 'x', molblocks: async () => [] })).toBeDefined();
    }
  });
});
