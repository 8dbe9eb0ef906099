import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DataQuality, EntityChange, KbLoadReport, SkippedRows } from '@kb/contracts/kb-loads';
import type { Database } from '../../db/schema.ts';
import { countKnowledgeBase } from './kb-counts.ts';

/**
 * The report of a load (docs/data-model.md "Loads and release updates"): what changed per entity
 * and the data-quality summary, read by SQL from the knowledge base after the load.
 */

/** Entities of the report, in the order the UI shows them. */
const REPORT_ENTITIES = ['structures', 'compounds', 'activities', 'assays', 'documents', 'targets', 'clinical_compounds'] as const;

export type ChangeCounts = Record<string, { added: number; updated: number; retired: number }>;

/** Added / updated / retired per entity (from the load) with the live total after it. */
async function entityChanges(db: Kysely<Database>, changes: ChangeCounts): Promise<EntityChange[]> {
  const totals = await countKnowledgeBase(db);
  return REPORT_ENTITIES.map((entity) => ({
    entity,
    added: changes[entity]?.added ?? 0,
    updated: changes[entity]?.updated ?? 0,
    retired: changes[entity]?.retired ?? 0,
    total: totals[entity],
  }));
}

/**
 * Data quality of the whole knowledge base after a load. "Standardised": the activity carries the
 * source's standardised fields (`activities.standardised`, migration 0023; where they were empty
 * the published type, relation, value and units stand in and the row is marked).
 * "Unit conversion": a µM value computed from another unit.
 */
async function dataQuality(db: Kysely<Database>, skipped: SkippedRows[]): Promise<DataQuality> {
  const totals = await countKnowledgeBase(db);
  const acts = await sql<{ total: number; with_structure: number; standardised: number; converted: number }>`
    SELECT count(*)::int AS total,
      count(*) FILTER (WHERE str_id IS NOT NULL)::int AS with_structure,
      count(*) FILTER (WHERE standardised)::int AS standardised,
      count(*) FILTER (WHERE micro_molarvalue IS NOT NULL AND coalesce(standard_uom, '') NOT IN ('uM', 'µM'))::int AS converted
    FROM activities`.execute(db);
  const cpds = await sql<{ total: number; with_structure: number }>`
    SELECT count(*)::int AS total, count(*) FILTER (WHERE str_id IS NOT NULL)::int AS with_structure FROM compounds`.execute(db);
  const a = acts.rows[0] ?? { total: 0, with_structure: 0, standardised: 0, converted: 0 };
  const c = cpds.rows[0] ?? { total: 0, with_structure: 0 };
  return {
    rowsPerEntity: REPORT_ENTITIES.map((entity) => ({ entity, rows: totals[entity] })),
    activities: {
      total: Number(a.total),
      withStructure: Number(a.with_structure),
      standardised: Number(a.standardised),
      unitConversions: Number(a.converted),
    },
    compounds: { total: Number(c.total), withStructure: Number(c.with_structure) },
    skipped: skipped.filter((s) => s.rows > 0),
  };
}

export async function buildLoadReport(
  db: Kysely<Database>,
  changes: ChangeCounts,
  skipped: SkippedRows[],
  notes: string[],
): Promise<KbLoadReport> {
  return { changes: await entityChanges(db, changes), quality: await dataQuality(db, skipped), notes };
}

/** Adds skip counts of the same step and reason together. */
export function mergeSkipped(...lists: SkippedRows[][]): SkippedRows[] {
  const byKey = new Map<string, SkippedRows>();
  for (const s of lists.flat()) {
    const key = `${s.step}\u0000${s.reason}`;
    const found = byKey.get(key);
    if (found) found.rows += s.rows;
    else byKey.set(key, { ...s });
  }
  return [...byKey.values()];
}
