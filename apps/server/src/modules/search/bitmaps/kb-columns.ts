import path from 'node:path';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { RoaringBitmap32 } from './roaring.ts';
import type { Database } from '../../../db/schema.ts';
import { Vocabulary, maxId, readColumns, readDenseColumns } from '../../../db/column-read.ts';
import type { ColumnArray, ColumnSpec } from '../../../db/column-read.ts';
import type { ActivityFields } from './activity-fields.ts';
import { activityFieldColumns } from './activity-fields.ts';
import type { ReverseIndex } from './reverse-index.ts';
import { reverseIndex } from './reverse-index.ts';
import { StructurePropertyColumns } from './structure-properties.ts';
import { readSnapshot, snapshotKey, writeSnapshot } from './column-snapshot.ts';
import type { SnapshotContent } from './column-snapshot.ts';

/**
 * The knowledge base's id links held in memory for bitmap counting (issue 18): for every activity
 * its structure, compound record, assay and reference; for every compound record its structure
 * and reference; for every development compound its structure; for every assay its type; and the reverse lists structure →
 * activities and structure → compound records. Arrays are indexed by id (ids are positive
 * integers, 0 stands for NULL), so a lookup is one array read. PostgreSQL stays the store of
 * record: this is rebuilt from it after every load (see `loadsVersion`).
 *
 * Memory at L (26.6 M activities, 2.5 M structures): five Int32Arrays over the activity ids
 * (≈ 530 MB), five reverse lists (≈ 560 MB), and the activity fields (≈ 1,010 MB with pChEMBL, activity-fields.ts).
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
  /** Every assay's assay_type, coded by `assayTypes` (by assay_id; 0: NULL or no such assay). */
  assayType: Uint16Array;
  assayTypes: Vocabulary;
  /** Structure → its activities, → its compound records, and → its development compounds. */
  byStructure: ReverseIndex;
  compoundsByStructure: ReverseIndex;
  clinicalByStructure: ReverseIndex;
  /** The structures that have a development compound (a search's are found by one AND with it). */
  clinicalStructures: RoaringBitmap32;
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

/** The structure properties' snapshot file, beside the columns' (same key, plus this name). */
const PROPERTY_SNAPSHOT = 'structure-properties.bin';

const ints = (...columns: string[]): ColumnSpec[] => columns.map((column) => ({ kind: 'int', expr: sql.ref(column) }));

/** The columns as read (from the database or a snapshot), before the reverse lists are built. */
interface ColumnsRead {
  actIds: Int32Array;
  /** The five links, then the activity fields, in the order of `activitySpecs`. */
  activityColumns: ColumnArray[];
  gvkStr: Int32Array;
  gvkRef: Int32Array;
  clinicalStr: Int32Array;
  assayType: Uint16Array;
  allClinical: RoaringBitmap32;
  allStructures: RoaringBitmap32;
}

const activitySpecs = (fields: ReturnType<typeof activityFieldColumns>) => [
  ...ints('str_id', 'gvk_id', 'assay_id', 'ref_id', 'target_id'),
  ...fields.specs,
];

/** What is read per assay: its type (assay rows on types alone are evaluated in memory). */
const assaySpecs = (): ColumnSpec[] => [{ kind: 'string', expr: sql.ref('assay_type'), vocabulary: new Vocabulary() }];

/** The columns read: per activity, then per assay. */
interface Specs {
  activity: ColumnSpec[];
  assay: ColumnSpec[];
}

/** The string columns' vocabularies, in spec order (a snapshot restores them in the same order). */
const vocabulariesOf = (specs: readonly ColumnSpec[]) => specs.flatMap((spec) => (spec.kind === 'string' ? [spec.vocabulary] : []));

async function readFromDatabase(db: Db, specs: Specs, max: MaxIds): Promise<ColumnsRead> {
  const activities = await readDenseColumns(db, 'activities', 'act_id', specs.activity, max.act);
  const [assayType] = (await readColumns(db, 'assays', 'assay_id', specs.assay, max.assay)) as Uint16Array[];
  const [gvkStr, gvkRef] = (await readColumns(db, 'compounds', 'gvk_id', ints('str_id', 'ref_id'), max.gvk)) as Int32Array[];
  const allClinical = new RoaringBitmap32();
  const [clinicalStr] = (await readColumns(db, 'clinical_compounds', 'clinical_compound_id', ints('str_id'), max.clinical, (ids) =>
    allClinical.addMany(ids),
  )) as Int32Array[];
  const allStructures = new RoaringBitmap32();
  await readColumns(db, 'structures', 'str_id', [], max.str, (ids) => allStructures.addMany(ids));
  return {
    actIds: activities.ids,
    activityColumns: activities.columns,
    gvkStr: gvkStr!,
    gvkRef: gvkRef!,
    clinicalStr: clinicalStr!,
    assayType: assayType!,
    allClinical,
    allStructures,
  };
}

