import { sql } from 'kysely';
import type { Insertable } from 'kysely';
import { insertJsonBatched, upsertBatched } from '../bulk.ts';
import type { Database } from '../../../db/schema.ts';
import { add } from './step.ts';
import type { Change, Changes, Db, ReleaseState, StepReport } from './step.ts';

export type { Change, Changes, ReleaseState } from './step.ts';

/**
 * Release updates (docs/data-model.md "Loads and release updates"). Rows are keyed by their ChEMBL
 * key: a newer release updates a changed row in place (our ids stay, so saved searches and open
 * search sessions stay valid), adds new keys, and — after a complete run — retires the keys it no
 * longer has: the row moves to kb_retired_rows and leaves the live table, so no search sees it.
 */

/** The keyed entities, in retire order: users of a row are retired before the row. */
export const KEYED = {
  activities: { key: 'chembl_activity_id', id: 'act_id', step: 'activities', strip: [] as string[] },
  clinical_compounds: { key: 'chembl_molregno', id: 'clinical_compound_id', step: 'development compounds', strip: ['str_id', 'gvk_id'] },
  compounds: { key: 'chembl_molregno', id: 'gvk_id', step: 'molecules', strip: ['str_id'] },
  assays: { key: 'chembl_assay_id', id: 'assay_id', step: 'assays', strip: ['ref_id', 'target_id'] },
  targets: { key: 'chembl_tid', id: 'target_id', step: 'target_dictionary', strip: ['class_id'] },
  documents: { key: 'chembl_doc_id', id: 'ref_id', step: 'docs', strip: [] as string[] },
} as const;
export type KeyedTable = keyof typeof KEYED;
export const KEYED_TABLES = Object.keys(KEYED) as KeyedTable[];

/**
 * Live rows that still use a row keep it (foreign keys, and activities that point at it).
 *
 * The issue 17 mapping tables (migration 0024) that point at retirable rows:
 * - clinical_compound_targets.target_id (drug mechanisms) keeps its target live (guard below);
 * - assay_parameters (-> assays) and compound_atc (-> compounds) are details of their row, not
 *   rows a search finds on their own: they are deleted with it (ON DELETE CASCADE when the row
 *   moves to kb_retired_rows), not archived. A later release that has the assay or molecule
 *   again brings it back with its old id and its parameters / ATC rows are loaded again from
 *   that release (their steps run after the assay and molecule steps, keyed by ChEMBL id).
 * - assays.cell_line_id / tissue_id point at dictionaries that are never retired.
 */
const RETIRE_GUARDS: Record<KeyedTable, (alias: string) => ReturnType<typeof sql>> = {
  activities: () => sql`true`,
  clinical_compounds: () => sql`true`,
  compounds: (t) => sql`NOT EXISTS (SELECT 1 FROM clinical_compounds c WHERE c.gvk_id = ${sql.ref(`${t}.gvk_id`)})
    AND NOT EXISTS (SELECT 1 FROM activities a WHERE a.gvk_id = ${sql.ref(`${t}.gvk_id`)})`,
  assays: (t) => sql`NOT EXISTS (SELECT 1 FROM activities a WHERE a.assay_id = ${sql.ref(`${t}.assay_id`)})`,
  targets: (t) => sql`NOT EXISTS (SELECT 1 FROM assays a WHERE a.target_id = ${sql.ref(`${t}.target_id`)})
    AND NOT EXISTS (SELECT 1 FROM clinical_compound_targets c WHERE c.target_id = ${sql.ref(`${t}.target_id`)})
    AND NOT EXISTS (SELECT 1 FROM activities a WHERE a.target_id = ${sql.ref(`${t}.target_id`)})`,
  documents: (t) => sql`NOT EXISTS (SELECT 1 FROM assays a WHERE a.ref_id = ${sql.ref(`${t}.ref_id`)})
    AND NOT EXISTS (SELECT 1 FROM activities a WHERE a.ref_id = ${sql.ref(`${t}.ref_id`)})`,
};

