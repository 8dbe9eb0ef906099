import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './tracker-csv.ts';

describe('tracker CSV', () => {
  it('quotes separators and neutralises cells a spreadsheet would run as formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(null)).toBe('');
  });

  it('adds a last line when the rows were cut', () => {
    const row = { id: 1, userEmail: 'a@b.c', organisation: null, createdAt: '2020-01-01T00:00:00.000Z', datasetType: 'full', description: 'd', fileName: 'f.zip', fileSize: 10 };
    const text = toCsv('datasets', [row], 100_001);
    expect(text.split('\r\n')).toEqual([
      'User,Organisation,Date,Dataset type,Description,File,Size (bytes)',
      'a@b.c,,2020-01-01T00:00:00.000Z,full,d,f.zip,10',
      '"Cut at 100,000 of 100,001 rows: narrow the filters (dates) to export the rest."',
      '',
    ]);
  });
});
