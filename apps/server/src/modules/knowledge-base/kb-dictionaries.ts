import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { Vocabulary, maxId, readColumns } from '../../db/column-read.ts';
import { loadsState } from './kb-loads.ts';
import { withDbPriority } from '../../db/db-priority.ts';

/**
 * What the batched charts (chart-batch.ts) read of an activity's assay, reference and target,
 * held in memory by id (issue 18: a 750,000-activity session's charts were a join of the set with
 * the assays and documents tables, 1.4 s for the Activities tab and 4.1 s for the Structures tab at
 * L). A few bytes per assay and document: ≈ 12 MB at L. PostgreSQL stays the store of record: the
 * copy is read again after every load (`loadsState`); until it is, and while a load runs, charts
 * and filters are counted in SQL.
 */
export interface KbDictionaries {
  version: string;
  /** Assay id → code of its assay type / organism in the vocabulary (0: no assay, or NULL). */
  assayType: Uint16Array;
  assayTypes: Vocabulary;
  assayOrganism: Uint16Array;
  organisms: Vocabulary;
  /** Reference id → 0 when no such document, else its bibliography source: 1 J, 2 P, 3 O. */
  refSource: Uint8Array;
  /** Reference id → publication year (NaN: unknown). */
  refYear: Float64Array;
  /** Target id → 1 when the target exists (an activity's target_id has no foreign key). */
  targetExists: Uint8Array;
  /**
   * Each activity type as stored (the `activitytype` chart groups by it) under its lower-cased name
   * (the search columns hold lower(std_activity_type)); null when two spellings share one lower-cased
   * name, and that chart is counted in SQL.
   */
  activityTypes: ReadonlyMap<string, string> | null;
}

/** Bibliography sources as the chart names them (chart-dimensions.ts `bibliography`). */
export const SOURCE_CODES = ['J', 'P', 'O'] as const;

type Db = Kysely<Database>;

async function readKbDictionaries(db: Db, version: string): Promise<KbDictionaries> {
  // Activity and structure ids are only checked: session rows carry them (memory-filters.ts writes
  // activity ids back; the Structures tab's charts group by structure).
  const [maxAssay, maxRef, maxTarget] = await Promise.all([
    maxId(db, 'assays', 'assay_id'),
    maxId(db, 'documents', 'ref_id'),
    maxId(db, 'targets', 'target_id'),
    maxId(db, 'activities', 'act_id'),
    maxId(db, 'structures', 'str_id'),
  ]);
  const assayTypes = new Vocabulary();
  const organisms = new Vocabulary();
  const [assayType, assayOrganism] = (await readColumns(
    db,
    'assays',
    'assay_id',
    [
      { kind: 'string', expr: sql`assay_type`, vocabulary: assayTypes },
      { kind: 'string', expr: sql`organism`, vocabulary: organisms },
    ],
    maxAssay,
  )) as Uint16Array[];
  const refTypes = new Vocabulary();
  const [refType, refYear] = await readColumns(
    db,
    'documents',
    'ref_id',
    [
      { kind: 'string', expr: sql`ref_type`, vocabulary: refTypes },
      { kind: 'float', expr: sql`year` },
    ],
    maxRef,
  );
  // ref_type is NOT NULL: code 0 is "no document with this id". J / P / O as the SQL CASE of the
  // `bibliography` dimension (results/chart-dimensions.ts).
  const sourceOfCode = refTypes.names.map((name) => (name == null ? 0 : name === 'journal' ? 1 : name === 'patent' ? 2 : 3));
  const refSource = Uint8Array.from(refType as Uint16Array, (code) => sourceOfCode[code]!);
  const targetExists = new Uint8Array(maxTarget + 1);
  await readColumns(db, 'targets', 'target_id', [], maxTarget, (ids) => ids.forEach((id) => (targetExists[id] = 1)));
  return {
    version,
    activityTypes: await readActivityTypes(db),
    assayType: assayType!,
    assayTypes,
    assayOrganism: assayOrganism!,
    organisms,
    refSource,
    refYear: refYear as Float64Array,
    targetExists,
  };
}

/**
 * The distinct activity types, by a loose scan of activities_type_value_idx (one index probe per
 * type: a few hundred, not a pass over 26 M activities), under their lower-cased names.
 */
async function readActivityTypes(db: Db): Promise<Map<string, string> | null> {
  const { rows } = await sql<{ v: string }>`WITH RECURSIVE t(v) AS (
      (SELECT std_activity_type FROM activities WHERE std_activity_type IS NOT NULL ORDER BY std_activity_type LIMIT 1)
      UNION ALL
      SELECT (SELECT a.std_activity_type FROM activities a WHERE a.std_activity_type > t.v ORDER BY a.std_activity_type LIMIT 1)
      FROM t WHERE t.v IS NOT NULL)
    SELECT v FROM t WHERE v IS NOT NULL`.execute(db);
  const types = new Map<string, string>();
  for (const { v } of rows) {
    if (types.has(v.toLowerCase())) return null;
    types.set(v.toLowerCase(), v);
  }
  return types;
}

/**
 * The dictionaries as current as the knowledge base. `ifCurrent` never makes a chart wait for a
 * read (seconds at L): it answers null and starts the read, and the chart is counted in SQL. While
 * a load runs it answers null too: a load may change assays and documents in place (a release
 * update) without moving any id, so only its end makes the copy current again.
 */
export class KbDictionaryCache {
  private value: KbDictionaries | null = null;
  private reading: { version: string; value: Promise<KbDictionaries> } | null = null;
  /** A version whose read failed is not read again on every request (the next load retries). */
  private failedVersion: string | null = null;

  constructor(private readonly db: Db) {}

  async ifCurrent(): Promise<KbDictionaries | null> {
    const state = await loadsState(this.db);
    if (state.loading) return null;
    if (this.value?.version === state.version) return this.value;
    if (this.failedVersion !== state.version) this.read(state.version).catch(() => undefined);
    return null;
  }

  /** The dictionaries of the current version, waiting for the read (start-up, tests). */
  async current(): Promise<KbDictionaries> {
    const state = await loadsState(this.db);
    if (this.value?.version === state.version) return this.value;
    return this.read(state.version);
  }

  private read(version: string): Promise<KbDictionaries> {
    if (this.reading?.version === version) return this.reading.value;
    // A read of another version still running is let finish first (never two reads at once).
    const previous = this.reading?.value.catch(() => undefined) ?? Promise.resolve();
    const value = previous
      // Seconds of reading at L: it waits behind interactive calls on a busy embedded database.
      .then(() => withDbPriority('bulk', () => readKbDictionaries(this.db, version)))
      .then((read) => (this.value = read))
      .catch((error: unknown) => {
        this.failedVersion = version;
        throw error;
      })
      .finally(() => {
        if (this.reading?.value === value) this.reading = null;
      });
    this.reading = { version, value };
    return value;
  }
}
