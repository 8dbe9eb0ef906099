import type { SearchOperator } from '@kb/contracts/search';

/**
 * The boolean shape of a search: rows joined left to right by their operators, without
 * precedence — `r1 OR r2 AND r3` is `(r1 OR r2) AND r3`, as the builder shows it — and NOT meaning
 * "and not". The bitmap engine evaluates it over id sets (bitmaps/bitmap-counts.ts `evaluateSets`); the SQL path renders
 * it at each level (activity, structure, clinical compound) with a different predicate per row
 * (materialise.ts); see docs/search-semantics.md.
 */
export type Expr =
  | { kind: 'row'; index: number }
  | { kind: 'const'; value: boolean }
  | { kind: 'and' | 'or'; left: Expr; right: Expr }
  | { kind: 'not'; inner: Expr };

export function buildExpression(operators: readonly (SearchOperator | null | undefined)[]): Expr {
  let expr: Expr = { kind: 'row', index: 0 };
  for (let i = 1; i < operators.length; i++) {
    const right: Expr = { kind: 'row', index: i };
    const op = operators[i - 1] ?? 'AND';
    if (op === 'OR') expr = { kind: 'or', left: expr, right };
    else if (op === 'NOT') expr = { kind: 'and', left: expr, right: { kind: 'not', inner: right } };
    else expr = { kind: 'and', left: expr, right };
  }
  return expr;
}

export function hasNot(expr: Expr): boolean {
  if (expr.kind === 'not') return true;
  if (expr.kind === 'and' || expr.kind === 'or') return hasNot(expr.left) || hasNot(expr.right);
  return false;
}
