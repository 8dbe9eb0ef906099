import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { UPLOAD_MAX_BYTES, UPLOAD_MAX_TERMS } from '@kb/contracts/uploads';
import {
  UploadFileError,
  baseName,
  cellText,
  checkWorkbookArchive,
  decodeBase64,
  formatOf,
  listCells,
  readUpload,
  readUploadCells,
  readWorkbookRows,
  sniffDelimiter,
} from './upload-file-parser.ts';

const text = (s: string) => Buffer.from(s, 'utf8');

async function workbook(build: (wb: ExcelJS.Workbook) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  build(wb);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe('file names', () => {
  it('takes txt, csv and xlsx in any case, without the folder a browser adds', () => {
    expect(formatOf('IDS.CSV')).toBe('csv');
    expect(formatOf('C:\\fakepath\\list.Txt')).toBe('txt');
    expect(formatOf('terms.xlsx')).toBe('xlsx');
    expect(baseName('C:\\fakepath\\list.txt')).toBe('list.txt');
  });

  it('refuses other extensions with a message naming the file', () => {
    expect(() => formatOf('ids.pdf')).toThrow('Only .txt, .csv and .xlsx files can be uploaded; "ids.pdf" is a .pdf file.');
    expect(() => formatOf('ids')).toThrow('"ids" has no extension');
    expect(() => formatOf('.txt')).toThrow('has no extension');
    expect(() => formatOf('old.xls')).toThrow('Old Excel files (.xls) cannot be read');
  });
});

describe('base64 content', () => {
  it('decodes plain base64 and data URLs', () => {
    expect(decodeBase64(Buffer.from('1\n2').toString('base64')).toString()).toBe('1\n2');
    expect(decodeBase64(`data:text/plain;base64,${Buffer.from('abc').toString('base64')}`).toString()).toBe('abc');
  });

  it('refuses content that is not base64', () => {
    expect(() => decodeBase64('not base64!')).toThrow(UploadFileError);
  });

  it('names a wrong extension before looking at the content', async () => {
    await expect(readUpload('a.doc', '!!!')).rejects.toThrow('"a.doc" is a .doc file');
  });
});

describe('text files', () => {
  it('gives one cell per line, whatever the line ends', async () => {
    expect(await readUploadCells('a.txt', text('1\r\n2\n\n3\r4'))).toEqual(['1', '2', '', '3', '4']);
  });

  it('drops a UTF-8 byte-order mark and reads UTF-16 text with one (Excel "Unicode Text")', async () => {
    expect(await readUploadCells('a.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), text('Müller A.\n')]))).toEqual([
      'Müller A.',
      '',
    ]);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('EGFR\r\nJAK2', 'utf16le')]);
    expect(await readUploadCells('a.txt', utf16)).toEqual(['EGFR', 'JAK2']);
  });

  it('refuses a binary file posing as text', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
    await expect(readUploadCells('ids.txt', png)).rejects.toThrow('looks like a binary file');
    await expect(readUploadCells('ids.csv', text('1\u0002\u0003\n2'))).rejects.toThrow('looks like a binary file');
  });

  it('refuses text that is not UTF-8, saying how to save it', async () => {
    // "Müller" in Windows-1252.
    await expect(readUploadCells('names.csv', Buffer.from([0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72]))).rejects.toThrow('not UTF-8 text');
  });

  it('refuses an empty file and one over the size limit', async () => {
    await expect(readUploadCells('a.txt', Buffer.alloc(0))).rejects.toThrow('"a.txt" is empty.');
    await expect(readUploadCells('a.txt', Buffer.alloc(UPLOAD_MAX_BYTES + 1, 0x31))).rejects.toThrow(
      'a file of search terms may be at most 2 MB',
    );
  });
});

