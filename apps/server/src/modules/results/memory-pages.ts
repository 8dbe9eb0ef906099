import { sql } from 'kysely';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import type { SortOrder } from '@kb/contracts/results';
import {
  heldActivityCounts,
  heldActivityLinks,
  heldHas,
  heldPageIds,
  heldRowCount,
  heldScores,
  scoreOrder,
} from '../search/session-sets.ts';
import type { HeldKind, HeldSets, ScoreOrder } from '../search/session-sets.ts';
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

/** The tab's rows in the order of their similarity column (a similarity search's), made once per held answer by `keep`. */
export function heldScoreOrder(
  held: HeldSets,
  tab: ResultTabKey,
  keep: (key: string, make: () => { value: ScoreOrder; bytes: number }) => ScoreOrder,
): ScoreOrder {
  const kind = KIND_OF_TAB[tab];
  return keep(`score order ${kind}`, () => scoreOrder(held, kind));
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
 * an assay's or reference's number of the set's activities counted in memory, the similarity
 * column from the scores held with the sets (null in searches without a similarity row).
 */
export function heldSetRelation(held: HeldSets, tab: ResultTabKey, ids: readonly number[]): Sql {
  const setId = sql`${held.setId}::bigint`;
  const idArray = sql`${[...ids]}::bigint[]`;
  const scores = sql`${heldScores(held, KIND_OF_TAB[tab], ids)}::real[]`;
  switch (tab) {
    case 'structuretab':
      return sql`(SELECT ${setId} AS set_id, u.str_id, u.similarity FROM unnest(${idArray}, ${scores}) AS u(str_id, similarity)) ss`;
    case 'developmentcompoundstab':
      return sql`(SELECT ${setId} AS set_id, u.clinical_compound_id, u.similarity
        FROM unnest(${idArray}, ${scores}) AS u(clinical_compound_id, similarity)) scc`;
    case 'activitiestab': {
      const links = heldActivityLinks(held, ids);
      const column = (values: number[]) => sql`${nullIfZero(values)}::bigint[]`;
      return sql`(SELECT ${setId} AS set_id, u.act_id, u.str_id, u.gvk_id, u.assay_id, u.ref_id, u.target_id, u.similarity
        FROM unnest(${idArray}, ${column(links.str)}, ${column(links.gvk)}, ${column(links.assay)}, ${column(links.ref)}, ${column(links.target)}, ${scores})
          AS u(act_id, str_id, gvk_id, assay_id, ref_id, target_id, similarity)) sa`;
    }
    case 'assaytab':
      return sql`(SELECT ${setId} AS set_id, u.assay_id, u.activities, u.similarity
        FROM unnest(${idArray}, ${heldActivityCounts(held, 'assay', ids)}::int[], ${scores}) AS u(assay_id, activities, similarity)) sy`;
    case 'documentstab':
      return sql`(SELECT ${setId} AS set_id, u.ref_id, u.activities, u.similarity
        FROM unnest(${idArray}, ${heldActivityCounts(held, 'reference', ids)}::int[], ${scores}) AS u(ref_id, activities, similarity)) sr`;
  }
}
