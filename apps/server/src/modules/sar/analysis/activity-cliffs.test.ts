import { describe, expect, it } from 'vitest';
import { activityCliffs, byCliffRank, sali } from './activity-cliffs.ts';
import type { Cliff, CliffItem } from './activity-cliffs.ts';

/** A random 2,048-bit fingerprint near `base` (a few bits flipped): similar compounds in families. */
function randomItems(n: number, seed: number): CliffItem[] {
  let state = seed;
  const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const bases = Array.from({ length: Math.max(1, n >> 4) }, () => {
    const fp = new Uint8Array(256);
    for (let k = 0; k < 45; k++) fp[Math.floor(random() * 256)]! |= 1 << Math.floor(random() * 8);
    return fp;
  });
  return Array.from({ length: n }, (_, i) => {
    const fp = Uint8Array.from(bases[Math.floor(random() * bases.length)]!);
    for (let k = Math.floor(random() * 6); k > 0; k--) fp[Math.floor(random() * 256)]! ^= 1 << Math.floor(random() * 8);
    // Some compounds with no fingerprint, some duplicates (similarity 1).
    if (i % 97 === 5) fp.fill(0);
    return { strId: i + 1, fp, value: 4 + Math.round(random() * 60) / 10 };
  });
}

/** Brute force: every pair, bit by bit. */
function bruteForce(items: readonly CliffItem[], minSimilarity: number, minDelta: number): Cliff[] {
  const bit = (fp: Uint8Array, i: number) => (fp[i >> 3]! >> (i & 7)) & 1;
  const out: Cliff[] = [];
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      let both = 0;
      let either = 0;
      for (let k = 0; k < 2048; k++) {
        both += bit(items[i]!.fp, k) & bit(items[j]!.fp, k);
        either += bit(items[i]!.fp, k) | bit(items[j]!.fp, k);
      }
      if (either === 0) continue;
      const similarity = both / either;
      const delta = Math.abs(items[i]!.value - items[j]!.value);
      if (similarity < minSimilarity || delta < minDelta) continue;
      const iFirst = items[i]!.value >= items[j]!.value;
      out.push({ a: iFirst ? i : j, b: iFirst ? j : i, similarity, delta, sali: sali(delta, similarity) });
    }
  }
  return out.sort(byCliffRank);
}

describe('activity cliffs', () => {
  it('equal a brute-force computation', () => {
    const items = randomItems(300, 7);
    items[11] = { ...items[10]!, strId: 999, value: items[10]!.value + 2 };
    for (const [minSimilarity, minDelta] of [
      [0.8, 1],
      [0.6, 0.5],
      [0.9, 0],
    ] as const) {
      const expected = bruteForce(items, minSimilarity, minDelta);
      const got = activityCliffs(items, { minSimilarity, minDelta, limit: 100_000 });
      expect(got.compared).toBe((300 * 299) / 2);
      expect(got.total).toBe(expected.length);
      expect(got.cliffs.map((c) => [c.a, c.b])).toEqual(expected.map((c) => [c.a, c.b]));
      got.cliffs.forEach((c, i) => {
        expect(c.similarity).toBeCloseTo(expected[i]!.similarity, 12);
        expect(c.sali).toBeCloseTo(expected[i]!.sali, 9);
      });
      expect(expected.length).toBeGreaterThan(10);
    }
  });

  it('puts the more active first, caps identical fingerprints and keeps the limit', () => {
    const items = randomItems(40, 3).map((item) => ({ ...item, value: 5 }));
    items[1] = { strId: 2, fp: items[0]!.fp, value: 8 };
    const got = activityCliffs(items, { minSimilarity: 0.8, minDelta: 1, limit: 1 });
    expect(got.cliffs).toHaveLength(1);
    expect(got.cliffs[0]).toMatchObject({ a: 1, b: 0, similarity: 1, sali: 300 });
    expect(got.total).toBeGreaterThanOrEqual(1);
  });

  // Its speed is measured by `npm run bench -- sar-cliffs-pairs`, not here (a timed test fails on a busy machine).
  it('compares every pair of 2,000 compounds and keeps the limit', () => {
    const items = randomItems(2_000, 11);
    const got = activityCliffs(items, { minSimilarity: 0.8, minDelta: 1, limit: 200 });
    expect(got.compared).toBe((2_000 * 1_999) / 2);
    expect(got.total).toBeGreaterThan(0);
    expect(got.cliffs.length).toBe(Math.min(200, got.total));
  });
});
