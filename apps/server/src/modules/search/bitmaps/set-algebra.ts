import { RoaringBitmap32 } from './roaring.ts';
import type { Expr } from '../expression.ts';

/**
 * A search expression over id sets instead of SQL predicates: a row is the set of ids it holds for,
 * AND is intersection, OR union, and NOT the complement within `universe` (every id of that
 * level). Exact against the SQL rendering (expression.ts): there an unknown (NULL) row value only
 * meets AND / OR, which are monotone, and NOT is coalesced to false first, so reading "unknown" as
 * "not in the set" gives the same rows.
 *
 * `leaf` may return the same bitmap for several calls (a cache): results are always new bitmaps,
 * leaves are never changed.
 */
export function evaluateSets(expr: Expr, leaf: (index: number) => RoaringBitmap32, universe: RoaringBitmap32): RoaringBitmap32 {
  switch (expr.kind) {
    case 'const':
      return expr.value ? universe.clone() : new RoaringBitmap32();
    case 'row':
      return leaf(expr.index).clone();
    case 'not':
      return RoaringBitmap32.andNot(universe, evaluateLeafOrSet(expr.inner, leaf, universe));
    case 'and':
      return RoaringBitmap32.and(evaluateLeafOrSet(expr.left, leaf, universe), evaluateLeafOrSet(expr.right, leaf, universe));
    case 'or':
      return RoaringBitmap32.or(evaluateLeafOrSet(expr.left, leaf, universe), evaluateLeafOrSet(expr.right, leaf, universe));
  }
}

/** A row's own bitmap (not copied: the binary operations above make new ones), else the evaluated node. */
function evaluateLeafOrSet(expr: Expr, leaf: (index: number) => RoaringBitmap32, universe: RoaringBitmap32): RoaringBitmap32 {
  return expr.kind === 'row' ? leaf(expr.index) : evaluateSets(expr, leaf, universe);
}

/** The rows `expr` reads, each once, in the order it names them. */
export function rowIndexes(expr: Expr): number[] {
  switch (expr.kind) {
    case 'const':
      return [];
    case 'row':
      return [expr.index];
    case 'not':
      return rowIndexes(expr.inner);
    case 'and':
    case 'or':
      return [...new Set([...rowIndexes(expr.left), ...rowIndexes(expr.right)])];
  }
}
