import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { InnerGrid, ResultRow } from '@kb/contracts/results';
import type { Database } from '../../db/schema.ts';

/**
 * Spec §3: activity and assay rows carry `innerGrids`, a JSON string. An activity shows its assay
 * and the assay's conditions; an assay shows its activities in this search (first 20).
 */

const ASSAY_GRID_COLUMNS = [
  { key: 'assay_id', label: 'Assay ID' },
  { key: 'description', label: 'Description' },
  { key: 'assay_type', label: 'Type' },
  { key: 'assay_method_name', label: 'Method' },
  { key: 'organism', label: 'Organism' },
  { key: 'cells_cellline_organ', label: 'Cells / organ' },
  { key: 'conditions', label: 'Conditions' },
];

const ACTIVITY_GRID_COLUMNS = [
  { key: 'act_id', label: 'Act ID' },
  { key: 'str_id', label: 'Str ID' },
  { key: 'std_activity_type', label: 'Type' },
  { key: 'std_act_prefix', label: 'Prefix' },
  { key: 'activity_value', label: 'Value' },
  { key: 'standard_uom', label: 'Unit' },
];

export const ACTIVITIES_PER_ASSAY = 20;

/** ChEMBL assay_parameters: published and standardised (migration 0024). */
const PARAMETER_GRID_COLUMNS = [
  { key: 'param_type', label: 'Parameter' },
  { key: 'relation', label: 'Relation' },
  { key: 'value', label: 'Value' },
  { key: 'units', label: 'Units' },
  { key: 'text_value', label: 'Text value' },
  { key: 'standard', label: 'Standardised' },
  { key: 'comments', label: 'Comments' },
];

/** The parameters of a page of assays (few per assay), keyed by assay_id. */
async function assayParameters(db: Kysely<Database>, assayIds: readonly number[]): Promise<Map<number, ResultRow[]>> {
  const { rows } = await sql<
    ResultRow & { owner: number }
  >`SELECT p.assay_id AS owner, p.param_type, p.relation, p.value, p.units, p.text_value,
      nullif(concat_ws(' ', p.standard_type, p.standard_relation, p.standard_value::text, p.standard_units, p.standard_text_value), '') AS standard, p.comments
    FROM assay_parameters p WHERE p.assay_id = ANY(${[...assayIds]}::bigint[]) ORDER BY p.assay_id, p.param_type, p.assay_param_id`.execute(
    db,
  );
  const byAssay = new Map<number, ResultRow[]>();
  for (const { owner, ...row } of rows) byAssay.set(Number(owner), [...(byAssay.get(Number(owner)) ?? []), row]);
  return byAssay;
}

/** Readable conditions of an assay ("in presence of ATP 10 uM; pH 7.4; 37 °C"). */
const CONDITIONS = sql`concat_ws('; ',
  CASE WHEN ay.in_presence_of IS NOT NULL THEN concat_ws(' ', 'in presence of', ay.in_presence_of, ay.in_presence_of_prefix, ay.in_presence_of_conc::text, ay.in_presence_of_uom) END,
  CASE WHEN ay.radio_ligand IS NOT NULL THEN concat_ws(' ', 'radioligand', ay.radio_ligand, ay.radio_ligand_conc::text, ay.radio_ligand_uom) END,
  CASE WHEN ay.substrate IS NOT NULL THEN concat_ws(' ', 'substrate', ay.substrate, ay.substrate_conc::text, ay.substrate_uom) END,
  CASE WHEN ay.buffer IS NOT NULL THEN concat_ws(' ', 'buffer', ay.buffer) END,
  CASE WHEN ay.ph IS NOT NULL THEN 'pH ' || ay.ph::text END,
  CASE WHEN ay.incubation_time IS NOT NULL THEN concat_ws(' ', 'incubation', ay.incubation_time::text, ay.incubation_time_uom) END,
  CASE WHEN ay.temperature IS NOT NULL THEN concat_ws(' ', ay.temperature::text, ay.temperature_uom) END)`;

