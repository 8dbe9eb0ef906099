import { HttpError, badRequest } from '../../http/errors.ts';
import { ERROR_CODES } from '@kb/contracts/errors';
import { exportCredits } from '@kb/contracts/exports';
import { MEASUREMENT_LIMITS } from '@kb/contracts/leaflets';
import type { Measurement, MeasurementCondition, MeasurementExportRequest } from '@kb/contracts/leaflets';
import type { ResultRow } from '@kb/contracts/results';
import type { AuthContext } from '../../http/auth-hook.ts';
import type { ExportColumn } from '../export/export-formats.ts';
import type { ExportService } from '../export/export-service.ts';
import type { MeasurementService, ResolvedSelection } from './measurement-service.ts';

/**
 * The columns of a measurement list's export: everything the list shows, units as stored (the
 * page writes "µM" where the knowledge base holds "uM"; a file keeps what the source said), and
 * the reference leaflet's permanent link.
 */
const MEASUREMENT_EXPORT_COLUMNS: readonly ExportColumn[] = [
  { key: 'act_id', label: 'Activity id', type: 'integer' },
  { key: 'str_id', label: 'Structure id', type: 'integer' },
  { key: 'compound_label', label: 'Compound label in reference', type: 'text' },
  { key: 'target_id', label: 'Target id', type: 'integer' },
  { key: 'target_name', label: 'Target', type: 'text' },
  { key: 'gene_symbol', label: 'Gene symbol', type: 'text' },
  { key: 'std_activity_type', label: 'Activity type', type: 'text' },
  { key: 'std_act_prefix', label: 'Relation', type: 'text' },
  { key: 'activity_value', label: 'Value', type: 'number' },
  { key: 'standard_uom', label: 'Unit', type: 'text' },
  { key: 'micro_molarvalue', label: 'Value (uM)', type: 'number' },
  { key: 'pchembl_value', label: 'pChEMBL', type: 'number' },
  { key: 'standardised', label: 'Standardised', type: 'text' },
  { key: 'activity_type', label: 'Published type', type: 'text' },
  { key: 'activity_prefix', label: 'Published relation', type: 'text' },
  { key: 'activity', label: 'Published value', type: 'number' },
  { key: 'activity_uom', label: 'Published unit', type: 'text' },
  { key: 'activity_text', label: 'Published text', type: 'text' },
  { key: 'activity_remarks', label: 'Remarks', type: 'text' },
  { key: 'data_validity_comment', label: 'Data validity', type: 'text' },
  { key: 'parameter', label: 'Parameter', type: 'text' },
  { key: 'assay_id', label: 'Assay id', type: 'integer' },
  { key: 'assay_chembl_id', label: 'Assay ChEMBL id', type: 'text' },
  { key: 'assay_type', label: 'Assay type', type: 'text' },
  { key: 'assay_description', label: 'Assay description', type: 'text' },
  { key: 'organism', label: 'Organism', type: 'text' },
  { key: 'strain', label: 'Strain', type: 'text' },
  { key: 'cell_line', label: 'Cell line / organ', type: 'text' },
  { key: 'tissue', label: 'Tissue', type: 'text' },
  { key: 'conditions', label: 'Conditions', type: 'text' },
  { key: 'ref_id', label: 'Reference id', type: 'integer' },
  { key: 'reference', label: 'Reference', type: 'text' },
  { key: 'year', label: 'Year', type: 'integer' },
  { key: 'doi', label: 'DOI', type: 'text' },
  { key: 'pubmed_id', label: 'PubMed id', type: 'integer' },
  { key: 'data_source', label: 'Data source', type: 'text' },
  { key: 'reference_link', label: 'Reference leaflet', type: 'text' },
];

/** "pH 7.4; Substrate ATP = 10 uM": a measurement's conditions as one cell, units as stored. */
function conditionsText(conditions: readonly MeasurementCondition[]): string {
  return conditions
    .map((c) => {
      const amount = [c.relation && c.relation !== '=' ? c.relation : null, c.value === null ? null : String(c.value), c.unit]
        .filter(Boolean)
        .join(' ');
      return [c.label, c.text, amount].filter((part) => part !== null && part !== '').join(' ');
    })
    .join('; ');
}

function exportRow(m: Measurement, publicUrl: string): ResultRow {
  const row: ResultRow = {};
  for (const column of MEASUREMENT_EXPORT_COLUMNS)
    row[column.key] = (m as unknown as Record<string, ResultRow[string]>)[column.key] ?? null;
  row.standardised = m.standardised ? 'yes' : 'no';
  row.conditions = conditionsText(m.conditions) || null;
  row.reference_link = m.reference_link ? `${publicUrl.replace(/\/+$/, '')}${m.reference_link}` : null;
  return row;
}

/** What the export is called in the download history: "Measurements of Gefitinib on EGFR". */
function description(resolved: ResolvedSelection): string {
  const compound =
    resolved.compound.name ??
    `${resolved.compound.str_id !== null ? 'structure' : resolved.compound.idType} ${resolved.compound.str_id ?? resolved.compound.id}`;
  const target =
    resolved.targetScope === 'target'
      ? ` on ${resolved.target!.gene_symbol ?? resolved.target!.name}`
      : resolved.targetScope === 'none'
        ? ' without a target'
        : '';
  return `Measurements of ${compound}${target}${resolved.type ? ` (${resolved.type})` : ''}`;
}

/**
 * Exports every row of a measurement list through the export jobs (docs/exports.md): the rows are
 * read now (at most MEASUREMENT_LIMITS.maxExportRows, in the list's sort) and kept with the job,
 * priced one credit per row and charged by the export service's ledger movement (402 when the
 * balance is short, 409 when the price the user confirmed no longer holds).
 */
export async function exportMeasurements(
  auth: AuthContext,
  request: MeasurementExportRequest,
  measurements: MeasurementService,
  exports: ExportService,
  publicUrl: string,
): Promise<{ jobId: number; background: boolean }> {
  const resolved = await measurements.resolve(request);
  const { matching } = await measurements.counts(resolved);
  if (matching === 0) throw badRequest('Nothing to export: this list has no measurements.', { field: 'type' });
  if (matching > MEASUREMENT_LIMITS.maxExportRows) {
    throw badRequest(
      `One measurement-list export holds at most ${MEASUREMENT_LIMITS.maxExportRows.toLocaleString('en-US')} rows; this list has ${matching.toLocaleString('en-US')}. Choose one activity type to export fewer.`,
      { field: 'type', rows: matching },
    );
  }
  const credits = exportCredits(matching);
  if (request.expectedCredits !== undefined && request.expectedCredits !== credits) {
    throw new HttpError(409, {
      message: `This list changed since its price was shown: it now holds ${matching.toLocaleString('en-US')} measurements (${credits.toLocaleString('en-US')} credits). Check the new price and export again.`,
      code: ERROR_CODES.conflict,
      details: { rows: matching, credits },
    });
  }
  const rows = (await measurements.rows(resolved, MEASUREMENT_LIMITS.maxExportRows, 0)).map((m) => exportRow(m, publicUrl));
  return exports.createPrepared(auth, null, {
    source: 'measurements',
    tab: 'activitiestab',
    format: request.format,
    label: 'Measurements',
    description: description(resolved),
    columns: [...MEASUREMENT_EXPORT_COLUMNS],
    rows,
  });
}
