import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { RoaringBitmap32 } from './roaring.ts';
import type { Database } from '../../../db/schema.ts';
import { maxId, readColumns, readDenseColumns } from '../../../db/column-read.ts';
import type { ColumnSpec } from '../../../db/column-read.ts';
import type { ActivityFields } from './activity-fields.ts';
import { activityFieldColumns } from './activity-fields.ts';
import type { ReverseIndex } from './reverse-index.ts';
import { reverseIndex } from './reverse-index.ts';
import { StructurePropertyColumns } from './structure-properties.ts';

/**
 * The knowledge base's id links held in memory for bitmap counting (issue 18): for every activity
 * its structure, compound record, assay and reference; for every compound record its structure
 * and reference; for every development compound its structure; and the reverse lists structure →
 * activities and structure → compound records. Arrays are indexed by id (ids are positive
 * integers, 0 stands for NULL), so a lookup is one array read. PostgreSQL stays the store of
 * record: this is rebuilt from it after every load (see `loadsVersion`).
 *
 * Memory at L (26.6 M activities, 2.5 M structures): five Int32Arrays over the activity ids
 * (≈ 530 MB), five reverse lists (≈ 560 MB), and the activity fields (≈ 800 MB, activity-fields.ts).
 */
export interface KbColumns {
  /** The kb_loads version the columns were read at. */
  version: string;
  /**
   * Activities are held by position (0, 1, … in ascending act_id; ids may be sparse): `actIds`
   * turns a position into its act_id, and every `act*` array, reverse list of activities and
   * activity bitmap speaks of positions.
   */
  actIds: Int32Array;
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
  /** The activities' own fields that search rows test (type, value, unit, mechanism, degrader). */
  fields: ActivityFields;
  /** Structure properties that property rows test, read after the rest (`properties.read()`). */
  properties: StructurePropertyColumns;
}

type Db = Kysely<Database>;


const ints = (...columns: string[]): ColumnSpec[] => columns.map((column) => ({ kind: 'int', expr: sql.ref(column) }));

/** Reads the columns from the database (seconds at M; the aim at L is under a minute). */
export async function loadKbColumns(db: Db, version: string): Promise<KbColumns> {
  const [maxAct, maxGvk, maxStr, maxClinical] = await Promise.all([
    maxId(db, 'activities', 'act_id'),
    maxId(db, 'compounds', 'gvk_id'),
    maxId(db, 'structures', 'str_id'),
    maxId(db, 'clinical_compounds', 'clinical_compound_id'),
  ]);
  const fieldColumns = activityFieldColumns();
  const activities = await readDenseColumns(db, 'activities', 'act_id', [...ints('str_id', 'gvk_id', 'assay_id', 'ref_id', 'target_id'), ...fieldColumns.specs], maxAct);
  const [actStr, actGvk, actAssay, actRef, actTarget, ...fieldArrays] = activities.columns;
  const allActivities = new RoaringBitmap32();
  if (activities.ids.length) allActivities.addRange(0, activities.ids.length);
  const [gvkStr, gvkRef] = (await readColumns(db, 'compounds', 'gvk_id', ints('str_id', 'ref_id'), maxGvk)) as Int32Array[];
  const allClinical = new RoaringBitmap32();
  const [clinicalStr] = (await readColumns(db, 'clinical_compounds', 'clinical_compound_id', ints('str_id'), maxClinical, (ids) => allClinical.addMany(ids))) as Int32Array[];
  const allStructures = new RoaringBitmap32();
  await readColumns(db, 'structures', 'str_id', [], maxStr, (ids) => allStructures.addMany(ids));
  return {
    version,
    actIds: activities.ids,
    actStr: actStr as Int32Array,
    actGvk: actGvk as Int32Array,
    actAssay: actAssay as Int32Array,
    actRef: actRef as Int32Array,
    actTarget: actTarget as Int32Array,
    gvkStr: gvkStr!,
    gvkRef: gvkRef!,
    clinicalStr: clinicalStr!,
    byStructure: reverseIndex(actStr as Int32Array, maxStr),
    compoundsByStructure: reverseIndex(gvkStr!, maxStr),
    byTarget: reverseIndex(actTarget as Int32Array),
    byRef: reverseIndex(actRef as Int32Array),
    byAssay: reverseIndex(actAssay as Int32Array),
    allActivities,
    allStructures,
    allClinical,
    fields: fieldColumns.assemble(fieldArrays),
    properties: new StructurePropertyColumns(db, maxStr),
  };
}
