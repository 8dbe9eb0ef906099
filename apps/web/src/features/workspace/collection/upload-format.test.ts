import { describe, expect, it } from 'vitest';
import { guessUploadFormat, uploadTextError } from './upload-format.ts';

describe('the upload format guess', () => {
  it('knows an SDF by its record ends or its file name', () => {
    expect(guessUploadFormat('\n  RDKit\n\n  0  0  0  0\nM  END\n$$$$\n')).toBe('sdf');
    expect(guessUploadFormat('anything', 'series.SDF')).toBe('sdf');
  });

  it('reads lines of whole numbers as structure ids', () => {
    expect(guessUploadFormat('12\n15\n\n20, 21\n')).toBe('ids');
  });

  it('takes anything else as SMILES', () => {
    expect(guessUploadFormat('CCO ethanol\nc1ccccc1')).toBe('smiles');
    expect(guessUploadFormat('')).toBe('smiles');
  });
});

describe('the upload text check', () => {
  it('refuses empty text and text over 5 MB', () => {
    expect(uploadTextError('  \n')).not.toBeNull();
    expect(uploadTextError('C'.repeat(5 * 1024 * 1024 + 1))).toMatch(/5 MB/);
    expect(uploadTextError('CCO')).toBeNull();
  });
});
