import { sql } from 'kysely';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import type { ResultRow, SortOrder } from '@kb/contracts/results';
import {
  heldActivityCounts,
  heldActivityLinks,
  heldHas,
  heldIds,
  heldIdsWithActivityCounts,
  heldPageIds,
  heldRowCount,
  heldScores,
  scoreOrder,
  scoredPageIds,
} from '../search/session-sets.ts';
import type { HeldKind, HeldSets } from '../search/session-sets.ts';
import type { DatabaseKind } from '../../db/database.ts';
import { int4ArrayParam } from '../../db/array-param.ts';
import { TAB_MODELS } from './tab-model.ts';
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

/** What a held page keeps with the held sets, made once per answer (search-service.ts `heldDerived`, `heldDerivedAsync`). */
export interface HeldKeeper {
  keep<T>(key: string, make: () => { value: T; bytes: number }): T;
  keepAsync<T>(key: string, make: () => { value: Promise<T>; bytes: number }): Promise<T>;
}

/**
 * The ids of one page of a held tab in `order`: a range of the set in key order, of its score order
 * (`byScore`: a similarity search's, `scoreOrder`), or of every row sorted once by the column in SQL
 * (`sortAll`, over `heldWholeRelation`) — the two last kept with the held sets, 8 bytes a row.
 */
export async function heldOrderedPage(
  held: HeldSets,
  tab: ResultTabKey,
  order: SortOrder,
  byScore: boolean,
  page: { pageNumber: number; pageSize: number },
  keeper: HeldKeeper,
  sortAll: () => Promise<Float64Array>,
): Promise<number[]> {
  const { pageNumber, pageSize } = page;
  const kind = KIND_OF_TAB[tab];
  if (byScore)
    return scoredPageIds(
      keeper.keep(`score order ${kind}`, () => scoreOrder(held, kind)),
      pageNumber,
      pageSize,
      order.direction,
    );
  if (order.column === TAB_MODELS[tab].defaultSort) return heldPageIds(held, kind, pageNumber, pageSize, order.direction);
  const key = `column order ${kind} ${order.column} ${order.direction}`;
  const ids = await keeper.keepAsync(key, () => ({ value: sortAll(), bytes: heldRowCount(held, kind) * 8 }));
  return Array.from(ids.subarray(pageNumber * pageSize, (pageNumber + 1) * pageSize));
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

/** A Structures page's rows with "Activities (this search)" counted in memory (its column definition counts the set table's rows). */
export function withHeldStructureActivities(held: HeldSets, rows: ResultRow[], strIds: readonly number[]): ResultRow[] {
  const counts = structureActivityCounts(held, strIds);
  return rows.map((row) => ({ ...row, activities: counts.get(Number(row.str_id)) ?? 0 }));
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

/**
 * The tab's whole set as the set table's stand-in, for SQL that orders every row (a sort by a
 * column): the ids sent as one int4[] (binary to a PostgreSQL server), an activity's links read
 * from the activities table by its key (the values the set table copies from it), an assay's and a
 * reference's number of the set's activities counted in memory. No similarity: a similarity
 * search's score order comes from memory (`heldOrderedPage`).
 */
export function heldWholeRelation(held: HeldSets, tab: ResultTabKey, kind: DatabaseKind): Sql {
  const setId = sql`${held.setId}::bigint`;
  const ints = (values: Int32Array) => sql`${int4ArrayParam(values, kind)}::int[]`;
  switch (tab) {
    case 'structuretab':
      return sql`(SELECT ${setId} AS set_id, u.str_id, NULL::real AS similarity FROM unnest(${ints(heldIds(held, 'structures'))}) AS u(str_id)) ss`;
    case 'developmentcompoundstab':
      return sql`(SELECT ${setId} AS set_id, u.clinical_compound_id, NULL::real AS similarity
        FROM unnest(${ints(heldIds(held, 'clinical'))}) AS u(clinical_compound_id)) scc`;
    case 'activitiestab':
      return sql`(SELECT ${setId} AS set_id, a0.act_id, a0.str_id, a0.gvk_id, a0.assay_id, a0.ref_id, a0.target_id, NULL::real AS similarity
        FROM unnest(${ints(heldIds(held, 'activities'))}) AS u(act_id) JOIN activities a0 ON a0.act_id = u.act_id) sa`;
    case 'assaytab': {
      const [ids, counts] = heldIdsWithActivityCounts(held, 'assays');
      return sql`(SELECT ${setId} AS set_id, u.assay_id, u.activities, NULL::real AS similarity
        FROM unnest(${ints(ids)}, ${ints(counts)}) AS u(assay_id, activities)) sy`;
    }
    case 'documentstab': {
      const [ids, counts] = heldIdsWithActivityCounts(held, 'references');
      return sql`(SELECT ${setId} AS set_id, u.ref_id, u.activities, NULL::real AS similarity
        FROM unnest(${ints(ids)}, ${ints(counts)}) AS u(ref_id, activities)) sr`;
    }
  }
}