const allSpecs = (specs: Specs) => [...specs.activity, ...specs.assay];

const toSnapshot = (read: ColumnsRead, specs: Specs): SnapshotContent => ({
  arrays: [read.actIds, ...read.activityColumns, read.gvkStr, read.gvkRef, read.clinicalStr, read.assayType],
  vocabularies: vocabulariesOf(allSpecs(specs)).map((vocabulary) => vocabulary.names),
  bitmaps: [read.allClinical, read.allStructures],
});

const KIND_OF_SPEC = { int: Int32Array, float: Float64Array, string: Uint16Array } as const;

/**
 * The columns a snapshot holds, checked against what a read now would give (how many arrays, of
 * which kind and length): a snapshot that does not fit is refused, never read into the wrong fields.
 */
function fromSnapshot(content: SnapshotContent, specs: Specs, max: MaxIds): ColumnsRead {
  const [actIds, ...rest] = content.arrays;
  const activity = specs.activity;
  const activityColumns = rest.splice(0, activity.length);
  const [gvkStr, gvkRef, clinicalStr, assayType] = rest;
  const vocabularies = vocabulariesOf(allSpecs(specs));
  const fits =
    actIds instanceof Int32Array &&
    activityColumns.length === activity.length &&
    activityColumns.every((column, i) => column instanceof KIND_OF_SPEC[activity[i]!.kind] && column.length === actIds.length) &&
    rest.length === 4 &&
    [gvkStr, gvkRef, clinicalStr].every((column) => column instanceof Int32Array) &&
    gvkStr!.length === max.gvk + 1 &&
    gvkRef!.length === max.gvk + 1 &&
    clinicalStr!.length === max.clinical + 1 &&
    assayType instanceof Uint16Array &&
    assayType.length === max.assay + 1 &&
    content.vocabularies.length === vocabularies.length &&
    content.bitmaps.length === 2;
  if (!fits) throw new Error('The search column snapshot does not fit the columns read now; reading the database.');
  // Codes are given in order of first appearance: coding the names again in order restores them.
  vocabularies.forEach((vocabulary, i) => content.vocabularies[i]!.slice(1).forEach((name) => vocabulary.code(name!)));
  return {
    actIds,
    activityColumns,
    gvkStr: gvkStr as Int32Array,
    gvkRef: gvkRef as Int32Array,
    clinicalStr: clinicalStr as Int32Array,
    assayType: assayType as Uint16Array,
    allClinical: content.bitmaps[0]!,
    allStructures: content.bitmaps[1]!,
  };
}

interface MaxIds {
  act: number;
  gvk: number;
  str: number;
  clinical: number;
  assay: number;
}

/**
 * What the columns are read from and how: a snapshot is used only when all of it is as it was —
 * the load version and highest ids, the database (name, port, latest migration) and the columns'
 * own definitions (a changed expression or coding makes older snapshots unusable).
 */
async function sourceKey(db: Db, version: string, max: MaxIds, specs: Specs): Promise<string> {
  const { rows } = await sql<{
    name: string;
    port: number | null;
    migration: string | null;
  }>`SELECT current_database() AS name, inet_server_port() AS port,
      (SELECT max(name) FROM kysely_migration) AS migration`.execute(db);
  const row = rows[0];
  const definitions = [
    ...specs.activity.map((spec) => `activity ${spec.kind}:${spec.expr.compile(db).sql}`),
    ...specs.assay.map((spec) => `assay ${spec.kind}:${spec.expr.compile(db).sql}`),
  ];
  return snapshotKey([
    version,
    row?.name ?? '',
    row?.port ?? 0,
    row?.migration ?? '',
    max.act,
    max.gvk,
    max.str,
    max.clinical,
    max.assay,
    ...definitions,
  ]);
}

