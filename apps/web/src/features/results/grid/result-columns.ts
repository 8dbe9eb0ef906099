import type { CellValue, InnerGrid, ResultColumn } from '@kb/contracts/results';
import { InnerGridsSchema, SIMILARITY_COLUMN } from '@kb/contracts/results';
import { formatQuantity, quantityOfColumn } from '@kb/contracts/quantities';
import type { ColumnChoices } from '../results-store.ts';
import { formatMolar, formatPlainSignificant } from '../../../app/format/molar-format.ts';
import { formatUnit, formatUnitsInText } from '../../../app/format/unit-format.ts';

/**
 * Which columns a tab shows and how a cell reads (spec §3 "Result columns": label, type, order,
 * hidden by default). Pure, so the grid, the column chooser and the tests agree.
 */

/** The columns in their order, each with whether it is shown now. */
export interface ShownColumn extends ResultColumn {
  visible: boolean;
  /** The user cannot hide it right now (the similarity column during a similarity sort). */
  locked: boolean;
}

/**
 * A column is shown by the user's choice, else by its default. The similarity column is filled by
 * a similarity sort: it is shown, and sortable, while one is on (spec §4). A similarity search
 * (`searchScored`) fills it with its own score: shown by default there, and sortable.
 */
export function shownColumns(
  columns: readonly ResultColumn[],
  choices: ColumnChoices | undefined,
  similarityOn: boolean,
  searchScored = false,
): ShownColumn[] {
  return [...columns]
    .sort((a, b) => a.order - b.order)
    .map((column) => {
      if (column.key !== SIMILARITY_COLUMN) return { ...column, visible: choices?.[column.key] ?? !column.hidden, locked: false };
      const chosen = choices?.[column.key] ?? (searchScored || !column.hidden);
      return {
        ...column,
        visible: similarityOn || chosen,
        locked: similarityOn,
        sortable: column.sortable && (similarityOn || searchScored),
      };
    });
}

/**
 * A number of a column as a chemist writes it (contracts/quantities.ts): pChEMBL 7.20, a molecular
 * weight 481.60, cLogP 4.37, a measured value as measured (342.123 nM, 0.00123 µM), counts with
 * thousands separators, ids and years as they are; an empty cell for a value that is not a number.
 */
function formatColumnNumber(value: number, column: Pick<ResultColumn, 'key' | 'type'>): string {
  if (!Number.isFinite(value)) return '';
  if (column.key === 'micro_molarvalue') return formatMolar(value);
  const quantity = quantityOfColumn(column.key, column.type === 'integer' ? 'integer' : 'number');
  // A grid never shows E-notation: a tiny or huge measured value is written out with three significant digits.
  const size = Math.abs(value);
  if (quantity === 'measured' && size > 0 && (size < 1e-3 || size >= 1e12)) return formatPlainSignificant(value);
  // An integer column holding a fraction (an average, say) is written as measured, not rounded away.
  return formatQuantity(value, quantity === 'count' && !Number.isInteger(value) ? 'measured' : quantity);
}

/** Columns that hold a unit (standard_uom, activity_uom, dose_uom, substrate_uom …; an inner grid's units). */
function isUnitColumn(key: string): boolean {
  return key.endsWith('_uom') || key === 'units' || key === 'standard_units' || key === 'unit';
}

/** Text columns whose sentences carry units after numbers ("@ 1 uM", "at 1 uM (selectivity panel)"). */
const TEXT_WITH_UNITS = new Set(['parameter', 'description', 'assay_parameters', 'activity_remarks']);

/** The text of a cell (structure and JSON cells have their own renderers); units as a chemist writes them (display only). */
export function formatCell(value: CellValue | undefined, column: Pick<ResultColumn, 'key' | 'type'>): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string' && isUnitColumn(column.key)) return formatUnit(value);
  if (typeof value === 'string' && TEXT_WITH_UNITS.has(column.key)) return formatUnitsInText(value);
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return formatColumnNumber(value, column);
  if (column.type === 'date') {
    const time = Date.parse(value);
    return Number.isFinite(time) ? new Date(time).toLocaleDateString('en-GB', { year: 'numeric', month: 'short', day: '2-digit' }) : value;
  }
  return value;
}

/**
 * Spec §3: activity and assay rows carry `innerGrids` as a JSON string. A value that is not
 * valid JSON of the contract's shape reads as no grids, never as a broken page.
 */
export function parseInnerGrids(value: CellValue | undefined): InnerGrid[] {
  if (typeof value !== 'string' || value.trim() === '') return [];
  try {
    const parsed = InnerGridsSchema.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** A whole positive number from a cell (row ids, structure ids), or null. */
export function idOf(value: CellValue | undefined): number | null {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number > 0 ? number : null;
}
