import { sql } from 'kysely';
import type { Kysely, Selectable } from 'kysely';
import type { Sql } from '../results/tab-model.ts';
import type { SarEndpointScope, SarSourceTab } from '@kb/contracts/sar';
import type { Database } from '../../db/schema.ts';
import type { SetSource } from '../results/set-source.ts';
import { SAR_SET_TABLES } from '../../db/tables/sar-tables.ts';

/** SQL of the SAR view (migration 0013): writing a session's SAR set and reading its values. */

export type SarSetRow = Selectable<Database['sar_sets']>;

/** Most endpoints a SAR data answer lists (most compounds first). */
const MAX_ENDPOINTS = 200;

/** A tab's rows as the results service scopes them: `FROM from join WHERE where`, with the row's structure id. */
export interface RowsSql {
  from: Sql;
  join: Sql;
  where: Sql;
  strId: Sql;
}

export async function countStructures(trx: Kysely<Database>, rows: RowsSql): Promise<number> {
  const { rows: counted } = await sql<{
    n: number;
  }>`SELECT count(DISTINCT ${rows.strId})::int AS n FROM ${rows.from} ${rows.join} WHERE ${rows.where}`.execute(trx);
  return counted[0]?.n ?? 0;
}

/**
 * Replaces the SAR set of `setId` (inside the caller's transaction). From the Activities tab: the
 * rows' activities and their structures; from Structures: the structures and all their
 * activities in the search's activity set.
 */
