import { describe, expect, it } from 'vitest';
import { RoaringBitmap32 } from './roaring.ts';
import { childrenOfAll, keptActivities, linked } from './id-links.ts';
import { reverseIndex } from './reverse-index.ts';
import { MainThreadTurns } from '../../../workers/main-thread-turns.ts';
import { withActivityCounts } from './activity-rows.ts';

/**
 * The id links of large sets (id-links.ts): the search corpus runs on two demo chunks, whose
 * sets are all small, so the path for millions of activities is checked here against plain sets.
 */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

const next = random(7);
// More than one chunk of main-thread-turns.ts (2^18) in the large cases: the chunks join without a seam.
const ACTIVITIES = 1_000_000;
// Structure of each activity position; 0 (none) for one in ten.
const actStr = Int32Array.from({ length: ACTIVITIES }, () => (next() < 0.1 ? 0 : 1 + Math.floor(next() * 150_000)));
const pick = (share: number) => new RoaringBitmap32(Array.from({ length: ACTIVITIES }, (_, i) => i).filter(() => next() < share));

describe('links of large sets', () => {
  it.each([
    ['small (sorted path)', 0.05],
    ['large (a byte per id)', 0.6],
  ])('linked: the distinct non-zero structures of a %s set', async (_label, share) => {
    const activities = pick(share);
    const expected = new Set<number>();
    for (const act of activities) if (actStr[act]! > 0) expected.add(actStr[act]!);
    expect(activities.size > 65_536).toBe(share > 0.5);
    expect(Array.from(await linked(actStr, activities))).toEqual([...expected].sort((a, b) => a - b));
  });

  it.each([
    ['few (list by list)', 0.001],
    ['many (one pass over the column)', 0.4],
  ])('childrenOfAll: every activity of %s structures, in order', async (_label, share) => {
    const structures = new RoaringBitmap32(Array.from({ length: 150_000 }, (_, i) => i + 1).filter(() => next() < share));
    const expected = Array.from({ length: ACTIVITIES }, (_, i) => i).filter((act) => actStr[act]! > 0 && structures.has(actStr[act]!));
    const children = await childrenOfAll({ index: reverseIndex(actStr), forward: actStr }, structures, new MainThreadTurns());
    expect(Array.from(children)).toEqual(expected);
  });

  it('keptActivities: activities of the kept structures or of none, and the cap', async () => {
    const matching = pick(0.5);
    const structures = new RoaringBitmap32(Array.from({ length: 150_000 }, (_, i) => i + 1).filter(() => next() < 0.3));
    const expected = Array.from(matching).filter((act) => actStr[act] === 0 || structures.has(actStr[act]!));
    expect(Array.from(await keptActivities(actStr, matching, structures, ACTIVITIES))).toEqual(expected);
    await expect(keptActivities(actStr, matching, structures, expected.length - 1)).rejects.toThrow();
    expect((await keptActivities(actStr, matching, structures, expected.length)).size).toBe(expected.length);
    expect((await keptActivities(actStr, matching, new RoaringBitmap32(), ACTIVITIES)).size).toBe(
      expected.filter((act) => actStr[act] === 0).length,
    );
  });

  it('linked: a stray largest id in a link column (no foreign key) is listed when in the set, and costs no byte per id', async () => {
    const link = Int32Array.from(actStr);
    link[5] = 2_147_483_647;
    const without = pick(0.3);
    without.remove(5);
    const expected = new Set<number>();
    for (const act of without) if (link[act]! > 0) expected.add(link[act]!);
    expect(Array.from(await linked(link, without))).toEqual([...expected].sort((a, b) => a - b));
    const withIt = without.clone();
    withIt.add(5);
    expect((await linked(link, withIt)).maximum()).toBe(2_147_483_647);
  });
});

describe('activity counts per linked id', () => {
  it('counts the activities of each id, a stray largest id too, without a counter per id up to it', () => {
    const link = Int32Array.from([3, 3, 2_147_483_647, 0, 7, 3]);
    const activities = Uint32Array.from([0, 1, 2, 3, 4, 5]);
    const [ids, counts] = withActivityCounts(new RoaringBitmap32([3, 7, 2_147_483_647]), link, activities);
    expect(Array.from(ids)).toEqual([3, 7, 2_147_483_647]);
    expect(Array.from(counts)).toEqual([3, 1, 1]);
    const [small, smallCounts] = withActivityCounts(new RoaringBitmap32([3, 7, 9]), link, activities);
    expect(Array.from(small)).toEqual([3, 7, 9]);
    expect(Array.from(smallCounts)).toEqual([3, 1, 0]);
  });
});
