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
  indexOfSorted,
  scoreOrder,
  scoreOrderWithin,
  scoredPageIds,
} from '../search/session-sets.ts';
import type { HeldKind, HeldSets } from '../search/session-sets.ts';
import { fitsIdArray } from '../../db/id-arrays.ts';
import type { DatabaseKind } from '../../db/database.ts';
import { int4ArrayParam } from '../../db/array-param.ts';
import { TAB_MODELS } from './tab-model.ts';
import type { SetSource, SetTable } from './set-source.ts';
import type { Sql } from './tab-model.ts';
import type { FilterInput } from './memory-filters.ts';
import type { SessionRows } from './row-values.ts';

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

/**
 * What an unfiltered page of a tab reads of held sets (search-service.ts `heldSets`' need): its
 * own set and the activities (a structure's, an assay's or a reference's activities in the search
 * are counted from them).
 */
export function heldNeedOf(tab: ResultTabKey): HeldKind[] {
  return tab === 'activitiestab' ? ['activities'] : ['activities', KIND_OF_TAB[tab]];
}

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
 * What the filters evaluated in memory read (memory-filters.ts) from held sets: the session's
 * activity rows, and each tab's row ids (made once per input).
 */
export function heldFilterInput(held: HeldSets, rows: SessionRows): FilterInput {
  const made = new Map<ResultTabKey, Int32Array>();
  return {
    rows,
    tabIds: (tab) => {
      let ids = made.get(tab);
      if (!ids) made.set(tab, (ids = heldIds(held, KIND_OF_TAB[tab])));
      return ids;
    },
  };
}

/** The rows whose `column` value (an activity's or a structure's id) is one of `ids` (ascending). */
export function heldRowsWithin(rows: SessionRows, column: Int32Array, ids: Int32Array): SessionRows {
  const inIds = membership(ids);
  const keep = new Int32Array(rows.count);
  let n = 0;
  for (let k = 0; k < rows.count; k++) if (inIds(column[k]!)) keep[n++] = k;
  const pick = (values: Int32Array) => {
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) out[i] = values[keep[i]!]!;
    return out;
  };
  return {
    count: n,
    act: rows.act && pick(rows.act),
    str: rows.str && pick(rows.str),
    assay: pick(rows.assay),
    ref: pick(rows.ref),
    target: pick(rows.target),
  };
}

/** A test of membership in ascending `ids`: a byte per id (id-arrays.ts), else (a stray large id) a binary search. */
function membership(ids: Int32Array): (id: number) => boolean {
  const max = ids.length ? ids[ids.length - 1]! : 0;
  if (!fitsIdArray(max, 1)) return (id) => indexOfSorted(ids, id) >= 0;
  const flags = new Uint8Array(max + 1);
  for (let i = 0; i < ids.length; i++) flags[ids[i]!] = 1;
  return (id) => flags[id] === 1;
}

/** Some rows of a held tab, ascending (a filtered tab's: `heldFilteredIds`), with what names them in the kept orders. */
export interface HeldSubset {
  key: string;
  ids: Int32Array;
}

/**
 * The rows of a held tab that passed its filters, ascending: `stored` is the tab's result_filtered
 * row, the ids that passed or (`complement`) those that did not.
 */
export function heldFilteredIds(held: HeldSets, tab: ResultTabKey, stored: { ids: readonly number[]; complement: boolean }): Int32Array {
  const listed = membership(Int32Array.from(stored.ids).sort());
  return heldIds(held, KIND_OF_TAB[tab]).filter((id) => listed(id) !== stored.complement);
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
  /** Only these rows (a filtered tab's), or all. */
  subset: HeldSubset | null = null,
): Promise<number[]> {
  const { pageNumber, pageSize } = page;
  const kind = KIND_OF_TAB[tab];
  const within = subset ? ` ${subset.key}` : '';
  if (byScore) {
    const whole = keeper.keep(`score order ${kind}`, () => scoreOrder(held, kind));
    const ordered = subset ? keeper.keep(`score order ${kind}${within}`, () => scoreOrderWithin(whole, subset.ids)) : whole;
    return scoredPageIds(ordered, pageNumber, pageSize, order.direction);
  }
  if (order.column === TAB_MODELS[tab].defaultSort)
    return subset
      ? pageOfSorted(subset.ids, pageNumber, pageSize, order.direction)
      : heldPageIds(held, kind, pageNumber, pageSize, order.direction);
  const key = `column order ${kind} ${order.column} ${order.direction}${within}`;
  const ids = await keeper.keepAsync(key, () => ({ value: sortAll(), bytes: (subset?.ids.length ?? heldRowCount(held, kind)) * 8 }));
  return Array.from(ids.subarray(pageNumber * pageSize, (pageNumber + 1) * pageSize));
}

