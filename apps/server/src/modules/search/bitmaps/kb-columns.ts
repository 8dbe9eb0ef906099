import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { RoaringBitmap32 } from './roaring.ts';
import type { Database } from '../../../db/schema.ts';

/**
 * The knowledge base's id links held in memory for bitmap counting (issue 18): for every activity
 * its structure, compound record, assay and reference; for every compound record its structure
 * and reference; for every development compound its structure; and the reverse lists structure →
 * activities and structure → compound records. Arrays are indexed by id (ids are positive
 * integers, 0 stands for NULL), so a lookup is one array read. PostgreSQL stays the store of
 * record: this is rebuilt from it after every load (see `loadsVersion`).
 *
 * Memory at L (26.6 M activities, 2.5 M structures): five Int32Arrays over the activity ids
 * (≈ 530 MB) and five reverse lists (≈ 560 MB).
 */
export interface KbColumns {
  /** The kb_loads version the columns were read at. */
  version: string;
  actStr: Int32Array;
  actGvk: Int32Array;
  actAssay: Int32Array;
  actRef: Int32Array;
  actTarget: Int32Array;
  gvkStr: Int32Array;
  gvkRef: Int32Array;
  clinicalStr: Int32Array;
  /** Structure → its activities, and → its compound records. */
  byStructure: ReverseIndex;
  compoundsByStructure: ReverseIndex;
  /** Target, document and assay → their activities (rows of the form `a.<column> IN (ids)`). */
  byTarget: ReverseIndex;
  byRef: ReverseIndex;
  byAssay: ReverseIndex;
  allActivities: RoaringBitmap32;
  allStructures: RoaringBitmap32;
  allClinical: RoaringBitmap32;
}

/** Rows read per query while loading: bounded memory per round trip, whatever the table's size. */
const CHUNK_IDS = 500_000;

type Db = Kysely<Database>;

async function maxId(db: Db, table: 'activities' | 'compounds' | 'structures' | 'clinical_compounds', column: string): Promise<number> {
  const { rows } = await sql<{ max: number }>`SELECT coalesce(max(${sql.ref(column)}), 0)::int AS max FROM ${sql.table(table)}`.execute(db);
  return rows[0]?.max ?? 0;
}

/**
 * Reads `columns` of `table` by id range into arrays indexed by id. Each range comes back as one
 * row of int4 arrays (one array per column), which both drivers turn into numbers without making
 * an object per table row.
 */
async function readColumns(db: Db, table: 'activities' | 'compounds' | 'clinical_compounds', id: string, columns: readonly string[], size: number, onIds?: (ids: number[]) => void): Promise<Int32Array[]> {
  const arrays = columns.map(() => new Int32Array(size + 1));
  for (let from = 0; from < size; from += CHUNK_IDS) {
    const aggregates = [sql`array_agg(${sql.ref(id)}::int ORDER BY ${sql.ref(id)}) AS ids`, ...columns.map((column, i) => sql`array_agg(coalesce(${sql.ref(column)}, 0)::int ORDER BY ${sql.ref(id)}) AS ${sql.ref(`c${i}`)}`)];
    const { rows } = await sql<Record<string, number[] | null>>`SELECT ${sql.join(aggregates)} FROM ${sql.table(table)}
      WHERE ${sql.ref(id)} > ${from} AND ${sql.ref(id)} <= ${from + CHUNK_IDS}`.execute(db);
    const ids = rows[0]?.ids;
    if (!ids) continue;
    onIds?.(ids);
    columns.forEach((_, i) => {
      const values = rows[0]![`c${i}`]!;
      const target = arrays[i]!;
      for (let k = 0; k < ids.length; k++) target[ids[k]!] = values[k]!;
    });
  }
  return arrays;
}

/** Parent → children: the children of `p` are `ids[start[p] .. start[p + 1])`. */
export interface ReverseIndex {
  start: Int32Array;
  ids: Int32Array;
}

/** The children of `p` (none for an id beyond the index). */
export function childrenOf(index: ReverseIndex, p: number): Int32Array {
  return p + 1 < index.start.length ? index.ids.subarray(index.start[p]!, index.start[p + 1]!) : index.ids.subarray(0, 0);
}

/** The reverse of `forward` (child id → parent id, 0 = none); `parents` is the highest parent id. */
function reverseIndex(forward: Int32Array, parents: number = maxOf(forward)): ReverseIndex {
  const start = new Int32Array(parents + 2);
  for (let child = 1; child < forward.length; child++) {
    const parent = forward[child]!;
    if (parent > 0) start[parent + 1]!++;
  }
  for (let p = 1; p < start.length; p++) start[p]! += start[p - 1]!;
  const ids = new Int32Array(start[start.length - 1]!);
  const fill = start.slice(0, parents + 1);
  for (let child = 1; child < forward.length; child++) {
    const parent = forward[child]!;
    if (parent > 0) ids[fill[parent]!++] = child;
  }
  return { start, ids };
}

function maxOf(values: Int32Array): number {
  let max = 0;
  for (let i = 0; i < values.length; i++) if (values[i]! > max) max = values[i]!;
  return max;
}

/** Reads the columns from the database (seconds at M; the aim at L is under a minute). */
export async function loadKbColumns(db: Db, version: string): Promise<KbColumns> {
  const [maxAct, maxGvk, maxStr, maxClinical] = await Promise.all([
    maxId(db, 'activities', 'act_id'),
    maxId(db, 'compounds', 'gvk_id'),
    maxId(db, 'structures', 'str_id'),
    maxId(db, 'clinical_compounds', 'clinical_compound_id'),
  ]);
  const allActivities = new RoaringBitmap32();
  const [actStr, actGvk, actAssay, actRef, actTarget] = await readColumns(db, 'activities', 'act_id', ['str_id', 'gvk_id', 'assay_id', 'ref_id', 'target_id'], maxAct, (ids) => allActivities.addMany(ids));
  const [gvkStr, gvkRef] = await readColumns(db, 'compounds', 'gvk_id', ['str_id', 'ref_id'], maxGvk);
  const allClinical = new RoaringBitmap32();
  const [clinicalStr] = await readColumns(db, 'clinical_compounds', 'clinical_compound_id', ['str_id'], maxClinical, (ids) => allClinical.addMany(ids));
  const allStructures = new RoaringBitmap32();
  for (let from = 0; from < maxStr; from += CHUNK_IDS) {
    const { rows } = await sql<{ ids: number[] | null }>`SELECT array_agg(str_id::int) AS ids FROM structures WHERE str_id > ${from} AND str_id <= ${from + CHUNK_IDS}`.execute(db);
    if (rows[0]?.ids) allStructures.addMany(rows[0].ids);
  }
  return {
    version,
    actStr: actStr!,
    actGvk: actGvk!,
    actAssay: actAssay!,
    actRef: actRef!,
    actTarget: actTarget!,
    gvkStr: gvkStr!,
    gvkRef: gvkRef!,
    clinicalStr: clinicalStr!,
    byStructure: reverseIndex(actStr!, maxStr),
    compoundsByStructure: reverseIndex(gvkStr!, maxStr),
    byTarget: reverseIndex(actTarget!),
    byRef: reverseIndex(actRef!),
    byAssay: reverseIndex(actAssay!),
    allActivities,
    allStructures,
    allClinical,
  };
}
