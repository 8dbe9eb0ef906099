import type { SarDifference, SarOverlapResponse } from '@kb/contracts/sar';
import { badRequest } from '../../http/errors.ts';
import type { EndpointInfo } from './sar-values.ts';

/**
 * Which compounds are measured on two endpoints (docs/sar.md "Several endpoints: selectivity"). A
 * difference column A − B has a value only where a compound of the table has both; JAK2 against
 * JAK3 IC50 of two series made for one of them each has none, and an empty column built without a
 * word misleads. The picker shows these counts, and the table refuses a difference with none.
 */

/** The compounds (ids) of each endpoint with a value, the first endpoint's (the table's rows) first. */
export type MeasuredSets = readonly ReadonlySet<number>[];

/** Compounds of the first endpoint measured on both `a` and `b`. */
function measuredOnBoth(measured: MeasuredSets, a: number, b: number): number {
  let n = 0;
  for (const strId of measured[0]!) if (measured[a]!.has(strId) && measured[b]!.has(strId)) n++;
  return n;
}

/** Every pair of endpoints (a < b) with the compounds of the first endpoint measured on both. */
export function overlapOf(measured: MeasuredSets): SarOverlapResponse {
  const pairs: SarOverlapResponse['pairs'] = [];
  for (let a = 0; a < measured.length; a++)
    for (let b = a + 1; b < measured.length; b++) pairs.push({ a, b, compounds: measuredOnBoth(measured, a, b) });
  return { compounds: measured[0]!.size, pairs };
}

const letter = (index: number) => String.fromCharCode(65 + index);

/** "IC50 on Tyrosine-protein kinase JAK2 (A)". */
function named(endpoints: readonly EndpointInfo[], index: number): string {
  return `${endpoints[index]!.activityType} on ${endpoints[index]!.targetName} (${letter(index)})`;
}

/** The message of a difference no compound of the table can have, for the table and the cliffs alike. */
export function noOverlapMessage(endpoints: readonly EndpointInfo[], { a, b }: SarDifference): string {
  const among = a === 0 ? '' : ` among the compounds of ${named(endpoints, 0)}`;
  return `${letter(a)} − ${letter(b)} would be empty: no compound${among} is measured on both ${named(endpoints, a)} and ${named(endpoints, b)}. Choose endpoints measured on the same compounds; the picker shows how many each pair shares.`;
}

/** Refuses (400) the first difference column no compound of the first endpoint has a value for. */
export function refuseEmptyDifferences(
  endpoints: readonly EndpointInfo[],
  differences: readonly SarDifference[],
  measured: MeasuredSets,
): void {
  for (const difference of differences) {
    if (measuredOnBoth(measured, difference.a, difference.b) === 0)
      throw badRequest(noOverlapMessage(endpoints, difference), { field: 'differences' });
  }
}
