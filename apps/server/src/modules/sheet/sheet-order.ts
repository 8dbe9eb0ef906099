import type { SheetAggregate, SheetFilter, SheetProperty, SheetRequest } from '@kb/contracts/sheet';
import { SHEET_PROPERTIES } from '@kb/contracts/sheet';
import type { BuiltSheet } from './sheet-model.ts';
import { PROPERTY_FIELD, differenceAt } from './sheet-model.ts';
import { shown } from './sheet-columns.ts';

/**
 * Filters and sorts a sheet's rows (positions into its ids) in memory (docs/workspace.md "Sort and
 * filter"): blanks last in both directions, ties by structure id; a filter's bounds are inclusive
 * and a blank never passes one. A censored cell sorts and filters by its bound.
 */

export interface SheetView {
  aggregate: SheetAggregate;
  sort: SheetRequest['sort'];
  filters: readonly SheetFilter[];
}

type Reader = (position: number) => number;

const PROPERTY_KEYS: ReadonlySet<string> = new Set(SHEET_PROPERTIES);

/** A column's value at a position, NaN for a blank. */
function reader(sheet: BuiltSheet, column: string, aggregate: SheetAggregate): Reader {
  if (column === 'strId') return (position) => sheet.strIds[position]!;
  if (PROPERTY_KEYS.has(column)) {
    const field = PROPERTY_FIELD[column as SheetProperty];
    return (position) => {
      const value = sheet.facts[position]?.[field];
      return value == null ? Number.NaN : Number(value);
    };
  }
  const index = Number(column.slice(1));
  if (column.startsWith('e')) {
    const cells = sheet.columns[index]!.column.cells;
    return (position) => {
      const cell = cells.get(position);
      return cell ? shown(cell, aggregate).value : Number.NaN;
    };
  }
  const d = sheet.differences[index]!;
  return (position) => differenceAt(sheet, d, position, aggregate)?.value ?? Number.NaN;
}

function passes(filter: SheetFilter, value: number): boolean {
  const blank = Number.isNaN(value);
  if (filter.hasValue !== undefined && filter.hasValue === blank) return false;
  if (filter.min != null && (blank || value < filter.min)) return false;
  if (filter.max != null && (blank || value > filter.max)) return false;
  return true;
}

export function orderRows(sheet: BuiltSheet, view: SheetView): number[] {
  let positions = Array.from({ length: sheet.strIds.length }, (_, i) => i);
  for (const filter of view.filters) {
    const read = reader(sheet, filter.column, view.aggregate);
    positions = positions.filter((position) => passes(filter, read(position)));
  }
  const sort = view.sort;
  if (!sort || sort.column === 'strId') return sort?.direction === 'desc' ? positions.reverse() : positions;
  const read = reader(sheet, sort.column, view.aggregate);
  const values = new Float64Array(sheet.strIds.length);
  for (const position of positions) values[position] = read(position);
  const sign = sort.direction === 'asc' ? 1 : -1;
  // Positions are in id order, so a tie keeps the lower structure id first.
  return positions.sort((x, y) => {
    const a = values[x]!;
    const b = values[y]!;
    const aBlank = Number.isNaN(a);
    const bBlank = Number.isNaN(b);
    if (aBlank || bBlank) return aBlank === bBlank ? x - y : aBlank ? 1 : -1;
    return (a - b) * sign || x - y;
  });
}
