import { sql } from 'kysely';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import type { SortOrder } from '@kb/contracts/results';
import { heldActivityCounts, heldActivityLinks, heldHas, heldPageIds, heldRowCount } from '../search/session-sets.ts';
import type { HeldKind, HeldSets } from '../search/session-sets.ts';
import type { Sql } from './tab-model.ts';

/**
 * A tab's page from a session's sets held in memory (issue 62; docs/results.md "Sets held in
 * memory"): in the set's key order the page's ids are a range of the bitmap, so nothing is read to
 * choose them; the page's columns are then read for those rows only, from a relation shaped as the
 * tab's set table (same alias, same columns) built from the ids — so the tab's column definitions
 * (tab-columns.ts) and inner grids read the same values whichever way the sets are kept.
 */

const KIND_OF_TAB: Record<ResultTabKey, HeldKind> = {
  structuretab: 'structures',
  activitiestab: 'activities',
  assaytab: 'assays',
  documentstab: 'references',
  developmentcompoundstab: 'clinical',
};

/** Rows of the tab in the held sets. */
export function heldTabRows(held: HeldSets, tab: ResultTabKey): number {
  return heldRowCount(held, KIND_OF_TAB[tab]);
}

/** The ids of one page of the tab in its key order. */
export function heldTabPage(
  held: HeldSets,
  tab: ResultTabKey,
  pageNumber: number,
  pageSize: number,
  direction: SortOrder['direction'],
): number[] {
  return heldPageIds(held, KIND_OF_TAB[tab], pageNumber, pageSize, direction);
}

/** Which of these ids of the tab's rows are in the held sets, in the order given. */
export function heldTabMembers(held: HeldSets, tab: ResultTabKey, ids: readonly number[]): number[] {
  return ids.filter((id) => heldHas(held, KIND_OF_TAB[tab], id));
}

/** The Structures tab's "Activities (this search)" per structure (its column definition counts the set table's rows). */
export function structureActivityCounts(held: HeldSets, strIds: readonly number[]): Map<number, number> {
  const counts = heldActivityCounts(held, 'structure', strIds);
  return new Map(strIds.map((strId, i) => [strId, counts[i]!]));
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
  const idArray = sql`${[...ids]}::bigint[]`;
  switch (tab) {
    case 'structuretab':
      return sql`(SELECT ${setId} AS set_id, u.str_id, NULL::real AS similarity FROM unnest(${idArray}) AS u(str_id)) ss`;
    case 'developmentcompoundstab':
      return sql`(SELECT ${setId} AS set_id, u.clinical_compound_id FROM unnest(${idArray}) AS u(clinical_compound_id)) scc`;
    case 'activitiestab': {
      const links = heldActivityLinks(held, ids);
      const column = (values: number[]) => sql`${nullIfZero(values)}::bigint[]`;
      return sql`(SELECT ${setId} AS set_id, u.act_id, u.str_id, u.gvk_id, u.assay_id, u.ref_id, u.target_id, NULL::real AS similarity
        FROM unnest(${idArray}, ${column(links.str)}, ${column(links.gvk)}, ${column(links.assay)}, ${column(links.ref)}, ${column(links.target)})
          AS u(act_id, str_id, gvk_id, assay_id, ref_id, target_id)) sa`;
    }
    case 'assaytab':
      return sql`(SELECT ${setId} AS set_id, u.assay_id, u.activities, NULL::real AS similarity
        FROM unnest(${idArray}, ${heldActivityCounts(held, 'assay', ids)}::int[]) AS u(assay_id, activities)) sy`;
    case 'documentstab':
      return sql`(SELECT ${setId} AS set_id, u.ref_id, u.activities, NULL::real AS similarity
        FROM unnest(${idArray}, ${heldActivityCounts(held, 'reference', ids)}::int[]) AS u(ref_id, activities)) sr`;
  }
}
