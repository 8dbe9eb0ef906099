import { sql } from 'kysely';
import { insertBatched } from '../bulk.ts';
import { dataSourceIds } from './lookups.ts';
import { micromolarFactor } from './mapping.ts';
import { int, selectList, str } from './sqlite-source.ts';
import type { SqlRow } from './sqlite-source.ts';
import { add, insertNew, wholeTableStep } from './step.ts';
import type { Db, Step, StepReport } from './step.ts';

/** source -> data_sources. Prefixed names: `data_sources.name` is unique across all feeds. */
export const sourceStep = (): Step =>
  wholeTableStep({
    name: 'source',
    source: 'source',
    target: 'data_sources',
    requires: ['source'],
    query: (ctx, missing) =>
      `SELECT ${selectList(ctx.file, 'source', 's', ['src_id', 'src_description', 'src_short_name', 'src_comment', 'src_url'], missing)} FROM source s ORDER BY s.src_id`,
    prepare: async (ctx, report, rows) => async (trx) => {
      const mapped = rows
        .filter((r) => int(r.src_id) !== null)
        .map((r) => ({
          name: `ChEMBL: ${str(r.src_description) ?? str(r.src_short_name) ?? `source ${int(r.src_id)}`}`,
          short_name: str(r.src_short_name),
          description: str(r.src_comment),
          url: str(r.src_url),
          chembl_src_id: int(r.src_id),
        }));
      add(report.skipped, 'no src_id', rows.length - mapped.length);
      await insertNew(trx, report, 'data_sources', mapped);
      ctx.sourceIds = await dataSourceIds(trx);
    },
  });

/** Units named by the release must exist before activity_types refers to them (foreign key). */
async function ensureUnits(trx: Db, units: (string | null)[]): Promise<void> {
  const distinct = [...new Set(units.filter((u): u is string => u !== null))];
  const rows = distinct.map((unit) => {
    const factor = micromolarFactor(unit);
    return { unit, kind: factor === null ? 'other' : 'concentration', to_micromolar: factor };
  });
  await insertBatched(trx, 'units', rows, { onConflictDoNothing: true });
}

/** activity_stds_lookup -> activity_types (+ units). */
export const activityTypesStep = (): Step =>
  wholeTableStep({
    name: 'activity_stds_lookup',
    source: 'activity_stds_lookup',
    target: 'activity_types, units',
    requires: ['activity_stds_lookup'],
    query: (ctx, missing) =>
      `SELECT ${selectList(ctx.file, 'activity_stds_lookup', 'l', ['std_act_id', 'standard_type', 'definition', 'standard_units'], missing)} ` +
      'FROM activity_stds_lookup l ORDER BY l.std_act_id',
    prepare: async (_ctx, report, rows) => async (trx) => {
      const named = rows.filter((r) => str(r.standard_type) !== null);
      add(report.skipped, 'no standard_type', rows.length - named.length);
      await ensureUnits(
        trx,
        named.map((r) => str(r.standard_units)),
      );
      const mapped = named.map((r) => ({
        name: str(r.standard_type) as string,
        description: str(r.definition),
        standard_unit: str(r.standard_units),
      }));
      const inserted = await insertBatched(trx, 'activity_types', mapped, { onConflictDoNothing: true });
      add(report.loaded, 'activity_types', inserted);
      add(report.skipped, 'type already present (earlier run, demo vocabulary or another unit row)', mapped.length - inserted);
    },
  });