export async function writeSarSet(
  trx: Kysely<Database>,
  sets: SetSource,
  sessionId: string,
  tab: SarSourceTab,
  rows: RowsSql,
): Promise<SarSetRow> {
  const setId = sets.setId;
  for (const table of SAR_SET_TABLES) await trx.deleteFrom(table).where('set_id', '=', setId).execute();
  await sql`INSERT INTO sar_set_structures (set_id, str_id)
    SELECT DISTINCT ${setId}::bigint, ${rows.strId} FROM ${rows.from} ${rows.join} WHERE ${rows.where} AND ${rows.strId} IS NOT NULL`.execute(
    trx,
  );
  if (tab === 'activitiestab') {
    // SAR compares structures: activities of compounds without a structure are left out (docs/sar.md).
    await sql`INSERT INTO sar_set_activities (set_id, act_id, str_id, target_id)
      SELECT DISTINCT ${setId}::bigint, sa.act_id, sa.str_id, sa.target_id FROM ${rows.from} ${rows.join} WHERE ${rows.where} AND sa.str_id IS NOT NULL`.execute(
      trx,
    );
  } else {
    await sql`INSERT INTO sar_set_activities (set_id, act_id, str_id, target_id)
      SELECT ${setId}::bigint, sa.act_id, sa.str_id, sa.target_id FROM ${sets.table('search_activities', 'sa')}
      JOIN sar_set_structures x ON x.set_id = ${setId}::bigint AND x.str_id = sa.str_id
      WHERE sa.set_id = ${setId}::bigint`.execute(trx);
  }
  const { rows: counted } = await sql<{ compounds: number; activities: number }>`SELECT
      (SELECT count(*)::int FROM sar_set_structures WHERE set_id = ${setId}::bigint) AS compounds,
      (SELECT count(*)::int FROM sar_set_activities WHERE set_id = ${setId}::bigint) AS activities`.execute(trx);
  return trx
    .insertInto('sar_sets')
    .values({ set_id: setId, session_id: sessionId, tab, compounds: counted[0]!.compounds, activities: counted[0]!.activities })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function readSarSet(db: Kysely<Database>, setId: number): Promise<SarSetRow | undefined> {
  return db.selectFrom('sar_sets').selectAll().where('set_id', '=', setId).executeTakeFirst();
}

/** One target × activity type with a value, and the units its values come in. */
export interface EndpointGroup {
  target_id: number;
  target_name: string;
  activity_type: string;
  compounds: number;
  activities: number;
  with_pchembl: number;
  units: (string | null)[];
}

/**
 * The activities an endpoint of `scope` reads (docs/sar.md "Endpoints"): `set`, the rows put into
 * the SAR view; `knowledgeBase`, every activity in the knowledge base of the SAR view's structures
 * (read through activities (str_id, target_id), so a 5,000-compound set reads only its own).
 * A set's endpoint is found through sar_set_activities (set_id, target_id).
 */
function scopedActivities(scope: SarEndpointScope) {
  return scope === 'set'
    ? sql`sar_set_activities x JOIN activities a ON a.act_id = x.act_id`
    : sql`sar_set_structures x JOIN activities a ON a.str_id = x.str_id`;
}

/** Target × activity type of the scope's activities that have a value, most compounds first. */
export async function endpointGroups(db: Kysely<Database>, setId: number, scope: SarEndpointScope = 'set'): Promise<EndpointGroup[]> {
  const { rows } = await sql<EndpointGroup>`SELECT a.target_id, t.name AS target_name, a.std_activity_type AS activity_type,
      count(DISTINCT a.str_id)::int AS compounds, count(*)::int AS activities,
      count(a.pchembl_value)::int AS with_pchembl, array_agg(DISTINCT a.standard_uom) AS units
    FROM ${scopedActivities(scope)}
    JOIN targets t ON t.target_id = a.target_id
    WHERE x.set_id = ${setId}::bigint AND a.std_activity_type IS NOT NULL
      AND (a.pchembl_value IS NOT NULL OR a.activity_value IS NOT NULL)
    GROUP BY a.target_id, t.name, a.std_activity_type
    ORDER BY compounds DESC, activities DESC, t.name, a.std_activity_type
    LIMIT ${MAX_ENDPOINTS}`.execute(db);
  return rows.map((row) => ({ ...row, target_id: Number(row.target_id) }));
}

/** One measurement of an endpoint, as stored (docs/data-model.md, activities). */
export interface Measurement {
  str_id: number;
  pchembl_value: number | null;
  activity_value: number | null;
  standard_uom: string | null;
  std_act_prefix: string | null;
}

export async function endpointMeasurements(
  db: Kysely<Database>,
  setId: number,
  endpoint: { targetId: number; activityType: string; scope: SarEndpointScope },
): Promise<{ targetName: string | null; rows: Measurement[] }> {
  const { targetId, activityType, scope } = endpoint;
  const target = await db.selectFrom('targets').select('name').where('target_id', '=', targetId).executeTakeFirst();
  const { rows } = await sql<Measurement>`SELECT a.str_id, a.pchembl_value, a.activity_value, a.standard_uom, a.std_act_prefix
    FROM ${scopedActivities(scope)}
    WHERE x.set_id = ${setId}::bigint AND ${scope === 'set' ? sql`x.target_id` : sql`a.target_id`} = ${targetId} AND a.std_activity_type = ${activityType}
    ORDER BY a.str_id, a.act_id`.execute(db);
  return { targetName: target?.name ?? null, rows: rows.map((row) => ({ ...row, str_id: Number(row.str_id) })) };
}

/** What the SAR table shows of a structure. */
export interface CompoundFacts {
  str_id: number;
  smiles: string;
  mw: number | null;
  clogp: number | null;
  heavy_atoms: number | null;
}

/** Facts of some structures, by id (or of the whole SAR set when `strIds` is null), in id order. */
export async function compoundFacts(db: Kysely<Database>, setId: number, strIds: readonly number[] | null): Promise<CompoundFacts[]> {
  const only = strIds ? sql`AND s.str_id = ANY(${[...strIds]}::bigint[])` : sql``;
  const { rows } =
    await sql<CompoundFacts>`SELECT s.str_id, s.canonical_smiles AS smiles, s.mol_weight AS mw, s.logp_calc AS clogp, s.heavy_atoms
    FROM sar_set_structures x JOIN structures s ON s.str_id = x.str_id
    WHERE x.set_id = ${setId}::bigint ${only} ORDER BY s.str_id`.execute(db);
  return rows.map((row) => ({ ...row, str_id: Number(row.str_id), heavy_atoms: row.heavy_atoms == null ? null : Number(row.heavy_atoms) }));
}

/** Morgan fingerprints (r=2, 2,048 bits, as the similarity search) of some structures. */
export async function morganFingerprints(db: Kysely<Database>, strIds: readonly number[]): Promise<Map<number, Uint8Array>> {
  const rows = await db
    .selectFrom('structures')
    .select(['str_id', 'morgan_fp'])
    .where('str_id', 'in', strIds.length ? [...strIds] : [-1])
    .execute();
  return new Map(rows.flatMap((row) => (row.morgan_fp ? [[Number(row.str_id), row.morgan_fp as Uint8Array] as const] : [])));
}
