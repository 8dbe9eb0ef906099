import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { SearchCounts } from '@kb/contracts/search';
import type { Database } from '../../../db/schema.ts';
import type { DatabaseKind } from '../../../db/database.ts';
import { int4ArrayParam } from '../../../db/array-param.ts';
import type { RoaringBitmap32 } from './roaring.ts';
import type { BitmapSearchResult } from './bitmap-counts.ts';
import type { KbColumns } from './kb-columns.ts';

/**
 * Writes a search's six sets from the bitmaps that counted it (issue 18), instead of running its
 * SQL a second time: the rows the SQL path (`materialiseSets`) would write, with the same columns
 * — an activity's structure, compound record, assay, reference and target, and each assay's and
 * reference's number of the search's activities — taken from the id links in memory. The database
 * only inserts: at L a 728,366-activity search spent 8.2 s in the SQL path, most of it finding the
 * rows again.
 */

type Db = Kysely<Database>;

/** Rows per INSERT: bounded parameters whatever the set (a NOT search may hold every structure). */
const ROWS_PER_INSERT = 250_000;

/** `values` in slices of at most ROWS_PER_INSERT. */
function* slices(length: number): Generator<[number, number]> {
  for (let from = 0; from < length; from += ROWS_PER_INSERT) yield [from, Math.min(length, from + ROWS_PER_INSERT)];
}

/** The ids of `bitmap` with how many of the search's activities link to each (0 for none). */
function withActivityCounts(bitmap: RoaringBitmap32, link: Int32Array, activities: Uint32Array): [Int32Array, Int32Array] {
  const counts = new Map<number, number>();
  for (const position of activities) {
    const id = link[position]!;
    if (id > 0) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  const ids = Int32Array.from(bitmap.toUint32Array());
  return [ids, ids.map((id) => counts.get(id) ?? 0)];
}

/** Fills the sets of `setId` (inside the caller's transaction) from a bitmap search; answers its counts. */
export async function writeSetsFromBitmaps(trx: Db, setId: number, columns: KbColumns, sets: BitmapSearchResult, kind: DatabaseKind): Promise<SearchCounts> {
  const ints = (values: Int32Array) => sql`${int4ArrayParam(values, kind)}::int[]`;
  const activities = sets.activities.toUint32Array();
  // Each link column over the search's activities, by position; 0 (no link) is written as NULL.
  const linked = (link: Int32Array) => Int32Array.from(activities, (position) => link[position]!);
  const activityColumns = [columns.actIds, columns.actStr, columns.actGvk, columns.actAssay, columns.actRef, columns.actTarget].map(linked);
  for (const [from, to] of slices(activities.length)) {
    const [act, str, gvk, assay, ref, target] = activityColumns.map((column) => ints(column.subarray(from, to)));
    await sql`INSERT INTO search_activities (set_id, act_id, str_id, gvk_id, assay_id, ref_id, target_id)
      SELECT ${setId}::bigint, act, nullif(str, 0), nullif(gvk, 0), nullif(assay, 0), nullif(ref, 0), nullif(target, 0)
      FROM unnest(${act}, ${str}, ${gvk}, ${assay}, ${ref}, ${target}) AS t(act, str, gvk, assay, ref, target)`.execute(trx);
  }
  const idSets = [
    ['search_structures', 'str_id', sets.structures],
    ['search_compounds', 'gvk_id', sets.compounds],
    ['search_clinical_compounds', 'clinical_compound_id', sets.clinical],
  ] as const;
  for (const [table, column, bitmap] of idSets) {
    const ids = Int32Array.from(bitmap.toUint32Array());
    for (const [from, to] of slices(ids.length)) {
      await sql`INSERT INTO ${sql.table(table)} (set_id, ${sql.ref(column)}) SELECT ${setId}::bigint, unnest(${ints(ids.subarray(from, to))})`.execute(trx);
    }
  }
  // Assays and references keep how many of the search's activities they hold (results columns); a
  // reference reached only through a compound record holds none.
  const counted = [
    ['search_assays', 'assay_id', withActivityCounts(sets.assays, columns.actAssay, activities)],
    ['search_references', 'ref_id', withActivityCounts(sets.references, columns.actRef, activities)],
  ] as const;
  for (const [table, column, [ids, counts]] of counted) {
    for (const [from, to] of slices(ids.length)) {
      await sql`INSERT INTO ${sql.table(table)} (set_id, ${sql.ref(column)}, activities)
        SELECT ${setId}::bigint, id, n FROM unnest(${ints(ids.subarray(from, to))}, ${ints(counts.subarray(from, to))}) AS t(id, n)`.execute(trx);
    }
  }
  return sets.counts;
}