/** One page of ascending ids, read either way. */
function pageOfSorted(ids: Int32Array, pageNumber: number, pageSize: number, direction: 'asc' | 'desc'): number[] {
  const from = pageNumber * pageSize;
  const to = Math.min(ids.length, from + pageSize);
  const page: number[] = [];
  for (let i = from; i < to; i++) page.push(direction === 'asc' ? ids[i]! : ids[ids.length - 1 - i]!);
  return page;
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

const KIND_OF_TABLE: Record<SetTable, HeldKind> = {
  search_structures: 'structures',
  search_activities: 'activities',
  search_assays: 'assays',
  search_references: 'references',
  search_clinical_compounds: 'clinical',
};

/**
 * The session's sets held in memory as the set tables' stand-ins (set-source.ts), for SQL over whole
 * sets — a sort by a column, a filter, a chart counted in SQL: each set sent as one int4[] (binary
 * to a PostgreSQL server), an activity's links read from the activities table by its key (the
 * values the set table copies from it), an assay's and a reference's number of the set's
 * activities counted in memory, a similarity search's scores from memory. `only` narrows one set
 * to some of its rows (a filtered tab's, ascending). Each relation is built once per source.
 */
export function heldSetSource(held: HeldSets, kind: DatabaseKind, only?: { table: SetTable; ids: Int32Array }): SetSource {
  const made = new Map<SetTable, Sql>();
  const body = (table: SetTable): Sql => {
    let relation = made.get(table);
    if (!relation) made.set(table, (relation = heldRelationBody(held, table, kind, only?.table === table ? only.ids : null)));
    return relation;
  };
  return { setId: held.setId, inMemory: true, table: (table, alias) => sql`(${body(table)}) ${sql.raw(alias)}` };
}

function heldRelationBody(held: HeldSets, table: SetTable, kind: DatabaseKind, only: Int32Array | null): Sql {
  const setKind = KIND_OF_TABLE[table];
  const setId = sql`${held.setId}::bigint`;
  const ints = (values: Int32Array) => sql`${int4ArrayParam(values, kind)}::int[]`;
  // `unnest(ids[, counts][, scores]) AS u(key[, activities][, similarity])`, and the similarity column.
  const rows = (key: string, ids: Int32Array, counts: Int32Array | null) => {
    const lists = [ints(ids), ...(counts ? [ints(counts)] : [])];
    const names = [key, ...(counts ? ['activities'] : [])];
    if (held.scores) {
      lists.push(sql`${heldScores(held, setKind, Array.from(ids))}::real[]`);
      names.push('similarity');
    }
    const similarity = held.scores ? sql`u.similarity` : sql`NULL::real`;
    return { from: sql`unnest(${sql.join(lists)}) AS u(${sql.raw(names.join(', '))})`, similarity };
  };
  switch (table) {
    case 'search_structures': {
      const u = rows('str_id', only ?? heldIds(held, 'structures'), null);
      return sql`SELECT ${setId} AS set_id, u.str_id, ${u.similarity} AS similarity FROM ${u.from}`;
    }
    case 'search_clinical_compounds': {
      const u = rows('clinical_compound_id', only ?? heldIds(held, 'clinical'), null);
      return sql`SELECT ${setId} AS set_id, u.clinical_compound_id, ${u.similarity} AS similarity FROM ${u.from}`;
    }
    case 'search_activities': {
      const u = rows('act_id', only ?? heldIds(held, 'activities'), null);
      return sql`SELECT ${setId} AS set_id, a0.act_id, a0.str_id, a0.gvk_id, a0.assay_id, a0.ref_id, a0.target_id, ${u.similarity} AS similarity
        FROM ${u.from} JOIN activities a0 ON a0.act_id = u.act_id`;
    }
    case 'search_assays':
    case 'search_references': {
      const [ids, counts] = narrowed(heldIdsWithActivityCounts(held, setKind as 'assays' | 'references'), only);
      const key = table === 'search_assays' ? 'assay_id' : 'ref_id';
      const u = rows(key, ids, counts);
      return sql`SELECT ${setId} AS set_id, u.${sql.raw(key)}, u.activities, ${u.similarity} AS similarity FROM ${u.from}`;
    }
  }
}

/** Ids with their counts, kept to those in `only` (ascending, as the ids are). */
function narrowed([ids, counts]: [Int32Array, Int32Array], only: Int32Array | null): [Int32Array, Int32Array] {
  if (!only) return [ids, counts];
  const at: number[] = [];
  for (let k = 0, j = 0; k < ids.length && j < only.length; ) {
    if (ids[k]! < only[j]!) k++;
    else if (ids[k]! > only[j]!) j++;
    else {
      at.push(k);
      k++;
      j++;
    }
  }
  return [Int32Array.from(at, (k) => ids[k]!), Int32Array.from(at, (k) => counts[k]!)];
}