describe('CSV files', () => {
  it('reads the first column, quoted fields included, keeping a header row as a cell', async () => {
    const csv = 'pubmed_id,title\n"123","A, B and C"\n456,"say ""hi"""\n';
    expect(await readUploadCells('a.csv', text(csv))).toEqual(['pubmed_id', '123', '456']);
  });

  it('keeps a comma inside a quoted first column', async () => {
    expect(await readUploadCells('a.csv', text('name\n"Leukemia, Myelogenous, Chronic",x\nAsthma,y'))).toEqual([
      'name',
      'Leukemia, Myelogenous, Chronic',
      'Asthma',
    ]);
  });

  it('reads every cell of a single-row list', async () => {
    expect(await readUploadCells('a.csv', text('101, 102 ,103\n'))).toEqual(['101', ' 102 ', '103']);
  });

  it('detects semicolon and tab separators', async () => {
    expect(sniffDelimiter('id;name\n1;"a,b"')).toBe(';');
    expect(sniffDelimiter('id\tname')).toBe('\t');
    expect(sniffDelimiter('"a;b;c",d')).toBe(',');
    expect(await readUploadCells('a.csv', text('id;name\n1;"a,b"\n2;c'))).toEqual(['id', '1', '2']);
  });

  it('takes the leftmost column that holds a value', () => {
    expect(
      listCells([
        ['', 'x', 'n1'],
        ['', 'y', 'n2'],
        ['', '', ''],
      ]),
    ).toEqual(['x', 'y']);
    expect(listCells([])).toEqual([]);
  });

  it('refuses a CSV file with an unclosed quote, saying where', async () => {
    await expect(readUploadCells('a.csv', text('1\n"2\n3'))).rejects.toThrow(/CSV file could not be read: .*[Qq]uote/);
  });
});

describe('Excel workbooks', () => {
  it('reads the first visible sheet: numbers as digits, rich text, formula results and links as text', async () => {
    const bytes = await workbook((wb) => {
      wb.addWorksheet('hidden', { state: 'hidden' }).addRow(['nope']);
      const sheet = wb.addWorksheet('ids');
      sheet.addRow(['pubmed_id', 'note']);
      sheet.addRow([12345678, 'x']);
      sheet.addRow([{ richText: [{ text: '222' }, { text: '33' }] }]);
      sheet.addRow([{ formula: '1000+1', result: 1001 }]);
      sheet.addRow([{ text: '10.5555/demo.1', hyperlink: 'https://doi.org/10.5555/demo.1' }]);
      sheet.addRow([]);
      sheet.addRow([' 42 ']);
      wb.addWorksheet('later').addRow(['nope']);
    });
    expect(await readUploadCells('ids.xlsx', bytes)).toEqual(['pubmed_id', '12345678', '22233', '1001', '10.5555/demo.1', ' 42 ']);
  });

  it('takes a column that starts further right, and a single row across', async () => {
    const column = await workbook((wb) => {
      const sheet = wb.addWorksheet('s');
      sheet.getCell('C2').value = 'EGFR';
      sheet.getCell('C3').value = 'JAK2';
      sheet.getCell('D3').value = 'note';
    });
    expect(await readUploadCells('t.xlsx', column)).toEqual(['EGFR', 'JAK2']);
    const row = await workbook((wb) => wb.addWorksheet('s').addRow([1, 2, null, 3]));
    expect(await readUploadCells('t.xlsx', row)).toEqual(['1', '2', '', '3']);
  });

  it('shows dates as ISO dates and drops error values', () => {
    expect(cellText(new Date('2020-05-17T00:00:00Z'))).toBe('2020-05-17');
    expect(cellText({ error: '#N/A' })).toBe('');
    expect(cellText({ sharedFormula: 'A1', result: 'x' })).toBe('x');
    expect(cellText(null)).toBe('');
  });

  it('refuses text posing as a workbook and a damaged archive', async () => {
    await expect(readUploadCells('ids.xlsx', text('1\n2\n'))).rejects.toThrow('not a valid Excel workbook');
    const good = await workbook((wb) => wb.addWorksheet('s').addRow(['a']));
    await expect(readUploadCells('ids.xlsx', good.subarray(0, good.length - 100))).rejects.toThrow('not a valid Excel workbook');
    const scrambled = Buffer.from(good);
    scrambled.fill(0x41, 200, 1200);
    await expect(readUploadCells('ids.xlsx', scrambled)).rejects.toThrow('not a valid Excel workbook');
  });

  it('refuses an archive that declares more unpacked data than a list can need', async () => {
    const bytes = Buffer.from(await workbook((wb) => wb.addWorksheet('s').addRow(['a'])));
    const central = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bytes.writeUInt32LE(0x7fffffff, central + 24);
    expect(() => checkWorkbookArchive(bytes)).toThrow('The workbook unpacks to more than 64 MB');
  });
});