export interface LoadedColumns {
  columns: KbColumns;
  /** Where they came from: the database, or the snapshot file of an earlier read. */
  source: 'database' | 'snapshot';
}

/**
 * Reads the columns (seconds at M; 34 s at L from the database). With a snapshot file, from it when
 * it holds this very version of this database, else from the database and then written to it (in
 * the background: a failed write only costs the next start its speed). Never a snapshot while a
 * load runs: its rows are still arriving.
 */
export interface LoadOptions {
  /** The local snapshot file (column-snapshot.ts); none when null. */
  snapshotFile?: string | null;
  /** What went wrong on the side (a snapshot not used or not written, property columns not read); the columns are still answered. */
  onError?: (message: string, error: unknown) => void;
}

export async function loadKbColumns(db: Db, version: string, options: LoadOptions = {}): Promise<LoadedColumns> {
  const snapshotFile = options.snapshotFile ?? null;
  const onSnapshotError = (error: unknown) =>
    options.onError?.('The search column snapshot was not used or not written; the columns come from the database', error);
  const [act, gvk, str, clinical, assay] = await Promise.all([
    maxId(db, 'activities', 'act_id'),
    maxId(db, 'compounds', 'gvk_id'),
    maxId(db, 'structures', 'str_id'),
    maxId(db, 'clinical_compounds', 'clinical_compound_id'),
    maxId(db, 'assays', 'assay_id'),
  ]);
  const max = { act, gvk, str, clinical, assay };
  const fieldColumns = activityFieldColumns();
  const specs: Specs = { activity: activitySpecs(fieldColumns), assay: assaySpecs() };
  const key = snapshotFile && !version.includes(':loading:') ? await sourceKey(db, version, max, specs) : null;
  const stored = key
    ? await readSnapshot(snapshotFile!, key)
        .then((content) => content && fromSnapshot(content, specs, max))
        .catch((error: unknown) => (onSnapshotError(error), null))
    : null;
  const read = stored ?? (await readFromDatabase(db, specs, max));
  if (key && !stored) writeSnapshot(snapshotFile!, key, toSnapshot(read, specs)).catch(onSnapshotError);
  const propertySnapshot = key
    ? {
        file: path.join(path.dirname(snapshotFile!), PROPERTY_SNAPSHOT),
        key: snapshotKey([key, PROPERTY_SNAPSHOT]),
        onError: (error: unknown) =>
          options.onError?.('The structure property snapshot was not used or not written; the properties come from the database', error),
      }
    : null;
  const properties = new StructurePropertyColumns(
    db,
    max.str,
    (error) => options.onError?.('Reading the structure property columns failed; property rows are counted in SQL', error),
    propertySnapshot,
  );
  return { columns: assemble(version, read, specs, max.str, fieldColumns, properties), source: stored ? 'snapshot' : 'database' };
}

function assemble(
  version: string,
  read: ColumnsRead,
  specs: Specs,
  maxStr: number,
  fieldColumns: ReturnType<typeof activityFieldColumns>,
  properties: StructurePropertyColumns,
): KbColumns {
  const [actStr, actGvk, actAssay, actRef, actTarget, ...fieldArrays] = read.activityColumns as [
    Int32Array,
    Int32Array,
    Int32Array,
    Int32Array,
    Int32Array,
    ...ColumnArray[],
  ];
  const allActivities = new RoaringBitmap32();
  if (read.actIds.length) allActivities.addRange(0, read.actIds.length);
  return {
    version,
    actIds: read.actIds,
    actStr,
    actGvk,
    actAssay,
    actRef,
    actTarget,
    gvkStr: read.gvkStr,
    gvkRef: read.gvkRef,
    clinicalStr: read.clinicalStr,
    assayType: read.assayType,
    assayTypes: vocabulariesOf(specs.assay)[0]!,
    byStructure: reverseIndex(actStr, maxStr),
    compoundsByStructure: reverseIndex(read.gvkStr, maxStr),
    clinicalByStructure: reverseIndex(read.clinicalStr),
    clinicalStructures: new RoaringBitmap32(read.clinicalStr.filter((str) => str > 0)),
    byTarget: reverseIndex(actTarget),
    byRef: reverseIndex(actRef),
    byAssay: reverseIndex(actAssay),
    allActivities,
    allStructures: read.allStructures,
    allClinical: read.allClinical,
    fields: fieldColumns.assemble(fieldArrays),
    properties,
  };
}