export function change(changes: Changes, entity: string): Change {
  changes[entity] ??= { added: 0, updated: 0, retired: 0 };
  return changes[entity];
}

/**
 * A row retired earlier whose key this release has again comes back with its old id (saved
 * criteria and marks keep pointing at it). Columns that point at other retirable rows are left
 * NULL here: the upsert that follows sets them from the new release.
 */
async function restoreRetired(trx: Db, table: KeyedTable, keys: string[], loadId: number): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const { key, strip } = KEYED[table];
  const stamp = table === 'activities' ? sql`|| jsonb_build_object('load_id', ${loadId}::bigint)` : sql``;
  const result = await sql<{ k: string }>`WITH back AS (
      DELETE FROM kb_retired_rows WHERE table_name = ${table} AND source_key = ANY(${keys}::text[]) RETURNING row)
    INSERT INTO ${sql.table(table)}
    SELECT (jsonb_populate_record(NULL::${sql.table(table)}, (back.row - ${strip as unknown as string[]}::text[]) ${stamp})).* FROM back
    ON CONFLICT DO NOTHING
    RETURNING ${sql.ref(key)}::text AS k`.execute(trx);
  return new Set(result.rows.map((r) => r.k));
}

/** Keys of this batch that the release has: what retiring compares against after the run. */
async function recordSeen(trx: Db, job: string, table: KeyedTable, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await sql`INSERT INTO kb_import_seen (job, entity, key)
    SELECT ${job}, ${table}, k FROM unnest(${keys}::bigint[]) AS k ON CONFLICT DO NOTHING`.execute(trx);
}

/**
 * Writes a mapped batch of a keyed table: restores retired keys, inserts new keys, updates rows
 * whose values differ, records the keys seen, and counts added / updated per entity. `insertOnly`
 * columns (load_id: the load that first brought the row) are not changed by an update.
 */
export async function upsertKeyed<T extends KeyedTable>(
  trx: Db,
  release: ReleaseState,
  report: StepReport,
  table: T,
  rows: Insertable<Database[T]>[],
  insertOnly: string[] = [],
): Promise<void> {
  const { key } = KEYED[table];
  const keyOf = (row: object) => (row as Record<string, unknown>)[key];
  const keyed = rows.filter((r) => keyOf(r) !== null && keyOf(r) !== undefined);
  add(report.skipped, 'no ChEMBL key', rows.length - keyed.length);
  if (release.firstLoad) {
    await insertFirst(trx, release, report, table, keyed);
    return;
  }
  const keys = [...new Set(keyed.map((r) => String(keyOf(r))))];
  const restored = await restoreRetired(trx, table, keys, release.loadId);
  const written = await upsertBatched(trx, table, keyed, key, insertOnly);
  const counts = change(release.changes, table);
  let inserted = 0;
  let updated = 0;
  for (const row of written) {
    if (restored.has(row.k)) continue;
    if (row.inserted) inserted++;
    else updated++;
  }
  counts.added += inserted + restored.size;
  counts.updated += updated;
  add(report.loaded, table, inserted + restored.size);
  add(report.info, `${table} updated (changed in this release)`, updated);
  add(report.info, `${table} brought back (retired by an earlier release)`, restored.size);
  add(report.skipped, 'already imported, unchanged', keyed.length - inserted - updated - restored.size);
  await recordSeen(trx, release.job, table, keys);
}

/**
 * A first load's batch: every key is new (a resumed run starts after its last committed batch), so
 * the rows go in with one JSON statement per 5,000 rows and nothing is compared, restored or recorded
 * as seen (nothing older can be retired). Measured in docs/benchmarks.md, "Full release import".
 */
async function insertFirst<T extends KeyedTable>(
  trx: Db,
  release: ReleaseState,
  report: StepReport,
  table: T,
  rows: Insertable<Database[T]>[],
): Promise<void> {
  const inserted = await insertJsonBatched(trx, table, rows, { onConflictDoNothing: true, conflictKey: KEYED[table].key });
  change(release.changes, table).added += inserted;
  add(report.loaded, table, inserted);
  add(report.skipped, 'already imported, unchanged', rows.length - inserted);
}

