import type { ResultRow } from '@kb/contracts/results';
import type { SheetExportRequest } from '@kb/contracts/sheet';
import { SHEET_PROPERTY_LABELS } from '@kb/contracts/sheet';
import type { ExportColumn } from '../export/export-formats.ts';
import { SMILES_FIELD, TITLE_FIELD } from '../export/export-formats.ts';
import type { BuiltSheet } from './sheet-model.ts';
import { cellAt, differenceAt } from './sheet-model.ts';

/**
 * A sheet as export rows (docs/exports.md "Sheets"): per endpoint its value (the aggregate shown),
 * the qualifier (`=`, `>` or `<`, so a censored bound is never read as exact), n, the censored
 * count, median, geometric mean, best and SD; each difference with its qualifier; the properties;
 * the structure id, a name and the SMILES. In an SDF each row is a molecule record with these as
 * data fields.
 */
export function sheetExportRows(
  sheet: BuiltSheet,
  order: readonly number[],
  compounds: ReadonlyMap<number, { smiles: string; name: string | null }>,
  request: SheetExportRequest,
): { columns: ExportColumn[]; rows: ResultRow[] } {
  const columns: ExportColumn[] = [
    { key: 'str_id', label: 'Structure id', type: 'integer' },
    { key: 'name', label: 'Name', type: 'text' },
    ...sheet.columns.flatMap(({ info }, i): ExportColumn[] => {
      const of = ` (${info.label})`;
      const unit = info.unit ? ` [${info.unit}]` : '';
      return [
        { key: `e${i}_value`, label: `${info.label}: ${request.aggregate}${unit}`, type: 'number' },
        { key: `e${i}_qualifier`, label: `qualifier${of}`, type: 'text' },
        { key: `e${i}_n`, label: `n${of}`, type: 'integer' },
        { key: `e${i}_censored`, label: `censored${of}`, type: 'integer' },
        { key: `e${i}_median`, label: `median${of}`, type: 'number' },
        { key: `e${i}_geomean`, label: `geometric mean${of}`, type: 'number' },
        { key: `e${i}_best`, label: `best${of}`, type: 'number' },
        { key: `e${i}_sd`, label: `SD${of}`, type: 'number' },
      ];
    }),
    ...sheet.differences.flatMap((d, i): ExportColumn[] => [
      { key: `d${i}_value`, label: `Δ ${d.label}`, type: 'number' },
      { key: `d${i}_qualifier`, label: `qualifier (Δ ${d.label})`, type: 'text' },
    ]),
    ...request.properties.map((p): ExportColumn => ({ key: p, label: SHEET_PROPERTY_LABELS[p], type: 'number' })),
    { key: 'smiles', label: 'SMILES', type: 'text' },
  ];
  const rows = order.map((position) => {
    const strId = sheet.strIds[position]!;
    const compound = compounds.get(strId);
    const facts = sheet.facts[position];
    const row: ResultRow = {
      str_id: strId,
      name: compound?.name ?? null,
      smiles: compound?.smiles ?? null,
      [TITLE_FIELD]: strId,
      [SMILES_FIELD]: compound?.smiles ?? '',
    };
    sheet.columns.forEach(({ column }, i) => {
      const cell = cellAt(column, position, request.aggregate);
      Object.assign(row, {
        [`e${i}_value`]: cell?.value ?? null,
        [`e${i}_qualifier`]: cell?.qualifier ?? null,
        [`e${i}_n`]: cell?.n ?? null,
        [`e${i}_censored`]: cell?.censored ?? null,
        [`e${i}_median`]: cell?.median ?? null,
        [`e${i}_geomean`]: cell?.geomean ?? null,
        [`e${i}_best`]: cell?.best ?? null,
        [`e${i}_sd`]: cell?.sd ?? null,
      });
    });
    sheet.differences.forEach((d, i) => {
      const value = differenceAt(sheet, d, position, request.aggregate);
      row[`d${i}_value`] = value?.value ?? null;
      row[`d${i}_qualifier`] = value?.qualifier ?? null;
    });
    const byProperty: Record<string, number | null> = {
      mw: facts?.mw ?? null,
      clogp: facts?.clogp ?? null,
      psa: facts?.psa ?? null,
      hbd: facts?.hbd ?? null,
      hba: facts?.hba ?? null,
      rotb: facts?.rotb ?? null,
      heavyAtoms: facts?.heavy_atoms ?? null,
    };
    for (const p of request.properties) row[p] = byProperty[p] ?? null;
    return row;
  });
  return { columns, rows };
}
