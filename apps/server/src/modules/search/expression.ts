import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import type { SearchOperator } from '@kb/contracts/search';

/**
 * The boolean shape of a search: rows joined left to right by their operators, without
 * precedence — `r1 OR r2 AND r3` is `(r1 OR r2) AND r3`, as the builder shows it — and NOT meaning
 * "and not". The same shape is rendered at each level (activity, structure, clinical compound)
 * with a different SQL predicate per row; see docs/search-semantics.md.
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

/** A row's predicate at one level; null = the row cannot be true at this level (constant false). */
export type RowPredicate = (index: number) => RawBuilder<boolean> | null;

/** A predicate, or the constant it folds to. */
export type Rendered = RawBuilder<boolean> | boolean;

function renderNode(expr: Expr, predicate: RowPredicate): Rendered {
  switch (expr.kind) {
    case 'const':
      return expr.value;
    case 'row':
      return predicate(expr.index) ?? false;
    case 'not': {
      const inner = renderNode(expr.inner, predicate);
      // Unknown (NULL) counts as "does not match": an activity without a mechanism is NOT an inhibitor.
      return typeof inner === 'boolean' ? !inner : sql<boolean>`NOT coalesce((${inner}), false)`;
    }
    case 'and':
    case 'or': {
      const left = renderNode(expr.left, predicate);
      const right = renderNode(expr.right, predicate);
      const isAnd = expr.kind === 'and';
      // Constant folding keeps generated SQL small and lets us skip whole parts (e.g. the
      // structure-only part of a search whose every path needs an activity).
      if (typeof left === 'boolean') return left === isAnd ? right : left;
      if (typeof right === 'boolean') return right === isAnd ? left : right;
      return isAnd ? sql<boolean>`(${left} AND ${right})` : sql<boolean>`(${left} OR ${right})`;
    }
  }
}

/** The expression as SQL, or a constant when it folds to one. */
export function renderExpression(expr: Expr, predicate: RowPredicate): Rendered {
  return renderNode(expr, predicate);
}

/** How the expression is rendered at one level: each row's predicate there, and what the whole must also hold (null: nothing). */
export interface LevelRendering {
  row: RowPredicate;
  within?: RawBuilder<boolean> | null;
}

/**
 * The expression rendered at every level at once (materialise.ts: activity, structure, direct,
 * clinical), each ANDed with its `within` (a load window) unless it folds to false, and whether the
 * search negates a row (NOT searches judge structures as a whole).
 */
export function renderLevels<L extends string>(
  expr: Expr,
  levels: Record<L, LevelRendering>,
): { rendered: Record<L, Rendered>; negated: boolean } {
  const rendered = {} as Record<L, Rendered>;
  for (const level of Object.keys(levels) as L[]) {
    const { row, within } = levels[level];
    const whole = renderNode(expr, row);
    rendered[level] = !within || whole === false ? whole : sql<boolean>`(${asSql(whole)} AND ${within})`;
  }
  return { rendered, negated: hasNot(expr) };
}

/** Renders a folded constant as SQL too, for places that need a predicate. */
export function asSql(rendered: Rendered): RawBuilder<boolean> {
  return typeof rendered === 'boolean' ? (rendered ? sql<boolean>`TRUE` : sql<boolean>`FALSE`) : rendered;
}
