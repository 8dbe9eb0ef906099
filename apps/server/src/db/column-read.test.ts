import { describe, expect, it } from 'vitest';
import { Vocabulary, grown, positionsOf } from './column-read.ts';

describe('column reading helpers', () => {
  it('finds the positions of ids in sparse ascending ids, leaving out ids that are not there', () => {
    const ids = Int32Array.from([3, 40_001, 40_002, 80_000, 1_000_000]);
    expect(positionsOf(ids, [40_002, 3, 1_000_000, 7, 80_001, 80_000])).toEqual([2, 0, 4, 3]);
    expect(positionsOf(new Int32Array(0), [1])).toEqual([]);
  });

  it('codes strings from 1 and keeps 0 for NULL', () => {
    const vocabulary = new Vocabulary();
    expect([vocabulary.code('ic50'), vocabulary.code('ki'), vocabulary.code('ic50')]).toEqual([1, 2, 1]);
    expect(vocabulary.find('ki')).toBe(2);
    expect(vocabulary.find('ec50')).toBeUndefined();
    expect(vocabulary.names).toEqual([null, 'ic50', 'ki']);
  });

  it('grows a column for rows added while it is read: values kept, the new room empty (NaN for floats)', () => {
    const ints = grown(Int32Array.from([4, 5]), 4);
    expect(ints).toBeInstanceOf(Int32Array);
    expect(Array.from(ints)).toEqual([4, 5, 0, 0]);
    const floats = grown(Float64Array.from([1.5]), 3);
    expect(floats).toBeInstanceOf(Float64Array);
    expect(Array.from(floats)).toEqual([1.5, Number.NaN, Number.NaN]);
    expect(Array.from(grown(Uint16Array.from([7]), 2))).toEqual([7, 0]);
  });
});
