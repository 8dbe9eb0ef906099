import type { Qualifier, SheetCell } from '@kb/contracts/sheet';

/**
 * How a sheet cell reads. Values are shown with two decimals (pActivity differences of 0.01 are
 * below any assay's precision, and a fixed width lines the column up); a censored value keeps its
 * qualifier in front (`>7.00`: at least 7, the compound was more active than the assay's top
 * concentration), so it is never read as an exact value.
 */
export const BLANK = '—';

export function formatSheetNumber(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return BLANK;
  return value.toFixed(2);
}

/** `7.25`, `>7.00`, `<5.00`; a blank cell is a dash. */
export function formatQualified(value: number | null | undefined, qualifier: Qualifier = '='): string {
  const text = formatSheetNumber(value);
  if (text === BLANK || qualifier === '=') return text;
  return `${qualifier}${text}`;
}

/** A censored cell: no exact value, only a bound (shown in italics with its sign). */
export function isCensoredCell(cell: Pick<SheetCell, 'qualifier'> | null | undefined): boolean {
  return cell !== null && cell !== undefined && cell.qualifier !== '=';
}

/** The lines of a cell's hover: every aggregate, how many measurements, how many only bounds. */
export function cellDetails(cell: SheetCell): { label: string; value: string }[] {
  const range = cell.min !== null && cell.max !== null ? `${formatSheetNumber(cell.min)} – ${formatSheetNumber(cell.max)}` : BLANK;
  return [
    { label: 'Median', value: formatSheetNumber(cell.median) },
    { label: 'Geometric mean', value: formatSheetNumber(cell.geomean) },
    { label: 'Best', value: formatQualified(cell.best, cell.bestQualifier) },
    { label: 'Measurements', value: String(cell.n) },
    { label: 'Censored (< or >)', value: String(cell.censored) },
    { label: 'SD', value: formatSheetNumber(cell.sd) },
    { label: 'Min – max', value: range },
  ];
}
