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

/**
 * Rows per INSERT: bounded parameters whatever the set (a NOT search may hold every structure).
 * Each statement's columns are built and sent to the socket in one go on the main thread, so this
 * also bounds how long other calls wait: 250,000 rows (12 MB on the wire) made stretches of
 * 50–100 ms in which a login or health check could not run (issue 39, sixth step).
 */
const ROWS_PER_INSERT = 50_000;

/** One column to insert: its values, and whether 0 stands for NULL (a missing link). */
interface Column {
  name: string;
  values: Int32Array;
  zeroIsNull?: boolean;
}

/** Inserts the rows of equally long `columns` into a set table, ROWS_PER_INSERT at a time. */
async function insertColumns(trx: Db, kind: DatabaseKind, table: string, setId: number, columns: readonly Column[]): Promise<void> {
  const length = columns[0]?.values.length ?? 0;
  const names = columns.map((column) => sql.ref(column.name));
  const aliases = columns.map((_, i) => sql.ref(`c${i}`));
  const values = columns.map((column, i) => (column.zeroIsNull ? sql`nullif(${aliases[i]}, 0)` : aliases[i]!));
  for (let from = 0; from < length; from += ROWS_PER_INSERT) {
    const arrays = columns.map((column) => sql`${int4ArrayParam(column.values.subarray(from, from + ROWS_PER_INSERT), kind)}::int[]`);
    await sql`INSERT INTO ${sql.table(table)} (set_id, ${sql.join(names)})
      SELECT ${setId}::bigint, ${sql.join(values)} FROM unnest(${sql.join(arrays)}) AS t(${sql.join(aliases)})`.execute(trx);
  }
}

/** The ids of `bitmap` with how many of the search's activities link to each (0 for none). */
export function withActivityCounts(bitmap: RoaringBitmap32, link: Int32Array, activities: Uint32Array): [Int32Array, Int32Array] {
  const ids = Int32Array.from(bitmap.toUint32Array());
  // A counter per id up to the highest one written (an Int32Array, not a Map of a million entries).
  const counts = new Int32Array(ids.length ? ids[ids.length - 1]! + 1 : 0);
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
function linkOver(positions: Uint32Array): (link: Int32Array) => Int32Array {
  return (link) => Int32Array.from(positions, (position) => link[position]!);
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

/** Fills the sets of `setId` (inside the caller's transaction) from a bitmap search; answers its counts and the activity rows written. */
export async function writeSetsFromBitmaps(
  trx: Db,
  setId: number,
  columns: KbColumns,
  sets: BitmapSearchResult,
  kind: DatabaseKind,
): Promise<{ counts: SearchCounts; rows: WrittenActivityRows }> {
  const activities = sets.activities.toUint32Array();
  const overActivities = linkOver(activities);
  const rows = activityRowsOver(columns, activities);
  const link = (name: string, values: Int32Array): Column => ({ name, values, zeroIsNull: true });
  await insertColumns(trx, kind, 'search_activities', setId, [
    { name: 'act_id', values: rows.act },
    link('str_id', rows.str),
    link('gvk_id', overActivities(columns.actGvk)),
    link('assay_id', rows.assay),
    link('ref_id', rows.ref),
    link('target_id', rows.target),
  ]);
  const ids = (bitmap: RoaringBitmap32) => Int32Array.from(bitmap.toUint32Array());
  await insertColumns(trx, kind, 'search_structures', setId, [{ name: 'str_id', values: ids(sets.structures) }]);
  await insertColumns(trx, kind, 'search_compounds', setId, [{ name: 'gvk_id', values: ids(sets.compounds) }]);
  await insertColumns(trx, kind, 'search_clinical_compounds', setId, [{ name: 'clinical_compound_id', values: ids(sets.clinical) }]);
  // Assays and references keep how many of the search's activities they hold (results columns); a
  // reference reached only through a compound record holds none.
  const [assays, assayCounts] = withActivityCounts(sets.assays, columns.actAssay, activities);
  await insertColumns(trx, kind, 'search_assays', setId, [
    { name: 'assay_id', values: assays },
    { name: 'activities', values: assayCounts },
  ]);
  const [references, referenceCounts] = withActivityCounts(sets.references, columns.actRef, activities);
  await insertColumns(trx, kind, 'search_references', setId, [
    { name: 'ref_id', values: references },
    { name: 'activities', values: referenceCounts },
  ]);
  return { counts: sets.counts, rows };
}
