// What the ChEMBL import tests share: a migrated database, the fixture's expected counts, the
// import's step reports and the live and file keys of a release (chembl-import.test.ts,
// chembl-reimport.test.ts).
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import type { DatabaseHandle, DatabaseKind } from '../../../db/database.ts';
import { openTestDatabase } from '../../../../test/harness.ts';
import type { ImportSummary, StepReport } from './chembl-import.ts';

/** A migrated database; `drop` closes it (and drops its private schema on a server). */
export async function openMigrated(kind: DatabaseKind): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  const { handle, close } = await openTestDatabase(kind);
  return { handle, drop: close };
}

/** What the default fixture yields in an empty database (see fixture.ts for the row-by-row reasons). */
export const COUNTED = [
  'structures',
  'compounds',
  'compound_synonyms',
  'activities',
  'assays',
  'documents',
  'document_authors',
  'targets',
  'target_synonyms',
  'target_classes',
  'clinical_compounds',
  'clinical_compound_indications',
  'clinical_compound_targets',
  'clinical_compound_companies',
  'indications',
  'companies',
  'data_sources',
] as const;
export const EXPECTED_COUNTS: Record<(typeof COUNTED)[number], number> = {
  structures: 3,
  compounds: 7,
  compound_synonyms: 2,
  activities: 10,
  assays: 3,
  documents: 2,
  document_authors: 3,
  targets: 3,
  target_synonyms: 7,
  target_classes: 4,
  clinical_compounds: 2,
  clinical_compound_indications: 3,
  clinical_compound_targets: 2,
  clinical_compound_companies: 1,
  indications: 3,
  companies: 1,
  data_sources: 3,
};

export async function tableCounts(handle: DatabaseHandle): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const table of COUNTED) {
    const row = await handle.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    result[table] = Number(row.n);
  }
  return result;
}

export function step(summary: ImportSummary, name: string): StepReport {
  const found = summary.steps.find((s) => s.step === name);
  if (!found) throw new Error(`no step ${name}`);
  return found;
}

/** The activities table's indexes in this test's own schema (parallel test files each have one), as PostgreSQL defines them. */
export async function activityIndexes(handle: DatabaseHandle): Promise<string[]> {
  const { rows } = await sql<{
    definition: string;
  }>`SELECT indexdef AS definition FROM pg_indexes WHERE tablename = 'activities' AND schemaname = current_schema() ORDER BY indexname`.execute(
    handle.db,
  );
  return rows.map((r) => r.definition);
}

/** Live ChEMBL keys of the knowledge base (`assays:1002` ...). */
export async function liveKeys(handle: DatabaseHandle): Promise<Set<string>> {
  const keys = new Set<string>();
  const read = async (entity: string, rows: { k: number | string | null }[]) => {
    for (const r of rows) if (r.k !== null) keys.add(`${entity}:${Number(r.k)}`);
  };
  await read('activities', await handle.db.selectFrom('activities').select('chembl_activity_id as k').execute());
  await read('assays', await handle.db.selectFrom('assays').select('chembl_assay_id as k').execute());
  await read('compounds', await handle.db.selectFrom('compounds').select('chembl_molregno as k').execute());
  await read('documents', await handle.db.selectFrom('documents').select('chembl_doc_id as k').execute());
  await read('targets', await handle.db.selectFrom('targets').select('chembl_tid as k').execute());
  return keys;
}

/** The keys a ChEMBL file has, in liveKeys' form. */
export function fileKeys(file: string): Set<string> {
  const sqlite = new Database(file, { readonly: true });
  try {
    const tables: [string, string, string][] = [
      ['activities', 'activities', 'activity_id'],
      ['assays', 'assays', 'assay_id'],
      ['compounds', 'molecule_dictionary', 'molregno'],
      ['compounds', 'compound_structures', 'molregno'],
      ['documents', 'docs', 'doc_id'],
      ['targets', 'target_dictionary', 'tid'],
    ];
    return new Set(
      tables.flatMap(([entity, table, key]) =>
        (sqlite.prepare(`SELECT ${key} AS k FROM ${table}`).all() as { k: number }[]).map((r) => `${entity}:${r.k}`),
      ),
    );
  } finally {
    sqlite.close();
  }
}
