import { describe, expect, it } from 'vitest';
import type { KbDictionaries } from '../knowledge-base/kb-dictionaries.ts';
import { filterInMemory } from './memory-filters.ts';
import type { SessionRows } from './row-values.ts';

/**
 * A tab whose row ids come from a link without a foreign key (a reference id read as the largest
 * int4): its rows are found by a binary search, not an array indexed up to that id, and filtered
 * as any other (the API tests compare the filters with the SQL path on real sets).
 */
describe('filters in memory over a stray large row id', () => {
  const d = {
    assayType: Uint16Array.from([0, 1, 2]),
    assayOrganism: new Uint16Array(3),
    refSource: new Uint8Array(3),
    refYear: new Float64Array(3).fill(Number.NaN),
    targetExists: Uint8Array.from([0, 1, 1, 1]),
  } as unknown as KbDictionaries;
  const big = 2_147_483_647;
  // Three activities: reference 1 on target 1, the stray reference on target 2, reference 1 on target 3.
  const rows: SessionRows = {
    count: 3,
    act: Int32Array.from([10, 11, 12]),
    str: Int32Array.from([5, 6, 5]),
    assay: Int32Array.from([1, 2, 1]),
    ref: Int32Array.from([1, big, 1]),
    target: Int32Array.from([1, 2, 3]),
  };
  const input = { rows, tabIds: () => Int32Array.from([1, big]) };

  it('keeps the reference whose activities hold the target, and only that one', async () => {
    const on2 = await filterInMemory(d, 'documentstab', [{ chartKey: 'target', include: [2] }], input);
    expect(Array.from(on2.passed)).toEqual([big]);
    expect(Array.from(on2.failed)).toEqual([1]);
    const not3 = await filterInMemory(d, 'documentstab', [{ chartKey: 'target', exclude: [3] }], input);
    expect(Array.from(not3.passed)).toEqual([big]);
  });
});
