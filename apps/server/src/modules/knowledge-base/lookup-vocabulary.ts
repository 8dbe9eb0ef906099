import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * The fixed lookup vocabulary every knowledge base shares, whatever loads it (the demo generator,
 * the ChEMBL importer): units, endpoint trees, activity and action types, clinical phases and
 * statuses. It lives here, not under demo/ or chembl/, so neither loader depends on the other.
 */

type Db = Kysely<Database>;

/** Endpoint trees (name paths, root first) per tree kind. */
const ENDPOINTS: { tree: 'activity' | 'pk' | 'toxicity'; path: string[] }[] = [
  { tree: 'activity', path: ['Potency', 'Inhibition', 'IC50'] },
  { tree: 'activity', path: ['Potency', 'Binding affinity', 'Ki'] },
  { tree: 'activity', path: ['Potency', 'Binding affinity', 'Kd'] },
  { tree: 'activity', path: ['Potency', 'Activation', 'EC50'] },
  { tree: 'activity', path: ['Efficacy', 'Percent inhibition'] },
  { tree: 'activity', path: ['Efficacy', 'Degradation', 'DC50'] },
  { tree: 'activity', path: ['Efficacy', 'Degradation', 'Dmax'] },
  { tree: 'pk', path: ['Absorption', 'Permeability', 'Caco-2 Papp'] },
  { tree: 'pk', path: ['Absorption', 'Solubility', 'Kinetic solubility'] },
  { tree: 'pk', path: ['Distribution', 'Plasma protein binding'] },
  { tree: 'pk', path: ['Metabolism', 'Microsomal stability', 'Intrinsic clearance'] },
  { tree: 'pk', path: ['Excretion', 'Clearance', 'Plasma clearance'] },
  { tree: 'pk', path: ['Pharmacokinetics', 'Half-life'] },
  { tree: 'pk', path: ['Pharmacokinetics', 'Bioavailability'] },
  { tree: 'toxicity', path: ['Cardiotoxicity', 'hERG inhibition'] },
  { tree: 'toxicity', path: ['Cytotoxicity', 'CC50'] },
  { tree: 'toxicity', path: ['Acute toxicity', 'LD50'] },
  { tree: 'toxicity', path: ['Hepatotoxicity', 'ALT elevation'] },
];

export const UNITS: { unit: string; kind: string; toMicromolar: number | null }[] = [
  { unit: 'nM', kind: 'concentration', toMicromolar: 0.001 },
  { unit: 'uM', kind: 'concentration', toMicromolar: 1 },
  { unit: 'mM', kind: 'concentration', toMicromolar: 1000 },
  { unit: 'pM', kind: 'concentration', toMicromolar: 0.000001 },
  { unit: 'M', kind: 'concentration', toMicromolar: 1e6 },
  { unit: '%', kind: 'percent', toMicromolar: null },
  { unit: '10^-6 cm/s', kind: 'permeability', toMicromolar: null },
  { unit: 'uL/min/mg', kind: 'clearance', toMicromolar: null },
  { unit: 'mL/min/kg', kind: 'clearance', toMicromolar: null },
  { unit: 'h', kind: 'time', toMicromolar: null },
  { unit: 'mg/kg', kind: 'dose', toMicromolar: null },
  { unit: 'ug/mL', kind: 'mass concentration', toMicromolar: null },
];

const ACTIVITY_TYPES: { name: string; description: string; unit: string | null; endpoint: string }[] = [
  { name: 'IC50', description: 'Concentration required for 50% inhibition', unit: 'nM', endpoint: 'IC50' },
  { name: 'Ki', description: 'Inhibition constant', unit: 'nM', endpoint: 'Ki' },
  { name: 'Kd', description: 'Dissociation constant', unit: 'nM', endpoint: 'Kd' },
  { name: 'EC50', description: 'Concentration giving 50% of the maximal effect', unit: 'nM', endpoint: 'EC50' },
  { name: 'Inhibition', description: 'Percent inhibition at a fixed concentration', unit: '%', endpoint: 'Percent inhibition' },
  { name: 'DC50', description: 'Concentration giving 50% degradation of the target', unit: 'nM', endpoint: 'DC50' },
  { name: 'Dmax', description: 'Maximal degradation of the target', unit: '%', endpoint: 'Dmax' },
  { name: 'Papp', description: 'Apparent permeability (Caco-2, A to B)', unit: '10^-6 cm/s', endpoint: 'Caco-2 Papp' },
  { name: 'Solubility', description: 'Kinetic aqueous solubility at pH 7.4', unit: 'uM', endpoint: 'Kinetic solubility' },
  { name: 'CLint', description: 'Intrinsic clearance in liver microsomes', unit: 'uL/min/mg', endpoint: 'Intrinsic clearance' },
  { name: 'CL', description: 'Plasma clearance', unit: 'mL/min/kg', endpoint: 'Plasma clearance' },
  { name: 'T1/2', description: 'Elimination half-life', unit: 'h', endpoint: 'Half-life' },
  { name: 'F', description: 'Oral bioavailability', unit: '%', endpoint: 'Bioavailability' },
  { name: 'CC50', description: 'Concentration cytotoxic to 50% of cells', unit: 'nM', endpoint: 'CC50' },
  { name: 'LogD', description: 'Measured distribution coefficient octanol/buffer pH 7.4', unit: null, endpoint: 'Kinetic solubility' },
];

