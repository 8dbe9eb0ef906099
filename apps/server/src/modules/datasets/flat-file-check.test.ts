import { describe, expect, it } from 'vitest';
import { flatFileExtension, flatFileProblem } from './flat-file-check.ts';

describe('flat-file checks', () => {
  it('goes by the last extension and allows only the listed kinds', () => {
    expect(flatFileExtension('activities.csv.gz')).toBe('gz');
    expect(flatFileExtension('Structures.SDF')).toBe('sdf');
    expect(flatFileExtension('setup.exe')).toBeNull();
    expect(flatFileExtension('noextension')).toBeNull();
    expect(flatFileExtension('csv')).toBeNull();
    expect(flatFileExtension('.csv')).toBeNull();
  });

  it('checks magic numbers, text encoding and SDF record ends', () => {
    expect(flatFileProblem('zip', Buffer.from([0x50, 0x4b, 0x03, 0x04, 1]), true)).toBeNull();
    expect(flatFileProblem('xlsx', Buffer.from('a,b\n'), true)).toMatch(/not a XLSX workbook/);
    expect(flatFileProblem('gz', Buffer.from([0x1f, 0x8b, 8]), true)).toBeNull();
    expect(flatFileProblem('csv', Buffer.from('naïve,β\n', 'utf8'), true)).toBeNull();
    expect(flatFileProblem('csv', Buffer.from([0x61, 0x00, 0x62]), true)).toMatch(/UTF-8 text/);
    expect(flatFileProblem('txt', Buffer.from([0xff, 0xfe, 0x41, 0x42]), true)).toMatch(/UTF-8 text/);
    expect(flatFileProblem('csv', Buffer.alloc(0), true)).toBe('The file is empty.');
    expect(flatFileProblem('sdf', Buffer.from('\n  RDKit\n\nM  END\n$$$$\n'), true)).toBeNull();
    expect(flatFileProblem('sdf', Buffer.from('hello'), true)).toMatch(/no record end/);
    // A head cut inside a multi-byte character is not taken for a binary file.
    const head = Buffer.concat([Buffer.from('M  END\n'.repeat(3)), Buffer.from('é', 'utf8').subarray(0, 1)]);
    expect(flatFileProblem('sdf', head, false)).toBeNull();
  });
});
