import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { SheetEndpoint } from '@kb/contracts/sheet';
import { SHEET_MAX_SUGGESTIONS } from '@kb/contracts/sheet';
import type { Database } from '../../db/schema.ts';

/**
 * SQL of the sheet (docs/workspace.md "The sheet"). Every read is by the sheet's structure ids
 * through `activities (str_id, target_id, …)` (migration 0031), so a sheet reads its own
 * compounds' measurements and nothing else, whatever the size of the knowledge base.
 */

/** The ids as one array parameter, unnested: one plan whatever their number (an `IN` list of 100,000 would be parsed anew). */
const idsTable = (strIds: readonly number[]) => sql`unnest(${[...strIds]}::bigint[]) AS ids(str_id)`;

/**
 * Runs reads by the sheet's ids as index probes, one per id. Given the ids as an array, the
 * planner knows their number but not that they are few of the table's rows per target: it hashes
 * them against a bitmap scan of a whole target (measured at M for 10,000 compounds: 670 ms for one
 * endpoint against 65 ms probing `activities (str_id, target_id, …)`), or scans the whole table
 * for the suggestions (880 ms against 200 ms).
 */
async function probing<T>(db: Kysely<Database>, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`SET LOCAL enable_hashjoin = off`.execute(trx);
    await sql`SET LOCAL enable_mergejoin = off`.execute(trx);
    await sql`SET LOCAL enable_seqscan = off`.execute(trx);
    await sql`SET LOCAL enable_bitmapscan = off`.execute(trx);
    await sql`SET LOCAL max_parallel_workers_per_gather = 0`.execute(trx);
    return fn(trx);
  });
}

/** A measurement usable for a value: it has an activity type and a value or a pChEMBL. */
const USABLE = sql`a.std_activity_type IS NOT NULL AND (a.pchembl_value IS NOT NULL OR a.activity_value IS NOT NULL)`;

export interface EndpointGroupRow {
  key: number;
  activity_type: string;
  label_name: string | null;
  target_name: string | null;
  gene_symbol: string | null;
  compounds: number;
  activities: number;
  with_pchembl: number;
  units: (string | null)[];
}

/** Target × activity type of the compounds' measurements, most compounds first. */
export async function targetGroups(db: Kysely<Database>, strIds: readonly number[]): Promise<EndpointGroupRow[]> {
  const { rows } = await probing(db, (trx) =>
    sql<EndpointGroupRow>`SELECT g.target_id AS key, g.activity_type, t.name AS label_name, t.name AS target_name,
      t.gene_symbol, g.compounds, g.activities, g.with_pchembl, g.units
    FROM (SELECT a.target_id, a.std_activity_type AS activity_type, count(DISTINCT a.str_id)::int AS compounds, count(*)::int AS activities,
        count(a.pchembl_value)::int AS with_pchembl, array_agg(DISTINCT a.standard_uom) AS units
      FROM ${idsTable(strIds)} JOIN activities a ON a.str_id = ids.str_id
      WHERE a.target_id IS NOT NULL AND ${USABLE}
      GROUP BY a.target_id, a.std_activity_type
      ORDER BY compounds DESC, activities DESC LIMIT ${SHEET_MAX_SUGGESTIONS}) g
    JOIN targets t ON t.target_id = g.target_id
    ORDER BY g.compounds DESC, g.activities DESC, t.name, g.activity_type`.execute(trx),
  );
  return rows.map((row) => ({ ...row, key: Number(row.key) }));
}

/** Assay × activity type of the compounds' measurements, most compounds first. */
export async function assayGroups(db: Kysely<Database>, strIds: readonly number[]): Promise<EndpointGroupRow[]> {
  const { rows } = await probing(db, (trx) =>
    sql<EndpointGroupRow>`SELECT g.assay_id AS key, g.activity_type, s.description AS label_name, t.name AS target_name,
      t.gene_symbol, g.compounds, g.activities, g.with_pchembl, g.units
    FROM (SELECT a.assay_id, a.std_activity_type AS activity_type, count(DISTINCT a.str_id)::int AS compounds, count(*)::int AS activities,
        count(a.pchembl_value)::int AS with_pchembl, array_agg(DISTINCT a.standard_uom) AS units
      FROM ${idsTable(strIds)} JOIN activities a ON a.str_id = ids.str_id
      WHERE a.assay_id IS NOT NULL AND ${USABLE}
      GROUP BY a.assay_id, a.std_activity_type
      ORDER BY compounds DESC, activities DESC LIMIT ${SHEET_MAX_SUGGESTIONS}) g
    JOIN assays s ON s.assay_id = g.assay_id
    LEFT JOIN targets t ON t.target_id = s.target_id
    ORDER BY g.compounds DESC, g.activities DESC, g.assay_id, g.activity_type`.execute(trx),
  );
  return rows.map((row) => ({ ...row, key: Number(row.key) }));
}