const ACTION_TYPES = ['INHIBITOR', 'ANTAGONIST', 'AGONIST', 'PARTIAL AGONIST', 'INVERSE AGONIST', 'MODULATOR', 'DEGRADER', 'BLOCKER'];

const CLINICAL_PHASES = [
  'Preclinical',
  'Phase I',
  'Phase II',
  'Phase III',
  'Pre-registration',
  'Launched',
  'Phase IV',
  'Clinical Phase Unknown',
  'Withdrawn',
];
const CLINICAL_STATUSES = ['Active', 'Discontinued', 'Suspended', 'Withdrawn', 'No development reported'];

/** Inserts a tree path node by node (idempotent) and returns the leaf id. */
export async function ensurePath(
  db: Db,
  path: string[],
  find: (parent: number | null, name: string) => Promise<number | undefined>,
  insert: (parent: number | null, name: string, level: number) => Promise<number>,
): Promise<number> {
  let parent: number | null = null;
  for (const [level, name] of path.entries()) {
    parent = (await find(parent, name)) ?? (await insert(parent, name, level));
  }
  return parent as number;
}

async function seedEndpoints(db: Db): Promise<void> {
  for (const e of ENDPOINTS) {
    await ensurePath(
      db,
      e.path,
      async (parent, name) =>
        (
          await db
            .selectFrom('endpoints')
            .select('endpoint_id')
            .where('tree', '=', e.tree)
            .where('name', '=', name)
            .where(sql<boolean>`coalesce(parent_id, 0) = ${parent ?? 0}`)
            .executeTakeFirst()
        )?.endpoint_id,
      async (parent, name) =>
        (
          await db
            .insertInto('endpoints')
            .values({ parent_id: parent, tree: e.tree, name })
            .returning('endpoint_id')
            .executeTakeFirstOrThrow()
        ).endpoint_id,
    );
  }
}

/** The fixed lookup tables (units, types, phases ...): shared by demo data and imports. */
export async function seedLookups(db: Db): Promise<void> {
  await db
    .insertInto('units')
    .values(UNITS.map((u) => ({ unit: u.unit, kind: u.kind, to_micromolar: u.toMicromolar })))
    .onConflict((oc) => oc.doNothing())
    .execute();
  await db
    .insertInto('action_types')
    .values(ACTION_TYPES.map((name) => ({ name })))
    .onConflict((oc) => oc.doNothing())
    .execute();
  await db
    .insertInto('clinical_phases')
    .values(CLINICAL_PHASES.map((name, i) => ({ phase_id: i + 1, name, sort_order: i + 1 })))
    .onConflict((oc) => oc.doNothing())
    .execute();
  await db
    .insertInto('clinical_statuses')
    .values(CLINICAL_STATUSES.map((name, i) => ({ status_id: i + 1, name })))
    .onConflict((oc) => oc.doNothing())
    .execute();
  const hasEndpoints = await db.selectFrom('endpoints').select('endpoint_id').limit(1).executeTakeFirst();
  if (!hasEndpoints) await seedEndpoints(db);
  const endpointIds = await endpointMap(db);
  await db
    .insertInto('activity_types')
    .values(
      ACTIVITY_TYPES.map((a) => ({
        name: a.name,
        description: a.description,
        standard_unit: a.unit,
        endpoint_id: endpointIds.get(a.endpoint) ?? null,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function endpointMap(db: Db): Promise<Map<string, number>> {
  const rows = await db.selectFrom('endpoints').select(['endpoint_id', 'name']).orderBy('endpoint_id').execute();
  return new Map(rows.map((r) => [r.name, r.endpoint_id]));
}
