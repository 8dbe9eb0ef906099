import { describe, expect, it } from 'vitest';
import { FLAT_FILE_MAX_BYTES } from '@kb/contracts/datasets';
import { fileExtension, uploadProblem, uploadQueryOf } from './dataset-upload.ts';

describe('flat-file upload checks', () => {
  it('reads the last extension of a name in lower case', () => {
    expect(fileExtension('kb-2025.CSV')).toBe('csv');
    expect(fileExtension('structures.sdf.gz')).toBe('gz');
    expect(fileExtension('README')).toBe('');
    expect(fileExtension('.hidden')).toBe('');
    expect(fileExtension('trailing.')).toBe('');
  });

  it('accepts a dataset file within the size limit', () => {
    expect(uploadProblem({ name: 'activities.csv', size: 1024 })).toBeNull();
    expect(uploadProblem({ name: 'everything.zip', size: FLAT_FILE_MAX_BYTES })).toBeNull();
  });

  it('refuses empty and oversized files before sending them', () => {
    expect(uploadProblem({ name: 'a.csv', size: 0 })).toBe('“a.csv” is empty.');
    expect(uploadProblem({ name: 'big.zip', size: FLAT_FILE_MAX_BYTES + 1 })).toBe(
      '“big.zip” (256 MB) is over the 256 MB a dataset may be.',
    );
  });

  it('refuses a name subscribers could not safely receive, with the server’s words', () => {
    expect(uploadProblem({ name: 'CON.csv', size: 10 })).toMatch(/reserves for a device/);
    expect(uploadProblem({ name: '<b>x</b>.csv', size: 10 })).toMatch(/path|may not contain/);
    expect(uploadProblem({ name: 'a"b.csv', size: 10 })).toMatch(/may not contain/);
    expect(uploadProblem({ name: 'Kinase set (µM).csv', size: 10 })).toBeNull();
  });

  it('names the allowed extensions when a file has another', () => {
    expect(uploadProblem({ name: 'notes.docx', size: 10 })).toContain('Upload one of: .csv, .tsv, .txt, .sdf, .xlsx, .zip, .gz.');
  });

  it('sends the roles as a list and the description trimmed', () => {
    expect(
      uploadQueryOf('a.csv', { datasetType: 'Structures', roles: ['FULL_USER', 'EVALUATE_USER'], description: '  Q3 release ' }),
    ).toEqual({
      datasetType: 'Structures',
      fileName: 'a.csv',
      roles: ['FULL_USER', 'EVALUATE_USER'],
      description: 'Q3 release',
    });
  });
});
