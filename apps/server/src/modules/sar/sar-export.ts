import type { ResultRow } from '@kb/contracts/results';
import type { SarTable } from '@kb/contracts/sar';
import type { ExportColumn } from '../export/export-formats.ts';
import { SMILES_FIELD, TITLE_FIELD } from '../export/export-formats.ts';

/**
 * A SAR table as export rows (docs/exports.md "SAR tables"): the R-groups as SMILES columns (their
 * labels: R1, R2 …), the value with n and spread, MW, cLogP, LE, LipE, the structure id and its
 * SMILES. In an SDF each row is a molecule record (the compound) with these as data fields.
 */
function sarExportColumns(table: SarTable): ExportColumn[] {
  const several = table.endpoints.length > 1;
  const endpointColumns = table.endpoints.flatMap((endpoint, index): ExportColumn[] => {
    const value = endpoint.molar ? 'pActivity' : `${endpoint.activityType} (${endpoint.unit || 'as published'})`;
    // One endpoint keeps the plain labels and keys; several are told apart by their target and type.
    const label = several ? `${value} · ${endpoint.activityType} on ${endpoint.targetName}` : value;
    const suffix = index === 0 ? '' : `_${index + 1}`;
    const of = several ? ` (${endpoint.activityType} on ${endpoint.targetName})` : '';
    return [
      { key: `value${suffix}`, label, type: 'number' },
      { key: `n${suffix}`, label: `n${of}`, type: 'integer' },
      { key: `min${suffix}`, label: `min${of}`, type: 'number' },
      { key: `max${suffix}`, label: `max${of}`, type: 'number' },
    ];
  });
  return [
    ...table.labels.map((label) => ({ key: label, label, type: 'text' as const })),
    ...endpointColumns,
    ...table.differences.map(
      (d, index): ExportColumn => ({ key: `difference_${index + 1}`, label: `Δ pActivity ${d.label}`, type: 'number' }),
    ),
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
    row.values.forEach((activity, index) => {
      if (index === 0) return;
      const suffix = `_${index + 1}`;
      Object.assign(out, {
        [`value${suffix}`]: activity?.value ?? null,
        [`n${suffix}`]: activity?.n ?? null,
        [`min${suffix}`]: activity?.min ?? null,
        [`max${suffix}`]: activity?.max ?? null,
      });
    });
    row.differences.forEach((value, index) => (out[`difference_${index + 1}`] = value));
    return out;
  });
  return { columns: sarExportColumns(table), rows };
}