/** A workbook written by hand: `sheet` is the sheet's XML body, `sharedStrings` (optional) its table's. */
async function handMadeWorkbook(sheetData: string, sharedStrings?: string): Promise<Buffer> {
  const base = await JSZip.loadAsync(await workbook((wb) => wb.addWorksheet('terms').addRow(['x'])));
  base.file(
    'xl/worksheets/sheet1.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheetData}</sheetData></worksheet>`,
  );
  if (sharedStrings !== undefined) base.file('xl/sharedStrings.xml', sharedStrings);
  return base.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 1 } });
}

describe('limits', () => {
  it('counts a 200,000-line list without overflowing the stack and refuses it, naming both numbers', async () => {
    const lines = Array.from({ length: 200_000 }, (_, i) => String(100_000 + i));
    expect(listCells(lines.map((line) => [line, 'note']))).toHaveLength(200_000);
    const message = '"big.csv" has 200,000 lines; a term list may have at most 100,000. Split it into several lists.';
    await expect(readUploadCells('big.csv', text(lines.join('\n') + '\n'))).rejects.toThrow(message);
    await expect(readUploadCells('big.txt', text(lines.join('\r\n')))).rejects.toThrow('"big.txt" has 200,000 lines');
    // Blank lines are no terms: 100,000 of them among 100,000 terms are fine.
    expect(await readUploadCells('ok.txt', text(lines.slice(0, UPLOAD_MAX_TERMS).join('\n\n')))).toHaveLength(2 * UPLOAD_MAX_TERMS - 1);
  });

  it('stops reading a sheet of 1,048,576 rows at the limit', async () => {
    const rows: string[] = [];
    for (let r = 1; r <= 1_048_576; r++) rows.push(`<row r="${r}"><c r="A${r}"><v>${r}</v></c></row>`);
    const bytes = await handMadeWorkbook(rows.join(''));
    const started = performance.now();
    await expect(readWorkbookRows(bytes, 'max.xlsx')).rejects.toThrow(
      '"max.xlsx" has more than 100,000 rows; a term list may have at most 100,000. Split it into several lists.',
    );
    const ms = performance.now() - started;
    console.info(`[uploads] 1,048,576-row sheet refused after ${Math.round(ms)} ms`);
    expect(ms).toBeLessThan(10_000);
  }, 60_000);

  it('refuses a workbook whose shared strings inflate to more than its archive declares', async () => {
    const huge = `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${'<si><t>aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa</t></si>'.repeat(1_300_000)}</sst>`;
    const bytes = Buffer.from(await handMadeWorkbook('<row r="1"><c r="A1" t="s"><v>0</v></c></row>', huge));
    expect(bytes.length).toBeLessThan(UPLOAD_MAX_BYTES);
    await expect(readWorkbookRows(bytes)).rejects.toThrow('The workbook unpacks to more than 64 MB');
    // The same archive declaring every member tiny: the inflated size is what counts.
    for (
      let at = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
      at >= 0;
      at = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4)
    ) {
      bytes.writeUInt32LE(100, at + 24);
    }
    expect(() => checkWorkbookArchive(bytes)).not.toThrow();
    await expect(readWorkbookRows(bytes)).rejects.toThrow('The workbook unpacks to more than 64 MB');
  }, 60_000);
});
