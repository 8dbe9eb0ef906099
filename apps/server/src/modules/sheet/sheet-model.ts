import type { SheetAggregate, SheetCell, SheetColumnInfo, SheetProperty } from '@kb/contracts/sheet';
import type { EndpointColumn } from './sheet-columns.ts';
import { shown } from './sheet-columns.ts';
import type { FactsRow } from './sheet-queries.ts';
import type { Point } from './sheet-values.ts';
import { difference } from './sheet-values.ts';

/** An endpoint's column with what the page says about it. */
export interface ColumnWithInfo {
  column: EndpointColumn;
  info: SheetColumnInfo;
}

/** Everything a page, sort or export reads: the ids (sorted), their properties, the endpoint columns and the differences. */
export interface BuiltSheet {
  strIds: number[];
  facts: FactsRow[];
  columns: ColumnWithInfo[];
  differences: { a: number; b: number; label: string }[];
}

/** The cell of a compound (by position) as the chosen aggregate shows it; null for no measurement. */
export function cellAt(column: EndpointColumn, position: number, aggregate: SheetAggregate): SheetCell | null {
  const cell = column.cells.get(position);
  return cell ? shown(cell, aggregate) : null;
}

/** A − B of a compound (by position), of the values shown. */
export function differenceAt(sheet: BuiltSheet, d: { a: number; b: number }, position: number, aggregate: SheetAggregate): Point | null {
  return difference(cellAt(sheet.columns[d.a]!.column, position, aggregate), cellAt(sheet.columns[d.b]!.column, position, aggregate));
}

/** The field of a compound's facts that holds each property. */
export const PROPERTY_FIELD: Record<SheetProperty, keyof FactsRow> = {
  mw: 'mw',
  clogp: 'clogp',
  psa: 'psa',
  hbd: 'hbd',
  hba: 'hba',
  rotb: 'rotb',
  heavyAtoms: 'heavy_atoms',
};
