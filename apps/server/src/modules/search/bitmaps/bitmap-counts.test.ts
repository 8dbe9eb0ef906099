import { RoaringBitmap32 } from './roaring.ts';
import { describe, expect, it } from 'vitest';
import { buildExpression } from '../expression.ts';
import { canHold, evaluateSets } from './bitmap-counts.ts';

/** Rows as id sets over the universe 1..10, combined left to right as the builder shows them. */
const universe = RoaringBitmap32.fromRange(1, 11);
const rows = [new RoaringBitmap32([1, 2, 3, 4]), new RoaringBitmap32([3, 4, 5]), new RoaringBitmap32([4, 9])];
const evaluate = (...operators: ('AND' | 'OR' | 'NOT')[]) =>
  evaluateSets(buildExpression([...operators, null]), (i) => rows[i]!, universe).toArray();

describe('search expressions over id sets', () => {
  it('reads AND as intersection, OR as union and NOT as "and not", left to right without precedence', () => {
    expect(evaluate('AND', 'AND')).toEqual([4]);
    expect(evaluate('OR', 'OR')).toEqual([1, 2, 3, 4, 5, 9]);
    expect(evaluate('NOT', 'OR')).toEqual([1, 2, 4, 9]);
    // (r1 OR r2) AND r3, not r1 OR (r2 AND r3).
    expect(evaluate('OR', 'AND')).toEqual([4]);
    // r1 AND NOT r2 AND NOT r3
    expect(evaluate('NOT', 'NOT')).toEqual([1, 2]);
  });

  it('never changes the rows it reads (they may be cached between searches)', () => {
    evaluate('NOT', 'OR');
    evaluate('OR', 'OR');
    expect(rows.map((r) => r.toArray())).toEqual([
      [1, 2, 3, 4],
      [3, 4, 5],
      [4, 9],
    ]);
  });

  it('folds rows that hold nowhere at a level: whether the expression can hold there at all', () => {
    const twoRows = (operator: 'AND' | 'OR' | 'NOT') => buildExpression([operator, null]);
    const not = (index: number) => (i: number) => i !== index;
    expect(canHold(twoRows('AND'), not(1))).toBe(false);
    expect(canHold(twoRows('OR'), not(1))).toBe(true);
    // r1 NOT r2: r2 holding nowhere leaves r1; r1 holding nowhere leaves nothing.
    expect(canHold(twoRows('NOT'), not(1))).toBe(true);
    expect(canHold(twoRows('NOT'), not(0))).toBe(false);
    expect(canHold(twoRows('AND'), () => true)).toBe(true);
  });
});
