import type { RoaringBitmap32 } from './roaring.ts';
import type { KbColumns } from './kb-columns.ts';
import { fitsIdArray } from '../../../db/id-arrays.ts';

/**
 * A search's activities with their links, and its assays' and references' numbers of them, made
 * from the id links in memory: the rows the set tables hold (`writeSetsFromBitmaps` in
 * materialise.ts writes them), and what sets held in memory keep for charts and filters
 * (session-sets.ts).
 */

/** The ids of `bitmap` with how many of the search's activities link to each (0 for none). */
export function withActivityCounts(bitmap: RoaringBitmap32, link: Int32Array, activities: Uint32Array): [Int32Array, Int32Array] {
  const ids = Int32Array.from(bitmap.toUint32Array());
  const highest = ids.length ? ids[ids.length - 1]! : 0;
  // A counter per id up to the highest one written (an Int32Array, not a Map of a million entries),
  // unless a link without a foreign key holds a stray large id: then a counter per id of the set.
  if (!fitsIdArray(highest, 4)) {
    const counted = new Map<number, number>();
    for (const position of activities) {
      const id = link[position]!;
      if (id > 0) counted.set(id, (counted.get(id) ?? 0) + 1);
    }
    return [ids, ids.map((id) => counted.get(id) ?? 0)];
  }
  const counts = new Int32Array(highest + 1);
  for (const position of activities) {
    const id = link[position]!;
    if (id > 0 && id < counts.length) counts[id]! += 1;
  }
  return [ids, ids.map((id) => counts[id]!)];
}

/**
 * The rows written to search_activities, as columns (0 where the table holds NULL): the results
 * hold them for the session's charts and filters (results/session-rows.ts) instead of reading them back.
 */
export interface WrittenActivityRows {
  count: number;
  act: Int32Array;
  str: Int32Array;
  assay: Int32Array;
  ref: Int32Array;
  target: Int32Array;
}

/** Each link column over a search's activities, by position. */
export function linkOver(positions: Uint32Array): (link: Int32Array) => Int32Array {
  // A plain loop: `Int32Array.from` with a mapping function calls it per element (several times slower at 750,000).
  return (link) => {
    const values = new Int32Array(positions.length);
    for (let i = 0; i < positions.length; i++) values[i] = link[positions[i]!]!;
    return values;
  };
}

/** A search's activities (positions in `columns`) with their structure, assay, reference and target, as the set table's rows. */
export function activityRowsOver(columns: KbColumns, positions: Uint32Array): WrittenActivityRows {
  const over = linkOver(positions);
  return {
    count: positions.length,
    act: over(columns.actIds),
    str: over(columns.actStr),
    assay: over(columns.actAssay),
    ref: over(columns.actRef),
    target: over(columns.actTarget),
  };
}
