import type { SearchOperator } from '@kb/contracts/search';

/**
 * The boolean shape of a search: rows joined left to right by their operators, without
 * precedence — `r1 OR r2 AND r3` is `(r1 OR r2) AND r3`, as the builder shows it — and NOT meaning
 * "and not". The bitmap engine evaluates it over id sets (bitmaps/set-algebra.ts); the SQL path renders
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

/**
 * Whether the expression can hold at all when the rows `possible` says no to never hold there (the
 * SQL path folds such rows to FALSE the same way, materialise.ts): the bitmap engine skips a level
 * the SQL path would not render, e.g. direct structure matches of a search whose every path needs an activity.
 */
export function canHold(expr: Expr, possible: (index: number) => boolean): boolean {
  return fold(expr, possible) !== false;
}

/** A node folded to a constant, or 'open' when it depends on the rows' values. */
function fold(expr: Expr, possible: (index: number) => boolean): boolean | 'open' {
  switch (expr.kind) {
    case 'const':
      return expr.value;
    case 'row':
      return possible(expr.index) ? 'open' : false;
    case 'not': {
      const inner = fold(expr.inner, possible);
      return inner === 'open' ? 'open' : !inner;
    }
    case 'and':
    case 'or': {
      const left = fold(expr.left, possible);
      const right = fold(expr.right, possible);
      const isAnd = expr.kind === 'and';
      if (typeof left === 'boolean') return left === isAnd ? right : left;
      if (typeof right === 'boolean') return right === isAnd ? left : right;
      return 'open';
    }
  }
}
