import { describe, expect, it } from 'vitest';
import { fitsIdArray } from './id-arrays.ts';

describe('arrays indexed by id', () => {
  it('holds ids up to 64 MB of array, whatever the bytes per id, and no further', () => {
    const bytes = 64 * 2 ** 20;
    expect(fitsIdArray(bytes - 1, 1)).toBe(true);
    expect(fitsIdArray(bytes, 1)).toBe(false);
    expect(fitsIdArray(bytes / 4 - 1, 4)).toBe(true);
    expect(fitsIdArray(bytes / 4, 4)).toBe(false);
    // A dangling id read as the largest int4 never does.
    expect(fitsIdArray(2 ** 31 - 1, 1)).toBe(false);
  });
});