/** Structures have no ChEMBL key: their key is md5(canonical SMILES). */
export async function restoreStructures(trx: Db, md5s: string[], loadId: number): Promise<number> {
  if (md5s.length === 0) return 0;
  const result = await sql`WITH back AS (
      DELETE FROM kb_retired_rows WHERE table_name = 'structures' AND source_key = ANY(${md5s}::text[]) RETURNING row)
    INSERT INTO structures
    SELECT (jsonb_populate_record(NULL::structures, back.row || jsonb_build_object('load_id', ${loadId}::bigint))).* FROM back
    ON CONFLICT DO NOTHING`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}

/** Moves rows into the archive with one statement: DELETE ... RETURNING feeds the INSERT. */
async function moveToArchive(
  db: Db,
  table: string,
  keyExpr: ReturnType<typeof sql>,
  where: ReturnType<typeof sql>,
  loadId: number,
): Promise<number> {
  const result = await sql`WITH gone AS (DELETE FROM ${sql.table(table)} AS t WHERE ${where} RETURNING t.*)
    INSERT INTO kb_retired_rows (table_name, source_key, row, retired_in_load)
    SELECT ${table}, ${keyExpr}, to_jsonb(gone), ${loadId}::bigint FROM gone
    ON CONFLICT (table_name, source_key) DO UPDATE SET row = EXCLUDED.row, retired_in_load = EXCLUDED.retired_in_load, retired_at = now()`.execute(
    db,
  );
  return Number(result.numAffectedRows ?? 0);
}

/**
 * After a complete run: rows of earlier ChEMBL loads whose key the release no longer has are
 * retired, entity by entity in dependency order, only for entities whose step read its whole
 * table in this job (`complete`): never after a damaged file or a missing table. Structures go
 * last, and only those of ChEMBL loads that no live compound, activity or development compound uses.
 */
export async function retireMissing(db: Db, release: ReleaseState, complete: Set<KeyedTable>): Promise<void> {
  // A first load recorded no seen keys: every row is its own, none can be missing from it.
  for (const table of release.firstLoad ? [] : KEYED_TABLES) {
    if (!complete.has(table)) continue;
    const { key } = KEYED[table];
    const keyRef = sql.ref(`t.${key}`);
    const where = sql`${keyRef} IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM kb_import_seen s WHERE s.job = ${release.job} AND s.entity = ${table} AND s.key = ${keyRef})
      AND ${RETIRE_GUARDS[table]('t')}`;
    change(release.changes, table).retired += await moveToArchive(db, table, sql`gone.${sql.ref(key)}::text`, where, release.loadId);
  }
  if (complete.has('compounds') && !release.firstLoad) {
    const where = sql`t.load_id IN (SELECT load_id FROM kb_loads WHERE kind IN ('import', 'update'))
      AND NOT EXISTS (SELECT 1 FROM compounds c WHERE c.str_id = t.str_id)
      AND NOT EXISTS (SELECT 1 FROM activities a WHERE a.str_id = t.str_id)
      AND NOT EXISTS (SELECT 1 FROM clinical_compounds c WHERE c.str_id = t.str_id)`;
    change(release.changes, 'structures').retired += await moveToArchive(
      db,
      'structures',
      sql`md5(gone.canonical_smiles)`,
      where,
      release.loadId,
    );
  }
  await forgetSeen(db, release.job);
}

export async function forgetSeen(db: Db, job: string): Promise<void> {
  await db.deleteFrom('kb_import_seen').where('job', '=', job).execute();
}

/** Entities whose steps read their whole table in this job (checkpoint done, or loaded in this run). */
export function completeEntities(steps: StepReport[]): Set<KeyedTable> {
  const done = new Set(steps.filter((s) => s.status === 'loaded' || s.status === 'already loaded').map((s) => s.step));
  return new Set(KEYED_TABLES.filter((t) => done.has(KEYED[t].step)));
}