/** innerGrids of activity rows, keyed by act_id. */
export async function activityInnerGrids(db: Kysely<Database>, actIds: readonly number[]): Promise<Map<number, string>> {
  if (!actIds.length) return new Map();
  const { rows } = await sql<
    ResultRow & { act_id: number }
  >`SELECT a.act_id, ay.assay_id, ay.description, ay.assay_type, ay.assay_method_name,
      ay.organism, ay.cells_cellline_organ, nullif(${CONDITIONS}, '') AS conditions
    FROM activities a LEFT JOIN assays ay ON ay.assay_id = a.assay_id WHERE a.act_id = ANY(${[...actIds]}::bigint[])`.execute(db);
  return new Map(
    rows.map(({ act_id, ...assay }) => {
      const grid: InnerGrid = { title: 'Assay', columns: ASSAY_GRID_COLUMNS, rows: assay.assay_id == null ? [] : [assay], more: false };
      return [act_id, JSON.stringify([grid])];
    }),
  );
}

/** innerGrids of assay rows: the assay's activities within the session, keyed by assay_id. */
export async function assayInnerGrids(
  db: Kysely<Database>,
  setId: number,
  assayIds: readonly number[],
  /** Sets held in memory: each assay's first activities in the search (memory-pages.ts), instead of probing the set table. */
  heldMembers?: ReadonlyMap<number, readonly number[]>,
): Promise<Map<number, string>> {
  if (!assayIds.length) return new Map();
  const inSearch = heldMembers
    ? sql`a.act_id = ANY(${[...heldMembers.values()].flat()}::bigint[])`
    : sql`(SELECT true FROM search_activities sa WHERE sa.set_id = ${setId}::bigint AND sa.act_id = a.act_id)`;
  // Per assay through activities(assay_id) then a primary-key probe of the set: an assay has few
  // activities, the set may have 750,000. OFFSET 0 keeps the optimiser from serving
  // "ORDER BY act_id LIMIT 21" by walking the 26-million-row primary key (22 s at L); the probe is a
  // scalar subquery, not EXISTS, so it is not turned into a hash join over the whole set.
  const { rows } = await sql<
    ResultRow & { owner: number }
  >`SELECT x.owner, r.act_id, r.str_id, r.std_activity_type, r.std_act_prefix, r.activity_value, r.standard_uom
    FROM unnest(${[...assayIds]}::bigint[]) AS x(owner)
    CROSS JOIN LATERAL (SELECT q.* FROM (SELECT a.act_id, a.str_id, a.std_activity_type, a.std_act_prefix, a.activity_value, a.standard_uom
        FROM activities a WHERE a.assay_id = x.owner
          AND ${inSearch}
        OFFSET 0) q
      ORDER BY q.act_id LIMIT ${ACTIVITIES_PER_ASSAY + 1}) r`.execute(db);
  const byAssay = new Map<number, ResultRow[]>();
  for (const { owner, ...row } of rows) {
    const list = byAssay.get(owner) ?? [];
    list.push(row);
    byAssay.set(owner, list);
  }
  const parameters = await assayParameters(db, assayIds);
  return new Map(
    assayIds.map((assayId) => {
      const list = byAssay.get(assayId) ?? [];
      const grid: InnerGrid = {
        title: 'Activities in this search',
        columns: ACTIVITY_GRID_COLUMNS,
        rows: list.slice(0, ACTIVITIES_PER_ASSAY),
        more: list.length > ACTIVITIES_PER_ASSAY,
      };
      const params = parameters.get(assayId);
      // Only assays that have parameters get the second grid (most assays have none).
      const grids = params
        ? [grid, { title: 'Assay parameters', columns: PARAMETER_GRID_COLUMNS, rows: params, more: false } satisfies InnerGrid]
        : [grid];
      return [assayId, JSON.stringify(grids)];
    }),
  );
}
