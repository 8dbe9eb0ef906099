import { describe, expect, it } from 'vitest';
import { checkImportFile, IMPORT_COLUMNS, importSummary, importTemplateCsv } from './import-template.ts';

describe('the onboarding template', () => {
  it('starts with the header row the server reads, then one example row of as many fields', () => {
    const [header, example, rest] = importTemplateCsv().split('\r\n');
    // Every column the server accepts (modules/admin/user-import.ts), the contract included.
    expect(header).toBe('email,first name,last name,organisation,role,start date,end date,contract,credits,invite');
    expect(example?.split(',')).toHaveLength(IMPORT_COLUMNS.length);
    expect(example?.split(',')[IMPORT_COLUMNS.indexOf('contract')]).toBe('CT-2027-014');
    expect(rest).toBe('');
  });
});

describe('checkImportFile', () => {
  it('accepts a .csv or .xlsx file up to 2 MB', () => {
    expect(checkImportFile({ name: 'users.CSV', size: 100 })).toBeNull();
    expect(checkImportFile({ name: 'users.xlsx', size: 2 * 1024 * 1024 })).toBeNull();
  });

  it('refuses another type, an empty file and a larger one, naming the file', () => {
    expect(checkImportFile({ name: 'users.txt', size: 10 })).toBe('“users.txt” is not a .csv or .xlsx file.');
    expect(checkImportFile({ name: 'users.csv', size: 0 })).toBe('“users.csv” is empty.');
    expect(checkImportFile({ name: 'big.csv', size: 3 * 1024 * 1024 })).toMatch(
      /^“big.csv” is 3.0 MB; an onboarding file may be at most 2 MB/,
    );
  });
});

describe('importSummary', () => {
  const row = (status: 'created' | 'ready' | 'error') => ({ line: 2, email: 'a@b.c', status, message: '' });
  it('says nothing was created when a row is wrong', () => {
    expect(importSummary({ created: 0, errors: 2, rows: [row('error'), row('error'), row('ready')] }, true)).toBe(
      '2 rows have a problem: nothing was created. Fix the file and check it again.',
    );
  });
  it('counts the rows a check found ready, and the users a run created', () => {
    expect(importSummary({ created: 0, errors: 0, rows: [row('ready'), row('ready')] }, true)).toBe(
      '2 rows are ready. Press “Create users” to create them.',
    );
    expect(importSummary({ created: 1, errors: 0, rows: [row('created')] }, false)).toBe('1 user created.');
  });
});
