import { sql } from 'kysely';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import type { SortOrder } from '@kb/contracts/results';
import type { HeldSets } from '../search/session-sets.ts';
import { childrenOf } from '../search/bitmaps/reverse-index.ts';
import type { RoaringBitmap32 } from '../search/bitmaps/roaring.ts';
import type { Sql } from './tab-model.ts';

/**
 * A tab's page from a session's sets held in memory (issue 62; docs/results.md "Sets held in
 * memory"): in the set's key order the page's ids are a range of the bitmap, so nothing is read to
 * choose them; the page's columns are then read for those rows only, from a relation shaped as the
 * tab's set table (same alias, same columns) built from the ids — so the tab's column definitions
 * (tab-columns.ts) and inner grids read the same values whichever way the sets are kept.
 */

/** The tab's rows of a held set, as ids of the tab's row (activities: positions, see `pageIds`). */
function tabBitmap(held: HeldSets, tab: ResultTabKey): RoaringBitmap32 {
  const { sets } = held;
  switch (tab) {
    case 'structuretab':
      return sets.structures;
    case 'activitiestab':
      return sets.activities;
    case 'assaytab':
      return sets.assays;
    case 'documentstab':
      return sets.references;
    case 'developmentcompoundstab':
      return sets.clinical;
  }
}

/** Rows of the tab in the held set. */
export function heldRowCount(held: HeldSets, tab: ResultTabKey): number {
  return tabBitmap(held, tab).size;
}

/**
 * The ids of one page in key order (ascending or descending), as the tables path's default sort
 * gives them. Activities are held by position, in ascending act_id, so their order is the ids'.
 */
export function pageIds(
  held: HeldSets,
  tab: ResultTabKey,
  pageNumber: number,
  pageSize: number,
  direction: SortOrder['direction'],
): number[] {
  const bitmap = tabBitmap(held, tab);
  const total = bitmap.size;
  const skip = pageNumber * pageSize;
  if (skip >= total) return [];
  const count = Math.min(pageSize, total - skip);
  const offset = direction === 'asc' ? skip : total - skip - count;
  const values = Array.from(bitmap.rangeUint32Array(new Uint32Array(count), offset, count));
  if (direction === 'desc') values.reverse();
  return tab === 'activitiestab' ? values.map((position) => held.columns.actIds[position]!) : values;
}

/** Positions of an activity id in the held columns (ascending act_id), or -1. */
function positionOf(held: HeldSets, actId: number): number {
  const ids = held.columns.actIds;
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid] === actId) return mid;
    if (ids[mid]! < actId) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Activity positions of `index`'s parent `id` that are in the held set, ascending. */
function inSet(held: HeldSets, children: Int32Array): number[] {
  const found: number[] = [];
  for (const position of children) if (held.sets.activities.has(position)) found.push(position);
  return found;
}

/** The set's activities of each structure (the Structures tab's "Activities (this search)"). */
export function structureActivityCounts(held: HeldSets, strIds: readonly number[]): Map<number, number> {
  return new Map(strIds.map((strId) => [strId, inSet(held, childrenOf(held.columns.byStructure, strId)).length]));
}

/** The first `limit` act_ids of each assay in the held set, ascending (an assay row's inner grid). */
export function assayActivities(held: HeldSets, assayIds: readonly number[], limit: number): Map<number, number[]> {
  return new Map(
    assayIds.map((assayId) => [
      assayId,
      inSet(held, childrenOf(held.columns.byAssay, assayId))
        .slice(0, limit)
        .map((position) => held.columns.actIds[position]!),
    ]),
  );
}

const nullIfZero = (values: readonly number[]) => values.map((value) => (value === 0 ? null : value));

/**
 * The page's rows as the tab's set table would hold them, with the table's alias (tab-model.ts):
 * `set_id` constant, the links of an activity from the held columns (0 there is the tables' NULL),
 * an assay's or reference's number of the set's activities counted in memory, no similarity (a
 * search with similarity scores keeps its sets in the tables).
 */
export function heldSetRelation(held: HeldSets, tab: ResultTabKey, ids: readonly number[]): Sql {
  const setId = sql`${held.setId}::bigint`;
  switch (tab) {
    case 'structuretab':
      return sql`(SELECT ${setId} AS set_id, u.str_id, NULL::real AS similarity FROM unnest(${[...ids]}::bigint[]) AS u(str_id)) ss`;
    case 'developmentcompoundstab':
      return sql`(SELECT ${setId} AS set_id, u.clinical_compound_id FROM unnest(${[...ids]}::bigint[]) AS u(clinical_compound_id)) scc`;
    case 'activitiestab': {
      const { columns } = held;
      const positions = ids.map((actId) => positionOf(held, actId));
      const link = (array: Int32Array) => nullIfZero(positions.map((position) => (position < 0 ? 0 : array[position]!)));
      return sql`(SELECT ${setId} AS set_id, u.act_id, u.str_id, u.gvk_id, u.assay_id, u.ref_id, u.target_id, NULL::real AS similarity
        FROM unnest(${[...ids]}::bigint[], ${link(columns.actStr)}::bigint[], ${link(columns.actGvk)}::bigint[], ${link(columns.actAssay)}::bigint[],
          ${link(columns.actRef)}::bigint[], ${link(columns.actTarget)}::bigint[]) AS u(act_id, str_id, gvk_id, assay_id, ref_id, target_id)) sa`;
    }
    case 'assaytab': {
      const counts = ids.map((assayId) => inSet(held, childrenOf(held.columns.byAssay, assayId)).length);
      return sql`(SELECT ${setId} AS set_id, u.assay_id, u.activities, NULL::real AS similarity
        FROM unnest(${[...ids]}::bigint[], ${counts}::int[]) AS u(assay_id, activities)) sy`;
    }
    case 'documentstab': {
      const counts = ids.map((refId) => inSet(held, childrenOf(held.columns.byRef, refId)).length);
      return sql`(SELECT ${setId} AS set_id, u.ref_id, u.activities, NULL::real AS similarity
        FROM unnest(${[...ids]}::bigint[], ${counts}::int[]) AS u(ref_id, activities)) sr`;
    }
  }
}
