import { describe, expect, it } from 'vitest';
import { toCsv } from './tracker-csv.ts';

describe('tracker CSV', () => {
  it('quotes separators and neutralises cells a spreadsheet would run as formulas (contracts csv.ts)', () => {
    const row = {
      id: 1,
      userEmail: 'a@b.c',
      organisation: 'Labs, Inc.',
      createdAt: '2020-01-01T00:00:00.000Z',
      datasetType: 'full',
      description: '=HYPERLINK("http://evil.test")',
      fileName: '@f.zip',
      fileSize: -5,
    };
    expect(toCsv('datasets', [row], 1).split('\r\n')[1]).toBe(
      `a@b.c,"Labs, Inc.",2020-01-01T00:00:00.000Z,full,"'=HYPERLINK(""http://evil.test"")",'@f.zip,-5`,
    );
  });

  it('adds a last line when the rows were cut', () => {
    const row = {
      id: 1,
      userEmail: 'a@b.c',
      organisation: null,
      createdAt: '2020-01-01T00:00:00.000Z',
      datasetType: 'full',
      description: 'd',
      fileName: 'f.zip',
      fileSize: 10,
    };
    const text = toCsv('datasets', [row], 100_001);
    expect(text.split('\r\n')).toEqual([
      'User,Organisation,Date,Dataset type,Description,File,Size (bytes)',
      'a@b.c,,2020-01-01T00:00:00.000Z,full,d,f.zip,10',
      '"Cut at 100,000 of 100,001 rows: narrow the filters (dates) to export the rest."',
      '',
    ]);
  });
});