/** action_type -> action_types. */
export const actionTypesStep = (): Step =>
  wholeTableStep({
    name: 'action_type',
    source: 'action_type',
    target: 'action_types',
    requires: ['action_type'],
    query: (ctx, missing) =>
      `SELECT ${selectList(ctx.file, 'action_type', 'a', ['action_type', 'description', 'parent_type'], missing)} FROM action_type a ORDER BY a.action_type`,
    prepare: async (_ctx, report, rows) => async (trx) => {
      const mapped = rows
        .filter((r) => str(r.action_type) !== null)
        .map((r) => ({ name: str(r.action_type) as string, description: str(r.description), parent_type: str(r.parent_type) }));
      add(report.skipped, 'no action_type', rows.length - mapped.length);
      const inserted = await insertBatched(trx, 'action_types', mapped, { onConflictDoNothing: true });
      add(report.loaded, 'action_types', inserted);
      add(report.skipped, 'already present', mapped.length - inserted);
      // The shared vocabulary seeds bare names (INHIBITOR ...): give them ChEMBL's description and parent.
      const described = mapped.filter((m) => m.description !== null || m.parent_type !== null);
      if (described.length > 0) {
        const result =
          await sql`UPDATE action_types t SET description = coalesce(t.description, n.description), parent_type = coalesce(t.parent_type, n.parent_type)
        FROM unnest(${described.map((m) => m.name)}::text[], ${described.map((m) => m.description)}::text[], ${described.map((m) => m.parent_type)}::text[])
          AS n(name, description, parent_type)
        WHERE t.name = n.name AND ((t.description IS NULL AND n.description IS NOT NULL) OR (t.parent_type IS NULL AND n.parent_type IS NOT NULL))`.execute(
            trx,
          );
        add(report.info, 'descriptions added to existing action types', Number(result.numAffectedRows ?? 0));
      }
    },
  });

async function classIdsByChemblId(trx: Db): Promise<Map<number, { id: number; level: number }>> {
  const rows = await trx
    .selectFrom('target_classes')
    .select(['chembl_class_id', 'class_id', 'level'])
    .where('chembl_class_id', 'is not', null)
    .execute();
  return new Map(rows.map((r) => [Number(r.chembl_class_id), { id: r.class_id, level: r.level }]));
}

/**
 * One class node. A node with the same parent and name may already exist (demo vocabulary, other
 * feed): it is adopted by setting its chembl_class_id instead of adding a twin.
 */
async function loadClass(trx: Db, report: StepReport, row: SqlRow, known: Map<number, { id: number; level: number }>): Promise<void> {
  const chemblId = int(row.protein_class_id) as number;
  if (known.has(chemblId)) {
    add(report.skipped, 'already imported');
    return;
  }
  const parent = int(row.parent_id) === null ? undefined : known.get(int(row.parent_id) as number);
  const name = str(row.pref_name) ?? str(row.short_name) ?? `ChEMBL protein class ${chemblId}`;
  const level = int(row.class_level) ?? (parent ? parent.level + 1 : 0);
  const parentId = parent?.id ?? null;
  const inserted = await trx
    .insertInto('target_classes')
    .values({ parent_id: parentId, name, level, chembl_class_id: chemblId })
    .onConflict((oc) => oc.doNothing())
    .returning('class_id')
    .executeTakeFirst();
  if (inserted) {
    known.set(chemblId, { id: inserted.class_id, level });
    add(report.loaded, 'target_classes');
    return;
  }
  const existing = await trx
    .selectFrom('target_classes')
    .select(['class_id', 'level'])
    .where('name', '=', name)
    .where(sql<boolean>`coalesce(parent_id, 0) = ${parentId ?? 0}`)
    .where('chembl_class_id', 'is', null)
    .executeTakeFirst();
  if (!existing) {
    add(report.skipped, 'class clashes with another ChEMBL class of the same parent and name');
    return;
  }
  await trx.updateTable('target_classes').set({ chembl_class_id: chemblId }).where('class_id', '=', existing.class_id).execute();
  known.set(chemblId, { id: existing.class_id, level: existing.level });
  add(report.info, 'existing class adopted (same parent and name)');
}

/** protein_classification -> target_classes, parents first (class_level order). */
export const targetClassesStep = (): Step =>
  wholeTableStep({
    name: 'protein_classification',
    source: 'protein_classification',
    target: 'target_classes',
    requires: ['protein_classification'],
    query: (ctx, missing) =>
      `SELECT ${selectList(ctx.file, 'protein_classification', 'p', ['protein_class_id', 'parent_id', 'pref_name', 'short_name', 'class_level'], missing)} ` +
      'FROM protein_classification p WHERE p.protein_class_id IS NOT NULL ORDER BY p.class_level, p.protein_class_id',
    prepare: async (_ctx, report, rows) => async (trx) => {
      const known = await classIdsByChemblId(trx);
      for (const row of rows) await loadClass(trx, report, row, known);
    },
  });
