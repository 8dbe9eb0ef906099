import type { ResultRow } from '@kb/contracts/results';
import type { SarTable } from '@kb/contracts/sar';
import type { ExportColumn } from '../export/export-formats.ts';
import { SMILES_FIELD, TITLE_FIELD } from '../export/export-formats.ts';

/**
 * A SAR table as export rows (docs/exports.md "SAR tables"): the R-groups as SMILES columns (their
 * labels: R1, R2 …), the value with n and spread, MW, cLogP, LE, LipE, the structure id and its
 * SMILES. In an SDF each row is a molecule record (the compound) with these as data fields.
 */
export function sarExportColumns(table: SarTable): ExportColumn[] {
  const value = table.endpoint.molar ? 'pActivity' : `${table.endpoint.activityType} (${table.endpoint.unit || 'as published'})`;
  return [
    ...table.labels.map((label) => ({ key: label, label, type: 'text' as const })),
    { key: 'value', label: value, type: 'number' },
    { key: 'n', label: 'n', type: 'integer' },
    { key: 'min', label: 'min', type: 'number' },
    { key: 'max', label: 'max', type: 'number' },
    { key: 'mw', label: 'MW', type: 'number' },
    { key: 'clogp', label: 'cLogP', type: 'number' },
    { key: 'le', label: 'LE', type: 'number' },
    { key: 'lipe', label: 'LipE', type: 'number' },
    { key: 'str_id', label: 'Structure id', type: 'integer' },
    { key: 'smiles', label: 'SMILES', type: 'text' },
  ];
}

export function sarExportRows(table: SarTable): { columns: ExportColumn[]; rows: ResultRow[] } {
  const rows = table.rows.map((row) => {
    const out: ResultRow = {
      value: row.activity.value,
      n: row.activity.n,
      min: row.activity.min,
      max: row.activity.max,
      mw: row.mw,
      clogp: row.clogp,
      le: row.le,
      lipe: row.lipe,
      str_id: row.strId,
      smiles: row.smiles,
      [TITLE_FIELD]: row.strId,
      [SMILES_FIELD]: row.smiles,
    };
    for (const label of table.labels) out[label] = row.rgroups[label] ?? null;
    return out;
  });
  return { columns: sarExportColumns(table), rows };
}
