import { describe, expect, it } from 'vitest';
import { toggleIds } from './tick-set.ts';

describe('toggleIds', () => {
  it('ticks and unticks without touching the set it was given', () => {
    const before = new Set([1, 2]);
    expect([...toggleIds(before, [3, 2], true)].sort()).toEqual([1, 2, 3]);
    expect([...toggleIds(before, [1, 9], false)]).toEqual([2]);
    expect([...before]).toEqual([1, 2]);
  });
});