/** What names an endpoint that was asked for (it may have no measurement among these compounds). */
export async function endpointNames(
  db: Kysely<Database>,
  endpoint: SheetEndpoint,
): Promise<{ labelName: string | null; targetName: string | null; geneSymbol: string | null } | null> {
  if (endpoint.kind === 'target') {
    const row = await db
      .selectFrom('targets')
      .select(['name', 'gene_symbol'])
      .where('target_id', '=', endpoint.targetId)
      .executeTakeFirst();
    return row ? { labelName: row.name, targetName: row.name, geneSymbol: row.gene_symbol } : null;
  }
  const { rows } = await sql<{ description: string | null; name: string | null; gene_symbol: string | null }>`
    SELECT s.description, t.name, t.gene_symbol FROM assays s LEFT JOIN targets t ON t.target_id = s.target_id
    WHERE s.assay_id = ${endpoint.assayId}`.execute(db);
  const row = rows[0];
  return row ? { labelName: row.description, targetName: row.name, geneSymbol: row.gene_symbol } : null;
}

export interface MeasurementRow {
  /** The endpoint's index in the list asked for. */
  endpoint: number;
  str_id: number;
  pchembl_value: number | null;
  activity_value: number | null;
  standard_uom: string | null;
  std_act_prefix: string | null;
}

/**
 * Every measurement of the compounds on the given endpoints, in str_id order: one pass over the
 * compounds' activities (each compound's read once however many endpoints), matched to the
 * endpoints (a target × type, or an assay × type) in the same query.
 */
export async function endpointMeasurements(
  db: Kysely<Database>,
  strIds: readonly number[],
  endpoints: readonly SheetEndpoint[],
): Promise<MeasurementRow[]> {
  if (!endpoints.length || !strIds.length) return [];
  const targets = endpoints.map((e) => (e.kind === 'target' ? e.targetId : null));
  const assays = endpoints.map((e) => (e.kind === 'assay' ? e.assayId : null));
  const types = endpoints.map((e) => e.activityType);
  const { rows } = await probing(db, (trx) =>
    sql<MeasurementRow>`SELECT e.i - 1 AS endpoint, a.str_id, a.pchembl_value, a.activity_value, a.standard_uom, a.std_act_prefix
    FROM ${idsTable(strIds)} JOIN activities a ON a.str_id = ids.str_id
    JOIN unnest(${targets}::bigint[], ${assays}::bigint[], ${types}::text[]) WITH ORDINALITY AS e(target_id, assay_id, type, i)
      ON a.std_activity_type = e.type
        AND (a.target_id = e.target_id OR e.target_id IS NULL) AND (a.assay_id = e.assay_id OR e.assay_id IS NULL)
    WHERE a.pchembl_value IS NOT NULL OR a.activity_value IS NOT NULL
    ORDER BY a.str_id, a.act_id`.execute(trx),
  );
  return rows.map((row) => ({
    endpoint: Number(row.endpoint),
    str_id: Number(row.str_id),
    pchembl_value: row.pchembl_value == null ? null : Number(row.pchembl_value),
    activity_value: row.activity_value == null ? null : Number(row.activity_value),
    standard_uom: row.standard_uom,
    std_act_prefix: row.std_act_prefix,
  }));
}

export interface FactsRow {
  str_id: number;
  mw: number | null;
  clogp: number | null;
  psa: number | null;
  hbd: number | null;
  hba: number | null;
  rotb: number | null;
  heavy_atoms: number | null;
}

/** The computed properties of the compounds, in str_id order. */
export async function compoundFacts(db: Kysely<Database>, strIds: readonly number[]): Promise<FactsRow[]> {
  const { rows } = await probing(db, (trx) =>
    sql<FactsRow>`SELECT s.str_id, s.mol_weight AS mw, s.logp_calc AS clogp, s.psa, s.hb_donors AS hbd,
      s.hb_acceptor AS hba, s.rot_bonds AS rotb, s.heavy_atoms
    FROM ${idsTable(strIds)} JOIN structures s ON s.str_id = ids.str_id ORDER BY s.str_id`.execute(trx),
  );
  return rows.map((row) => ({ ...row, str_id: Number(row.str_id) }));
}

/** What a page shows of its compounds: the structure and a name (the first named record's). */
export async function pageCompounds(
  db: Kysely<Database>,
  strIds: readonly number[],
): Promise<Map<number, { smiles: string; name: string | null }>> {
  if (!strIds.length) return new Map();
  const { rows } = await sql<{ str_id: number; smiles: string; name: string | null }>`SELECT s.str_id, s.canonical_smiles AS smiles,
      (SELECT c.name FROM compounds c WHERE c.str_id = s.str_id AND c.name IS NOT NULL ORDER BY c.gvk_id LIMIT 1) AS name
    FROM ${idsTable(strIds)} JOIN structures s ON s.str_id = ids.str_id`.execute(db);
  return new Map(rows.map((row) => [Number(row.str_id), { smiles: row.smiles, name: row.name }]));
}
