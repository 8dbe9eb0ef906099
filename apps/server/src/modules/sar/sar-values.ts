import type { SarActivity, SarEndpointOption, SarEndpointScope, SarTable } from '@kb/contracts/sar';
import { aggregate } from './analysis/aggregate.ts';
import { isMolarUnit, toPActivity } from './analysis/pactivity.ts';
import type { EndpointGroup, Measurement } from './sar-queries.ts';
import { countedNoun } from '@kb/contracts/text';

/**
 * The value of each compound for an endpoint (docs/sar.md "Values"):
 * - molar endpoints: pChEMBL when the activity has one, else −log10 of the standard value in
 *   molar (toPActivity); qualified values ('<', '>', '≤', '≥', '~') are left out of the median —
 *   "> 10 µM" says where the value is not, not what it is — and counted in the note;
 * - other endpoints (Inhibition %, …): the standard value as published, in the endpoint's most
 *   common unit (values in other units are left out and counted);
 * several measurements of one compound → their median, with n, min and max (aggregate).
 */

export type EndpointInfo = SarTable['endpoint'];

export interface CompoundValue {
  strId: number;
  activity: SarActivity;
}

/** An endpoint's values become pActivity when any of them has a pChEMBL or a molar unit. */
export function isMolarGroup(group: Pick<EndpointGroup, 'with_pchembl' | 'units'>): boolean {
  return group.with_pchembl > 0 || group.units.some((unit) => isMolarUnit(unit));
}

export function endpointOption(group: EndpointGroup, scope: SarEndpointScope): SarEndpointOption {
  return {
    targetId: group.target_id,
    targetName: group.target_name,
    activityType: group.activity_type,
    compounds: group.compounds,
    activities: group.activities,
    molar: isMolarGroup(group),
    scope,
  };
}

const EXACT = new Set(['', '=']);

function isExact(prefix: string | null): boolean {
  return EXACT.has((prefix ?? '').trim());
}

/** The most frequent unit among measurements (ties: the first alphabetically, for a stable answer). */
function commonUnit(rows: readonly Measurement[]): string | null {
  const counts = new Map<string | null, number>();
  for (const row of rows) if (row.activity_value != null) counts.set(row.standard_uom, (counts.get(row.standard_uom) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || String(a[0]).localeCompare(String(b[0])))[0]?.[0] ?? null;
}

/** A measurement's pActivity, or null when it has none (qualified, or no molar value). */
function pActivityOf(row: Measurement): number | null {
  if (row.pchembl_value != null) return Number(row.pchembl_value);
  if (row.activity_value == null || !isExact(row.std_act_prefix)) return null;
  const converted = toPActivity(Number(row.activity_value), row.standard_uom);
  return converted && converted.molar ? converted.value : null;
}

/**
 * Values per compound (in str_id order) and what the user should know about them. `molar` is the
 * endpoint's kind as the SAR data answered it (isMolarGroup over all its measurements).
 */
export function compoundValues(
  endpoint: { targetId: number; targetName: string; activityType: string; scope: SarEndpointScope },
  rows: readonly Measurement[],
  molar: boolean,
): { info: EndpointInfo; values: CompoundValue[] } {
  const byCompound = new Map<number, number[]>();
  let qualified = 0;
  let unusable = 0;
  const unit = molar ? 'pActivity' : commonUnit(rows);
  for (const row of rows) {
    let value: number | null;
    if (molar) value = pActivityOf(row);
    else value = row.activity_value != null && isExact(row.std_act_prefix) && row.standard_uom === unit ? Number(row.activity_value) : null;
    if (value == null || !Number.isFinite(value)) {
      if (!isExact(row.std_act_prefix) && row.pchembl_value == null) qualified++;
      else unusable++;
      continue;
    }
    const list = byCompound.get(row.str_id) ?? [];
    list.push(value);
    byCompound.set(row.str_id, list);
  }
  const values = [...byCompound].map(([strId, list]) => ({ strId, activity: aggregate(list) }));
  const notes: string[] = [];
  if (molar)
    notes.push(
      'Values are pActivity (−log10 molar): pChEMBL where given, else the standard value converted from its unit. Several measurements of a compound: their median.',
    );
  else
    notes.push(
      `${endpoint.activityType} is not a molar measure: values are used as published${unit ? ` (${unit})` : ''}, without LE or LipE. Several measurements of a compound: their median.`,
    );
  if (qualified) notes.push(`${countedNoun(qualified, 'qualified value', 'qualified values')} ('<', '>') left out.`);
  if (unusable)
    notes.push(`${countedNoun(unusable, 'value', 'values')} in ${molar ? 'a unit that is not a concentration' : 'other units'} left out.`);
  return {
    info: { ...endpoint, unit: unit ?? '', molar, note: notes.join(' ') },
    values,
  };
}
