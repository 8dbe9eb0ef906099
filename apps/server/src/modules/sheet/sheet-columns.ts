import type { SheetAggregate, SheetCell, SheetEndpoint, SheetEndpointOption } from '@kb/contracts/sheet';
import { isMolarUnit } from '../sar/analysis/pactivity.ts';
import type { EndpointGroupRow, MeasurementRow } from './sheet-queries.ts';
import { molarPoint, plainPoint } from './sheet-values.ts';
import { ColumnCells, QUALIFIER_CODE } from './sheet-cells.ts';

/**
 * One endpoint's column over a sheet's compounds: the cell of every compound measured there, by
 * its position in the sheet's sorted ids. A cell is computed when first read (sheet-cells.ts), with
 * every aggregate in it; what it shows for another aggregate is read from its fields (`shown`).
 */
export interface EndpointColumn {
  endpoint: SheetEndpoint;
  molar: boolean;
  /** `pActivity`, or the unit of a non-molar endpoint's values. */
  unit: string;
  cells: ColumnCells;
  /** Measurements left out: in another unit, or with a relation that says nothing (`~`). */
  leftOut: number;
  measurements: number;
}

/** What identifies an endpoint: its target or assay and its type, without case (IC50 and ic50 are one column). */
export function endpointKey(endpoint: SheetEndpoint): string {
  const type = endpoint.activityType.toLowerCase();
  return endpoint.kind === 'target' ? `t:${endpoint.targetId}:${type}` : `a:${endpoint.assayId}:${type}`;
}

/** An endpoint's values are pActivity when any measurement has a pChEMBL or a molar unit (as the SAR view decides). */
function isMolar(rows: readonly MeasurementRow[]): boolean {
  return rows.some((row) => row.pchembl != null || isMolarUnit(row.units));
}

/** The most frequent unit of the measurements with a value (ties: alphabetical, for a stable answer). */
function commonUnit(rows: readonly MeasurementRow[]): string | null {
  const counts = new Map<string | null, number>();
  for (const row of rows) if (row.value != null) counts.set(row.units, (counts.get(row.units) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || String(a[0]).localeCompare(String(b[0])))[0]?.[0] ?? null;
}

/**
 * Builds a column from the endpoint's measurements (in str_id order) and the sheet's sorted ids:
 * each measurement becomes a point (or is left out), kept by compound; cells are made on demand.
 */
export function buildColumn(endpoint: SheetEndpoint, strIds: readonly number[], rows: readonly MeasurementRow[]): EndpointColumn {
  const molar = isMolar(rows);
  const unit = molar ? null : commonUnit(rows);
  const values = new Float64Array(rows.length);
  const qualifiers = new Uint8Array(rows.length);
  const positions: number[] = [];
  const starts: number[] = [];
  let n = 0;
  let leftOut = 0;
  let censoredOnly = 0;
  let position = 0;
  let current = -1;
  let segmentStart = 0;
  let hasExact = false;
  // Ends the current compound's points: kept when it has any and is one of the sheet's compounds.
  const close = () => {
    if (current < 0 || n === segmentStart) return;
    while (position < strIds.length && strIds[position]! < current) position++;
    if (strIds[position] !== current) {
      n = segmentStart;
      return;
    }
    positions.push(position);
    starts.push(segmentStart);
    if (!hasExact) censoredOnly++;
  };
  for (const row of rows) {
    if (row.str_id !== current) {
      close();
      current = row.str_id;
      segmentStart = n;
      hasExact = false;
    }
    const point = molar ? molarPoint(row) : plainPoint(row, unit);
    if (!point) {
      leftOut++;
      continue;
    }
    values[n] = point.value;
    qualifiers[n] = QUALIFIER_CODE[point.qualifier];
    if (point.qualifier === '=') hasExact = true;
    n++;
  }
  close();
  starts.push(n);
  const cells = new ColumnCells(molar, Int32Array.from(positions), Int32Array.from(starts), values, qualifiers, censoredOnly);
  return { endpoint, molar, unit: molar ? 'pActivity' : (unit ?? ''), cells, leftOut, measurements: rows.length };
}

/** What a cell shows for the chosen aggregate. */
export function shown(cell: SheetCell, aggregate: SheetAggregate): SheetCell {
  if (aggregate === 'best') return { ...cell, value: cell.best, qualifier: cell.bestQualifier };
  if (aggregate === 'geomean' && cell.geomean != null) return { ...cell, value: cell.geomean, qualifier: '=' };
  return cell;
}

/** "IC50 · EGFR" for a target, "IC50 · assay 1234: Inhibition of EGFR…" for an assay. */
export function endpointLabel(
  endpoint: SheetEndpoint,
  names: { labelName: string | null; targetName: string | null; geneSymbol: string | null },
): string {
  if (endpoint.kind === 'target')
    return `${endpoint.activityType} · ${names.geneSymbol || names.targetName || `target ${endpoint.targetId}`}`;
  const text = names.labelName ? `: ${names.labelName.length > 60 ? `${names.labelName.slice(0, 57)}…` : names.labelName}` : '';
  return `${endpoint.activityType} · assay ${endpoint.assayId}${text}`;
}

export function optionOf(kind: SheetEndpoint['kind'], row: EndpointGroupRow): SheetEndpointOption {
  const endpoint: SheetEndpoint =
    kind === 'target'
      ? { kind, targetId: row.key, activityType: row.activity_type }
      : { kind, assayId: row.key, activityType: row.activity_type };
  return {
    endpoint,
    label: endpointLabel(endpoint, { labelName: row.label_name, targetName: row.target_name, geneSymbol: row.gene_symbol }),
    targetName: row.target_name,
    geneSymbol: row.gene_symbol,
    compounds: row.compounds,
    activities: row.activities,
    molar: row.with_pchembl > 0 || row.units.some((unit) => isMolarUnit(unit)),
  };
}
