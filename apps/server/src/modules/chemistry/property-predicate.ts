import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import type { PropertyColumn, StructureProperties } from '@kb/contracts/search';
import { PROPERTY_FIELDS } from '@kb/contracts/search';

/*
 * Property bounds on the `structures` table (alias `s`). Chemistry owns the table, so the predicate
 * lives here: the search row compiler and the structure preview both read it, and chemistry never
 * has to import search (search depends on chemistry, not the other way).
 */

type Sql = RawBuilder<unknown>;

/** Counts stored as smallint: a bound must be turned into a whole number in range before SQL sees it. */
const SMALLINT_PROPERTIES = new Set<string>(['hb_donors', 'hb_acceptor', 'rot_bonds']);
const SMALLINT = { min: -32_768, max: 32_767 } as const;

/**
 * A bound on a smallint count, as the same set of whole numbers: "≤ 5.5" is "≤ 5", "≥ 2.1" is
 * "≥ 3"; a bound beyond the type's range holds for every stored value (the type's own end) or for
 * none ('none'). PostgreSQL would refuse 5.5 or 40,000 for a smallint (a 500 before this).
 */
export function wholeBound(kind: 'min' | 'max', value: number): number | 'none' {
  const whole = kind === 'min' ? Math.ceil(value) : Math.floor(value);
  if (kind === 'min') return whole > SMALLINT.max ? 'none' : Math.max(whole, SMALLINT.min);
  return whole < SMALLINT.min ? 'none' : Math.min(whole, SMALLINT.max);
}

/** One property's bounds (either may be absent), as the same numbers for SQL and for memory. */
export interface PropertyBound {
  column: PropertyColumn;
  min: number | null;
  max: number | null;
}

/**
 * The bounds of a property range, computed once and rendered both as SQL (`boundsPredicate`) and
 * in memory (the search's bitmap engine): 'none' when a bound can hold for no stored value.
 */
export function propertyBounds(properties: StructureProperties): PropertyBound[] | 'none' {
  const bounds: PropertyBound[] = [];
  for (const [column, [minKey, maxKey]] of Object.entries(PROPERTY_FIELDS) as [
    PropertyColumn,
    readonly [keyof StructureProperties, keyof StructureProperties],
  ][]) {
    let min: number | null | undefined | 'none' = properties[minKey];
    let max: number | null | undefined | 'none' = properties[maxKey];
    // (A clamped bound still leaves out structures without the value, as any bound does.)
    if (SMALLINT_PROPERTIES.has(column)) {
      min = min == null ? null : wholeBound('min', min);
      max = max == null ? null : wholeBound('max', max);
      if (min === 'none' || max === 'none') return 'none';
    }
    if (min != null || max != null) bounds.push({ column, min: min ?? null, max: max ?? null });
  }
  return bounds;
}

/** The bounds as a predicate on `s` (null: no bound). */
export function boundsPredicate(bounds: PropertyBound[] | 'none'): Sql | null {
  if (bounds === 'none') return sql`FALSE`;
  const parts: Sql[] = [];
  for (const { column, min, max } of bounds) {
    // Column names come from the contract's fixed list, never from the request.
    if (min != null) parts.push(sql`s.${sql.ref(column)} >= ${min}`);
    if (max != null) parts.push(sql`s.${sql.ref(column)} <= ${max}`);
  }
  return parts.length ? sql.join(parts, sql` AND `) : null;
}

export function propertyPredicate(properties: StructureProperties): Sql | null {
  return boundsPredicate(propertyBounds(properties));
}
