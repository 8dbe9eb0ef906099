import { describe, expect, it } from 'vitest';
import { FP_BITS, FP_BYTES } from './fingerprint.mjs';
import { bitCounts, emptySlices, sliceWords, writeRow } from './bit-slices.mjs';
import { similarRows } from './similarity-slices.mjs';
import { mulberry32 } from '../knowledge-base/demo/mulberry32.mjs';

/*
 * The bit-sliced Tanimoto scan against the plain definition, |A ∧ B| / |A ∨ B| over every row:
 * the same rows and the same values, for thresholds from 0 to 1, blocks cut by the bit-count window
 * at any lane, rows without a fingerprint, tiny and huge queries. Pure JavaScript, no RDKit: the
 * engine's parity with RDKit's own Tanimoto is engine-parity.api.test.ts.
 */

/** The project's seeded generator, so a failure names its seed. */
const random = mulberry32;

/** Bits set in each byte value, counted one bit at a time. */
const BITS = Uint8Array.from({ length: 256 }, (_, x) => [0, 1, 2, 3, 4, 5, 6, 7].filter((i) => x & (1 << i)).length);
const popcount = (fp: Uint8Array) => fp.reduce((n, byte) => n + BITS[byte]!, 0);

function tanimoto(a: Uint8Array, b: Uint8Array): number {
  let common = 0;
  let union = 0;
  for (let i = 0; i < FP_BYTES; i++) {
    common += BITS[a[i]! & b[i]!]!;
    union += BITS[a[i]! | b[i]!]!;
  }
  return common / union;
}

/** Rows that are variations of a few parents (so every threshold has hits), some without bits. */
function fingerprints(n: number, seed: number): Uint8Array[] {
  const next = random(seed);
  const parents = Array.from({ length: 6 }, () => {
    const fp = new Uint8Array(FP_BYTES);
    const bits = 20 + Math.floor(next() * 60);
    for (let i = 0; i < bits; i++) {
      const bit = Math.floor(next() * FP_BITS);
      fp[bit >> 3]! |= 1 << (bit & 7);
    }
    return fp;
  });
  return Array.from({ length: n }, (_, i) => {
    if (i % 97 === 5) return new Uint8Array(FP_BYTES);
    const fp = Uint8Array.from(parents[Math.floor(next() * parents.length)]!);
    const changes = Math.floor(next() * 30);
    for (let c = 0; c < changes; c++) {
      const bit = Math.floor(next() * FP_BITS);
      fp[bit >> 3]! ^= 1 << (bit & 7);
    }
    return fp;
  });
}

/** A shard as the index loader builds it: rows sorted by bit count. */
function shardOf(rows: Uint8Array[]) {
  const sorted = [...rows].sort((a, b) => popcount(a) - popcount(b));
  const count = sorted.length;
  const words = sliceWords(count);
  const slices = emptySlices(count);
  sorted.forEach((fp, row) => writeRow(slices, words, row, fp));
  return { sorted, shard: { count, pop: Uint16Array.from(sorted, popcount), slices, words, bitCount: bitCounts(slices, words) } };
}

function expected(sorted: Uint8Array[], query: Uint8Array, min: number, max: number, accept: (row: number) => boolean = () => true) {
  const found: [number, number][] = [];
  sorted.forEach((fp, row) => {
    if (popcount(fp) === 0 || popcount(query) === 0) return;
    const sim = tanimoto(query, fp);
    if (sim >= min && sim <= max && accept(row)) found.push([row, sim]);
  });
  return found;
}

const answer = ({ rows, sims }: { rows: number[]; sims: number[] }) =>
  rows.map((row, i) => [row, sims[i]!] as [number, number]).sort((a, b) => a[0] - b[0]);

describe('similarRows (bit-sliced Tanimoto)', () => {
  it('finds exactly the rows of the plain definition, with their values, at every threshold', () => {
    for (const seed of [1, 2, 3]) {
      // 1,000 rows: the last block is partial, and bit-count windows start and end inside blocks.
      const { sorted, shard } = shardOf(fingerprints(1_000, seed));
      let banded = 0;
      // Row 0 has no bits; the others are spread over the bit counts.
      for (const q of [0, 40, 200, 513, 998]) {
        for (const [min, max] of [
          [0, 1],
          [0.3, 1],
          [0.5, 0.8],
          [0.7, 1],
          [0.85, 1],
          [1, 1],
        ] as const) {
          const want = expected(sorted, sorted[q]!, min, max);
          expect(answer(similarRows(shard, sorted[q]!, min, max)), `seed ${seed} query ${q} [${min}, ${max}]`).toEqual(want);
          // Not vacuous: the row itself at least, and others in a band below 1.
          if (q > 0 && max === 1) expect(want.length).toBeGreaterThan(0);
          if (min === 0.5) banded += want.length;
        }
      }
      expect(banded).toBeGreaterThan(10);
    }
  });

  it('leaves out rows without a fingerprint and answers nothing for a query without bits', () => {
    const { sorted, shard } = shardOf(fingerprints(300, 4));
    const empty = new Uint8Array(FP_BYTES);
    expect(similarRows(shard, empty, 0, 1).rows).toEqual([]);
    const all = similarRows(shard, sorted[150]!, 0, 1).rows;
    expect(all.length).toBe(sorted.filter((fp) => popcount(fp) > 0).length);
  });

  it('keeps to the accepted rows', () => {
    const { sorted, shard } = shardOf(fingerprints(400, 5));
    const accept = (row: number) => row % 3 === 0;
    expect(answer(similarRows(shard, sorted[200]!, 0.4, 1, accept))).toEqual(expected(sorted, sorted[200]!, 0.4, 1, accept));
  });

  it('counts right for a one-bit query and for a query holding most bits (the widest counters)', () => {
    const { sorted, shard } = shardOf(fingerprints(200, 6));
    const one = new Uint8Array(FP_BYTES);
    one[0] = 1;
    const dense = new Uint8Array(FP_BYTES).fill(0xff);
    dense[3] = 0;
    for (const query of [one, dense]) {
      expect(answer(similarRows(shard, query, 0, 1))).toEqual(expected(sorted, query, 0, 1));
      expect(answer(similarRows(shard, query, 0.01, 1))).toEqual(expected(sorted, query, 0.01, 1));
    }
  });
});
