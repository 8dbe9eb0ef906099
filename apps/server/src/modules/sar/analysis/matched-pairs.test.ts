import { describe, expect, it } from 'vitest';
import { MAX_EXAMPLES, MAX_PAIRS, matchedPairs } from './matched-pairs.ts';
import type { PairItem } from './matched-pairs.ts';

/** Compounds made of one constant part and one variable part each (synthetic cuts). */
function series(constant: string, variables: readonly string[], perVariable: number, start = 0): PairItem[] {
  return variables.flatMap((variable, v) =>
    Array.from({ length: perVariable }, (_, k) => ({
      strId: start + v * perVariable + k + 1,
      value: v + k / 10,
      cuts: [{ constant, variable }],
    })),
  );
}

describe('matched pairs, bounded', () => {
  it('counts every pair of a transformation but keeps at most MAX_EXAMPLES examples, with the spread of all', () => {
    // 12 compounds with X and 12 with Y on one constant: 144 pairs of X → Y.
    const items = series('C[*:1]', ['[*:1]X', '[*:1]Y'], 12);
    const found = matchedPairs(items, { minPairs: 1, limit: 10 });
    expect(found.note).toBeNull();
    expect(found.transformations).toHaveLength(1);
    const t = found.transformations[0]!;
    expect(t.pairs).toBe(144);
    expect(t.examples).toHaveLength(MAX_EXAMPLES);
    // Brute force over all 144 deltas: value(Y) − value(X) = 1 + (k' − k) / 10.
    const deltas: number[] = [];
    for (let k = 0; k < 12; k++) for (let j = 0; j < 12; j++) deltas.push(1 + j / 10 - k / 10);
    const mean = deltas.reduce((s, d) => s + d, 0) / deltas.length;
    const sd = Math.sqrt(deltas.reduce((s, d) => s + (d - mean) ** 2, 0) / (deltas.length - 1));
    expect(t.meanDelta).toBeCloseTo(mean, 9);
    expect(t.sdDelta).toBeCloseTo(sd, 9);
    expect(t.examples.map((e) => e.delta)).toEqual([...t.examples.map((e) => e.delta)].sort((p, q) => q - p));
  });

  it('leaves out the constant parts that would make more than MAX_PAIRS pairs, and says so', () => {
    // One constant shared by 800 variants of 1 compound each: 319,600 pairs (over the bound); a small series beside it.
    const crowded = series(
      'c1ccccc1[*:1]',
      Array.from({ length: 800 }, (_, i) => `[*:1]${'C'.repeat(1 + (i % 40))}${'N'.repeat(Math.floor(i / 40))}`),
      1,
    );
    expect((800 * 799) / 2).toBeGreaterThan(MAX_PAIRS);
    const small = series('CCCC[*:1]', ['[*:1]F', '[*:1]Cl'], 2, 10_000);
    const started = Date.now();
    const found = matchedPairs([...crowded, ...small], { minPairs: 1, limit: 1000 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(found.note).toMatch(/^1 constant part shared by very many compounds was left out/);
    expect(found.transformations).toHaveLength(1);
    expect(found.transformations[0]).toMatchObject({ pairs: 4 });
  });
});
