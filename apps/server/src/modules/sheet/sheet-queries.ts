import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { SheetEndpoint } from '@kb/contracts/sheet';
import { SHEET_MAX_SUGGESTIONS } from '@kb/contracts/sheet';
import type { Database } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';

/**
 * SQL of the sheet (docs/workspace.md "The sheet"). Every read is by the sheet's structure ids
 * through `activities (str_id, target_id, …)` (migration 0031), so a sheet reads its own
 * compounds' measurements and nothing else, whatever the size of the knowledge base.
 */

/** The ids as one array parameter, unnested: one plan whatever their number (an `IN` list of 100,000 would be parsed anew). */
const idsTable = (strIds: readonly number[]) => sql`unnest(${[...strIds]}::bigint[]) AS ids(str_id)`;

/** From this many compounds a sheet reads its measurements as two halves on two connections. */
const HALVES_FROM = 20_000;
/** Longest read of a sheet (PostgreSQL's statement_timeout inside its transaction). */
const READ_TIMEOUT_MS = 60_000;
/** PostgreSQL's SQLSTATE for a statement cancelled by statement_timeout. */
const QUERY_CANCELED = '57014';

/**
 * Runs reads by the sheet's ids as index probes, one per id. Given the ids as an array, the
 * planner knows their number but not that they are few of the table's rows per target: it hashes
 * them against a bitmap scan of a whole target (measured at M for 10,000 compounds: 670 ms for one
 * endpoint against 65 ms probing `activities (str_id, target_id, …)`), or scans the whole table
 * for the suggestions (880 ms against 200 ms).
 */
async function probing<T>(db: Kysely<Database>, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  try {
    return await db.transaction().execute(async (trx) => {
      // One round trip; the time-out because no sheet read may hold a connection and a core for minutes, whatever it was asked.
      await sql`SELECT set_config('statement_timeout', ${String(READ_TIMEOUT_MS)}, true), set_config('enable_hashjoin', 'off', true),
        set_config('enable_mergejoin', 'off', true), set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true),
        set_config('max_parallel_workers_per_gather', '0', true)`.execute(trx);
      return fn(trx);
    });
  } catch (error) {
    if ((error as { code?: string }).code === QUERY_CANCELED)
      throw badRequest(
        `Reading this sheet took longer than ${READ_TIMEOUT_MS / 1000} s. Choose fewer compounds (filter the results or tick rows) or fewer endpoints.`,
      );
    throw error;
  }
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
 * compounds' activities of the endpoints' types (each compound read once, however many endpoints),
 * matched to the endpoints here. Matching in SQL (a join to the endpoint list, with its "target or
 * assay" condition) let the planner probe every compound once per endpoint: 20 × 100,000 probes
 * at M ran for minutes.
 */
export async function endpointMeasurements(
  db: Kysely<Database>,
  strIds: readonly number[],
  endpoints: readonly SheetEndpoint[],
  halvesFrom = HALVES_FROM,
): Promise<MeasurementRow[]> {
  if (!endpoints.length || !strIds.length) return [];
  const index = new Map<string, number[]>();
  endpoints.forEach((e, i) => {
    const key = e.kind === 'target' ? `t${e.targetId}|${e.activityType}` : `a${e.assayId}|${e.activityType}`;
    index.set(key, [...(index.get(key) ?? []), i]);
  });
  const types = [...new Set(endpoints.map((e) => e.activityType))];
  const targets = endpoints.flatMap((e) => (e.kind === 'target' ? [e.targetId] : []));
  const assays = endpoints.flatMap((e) => (e.kind === 'assay' ? [e.assayId] : []));
  // One text for all rows (a row a line, tab-separated): 400,000 rows as objects cost Node seconds to build at M.
  const read = (part: readonly number[]) =>
    probing(db, (trx) =>
      sql<{
        packed: string | null;
      }>`SELECT string_agg(concat(a.str_id, E'\t', a.target_id, E'\t', a.assay_id, E'\t', a.std_activity_type, E'\t',
        a.pchembl_value, E'\t', a.activity_value, E'\t', translate(a.standard_uom, E'\t\n', '  '), E'\t', translate(a.std_act_prefix, E'\t\n', '  ')),
        E'\n' ORDER BY a.str_id, a.act_id) AS packed
    FROM ${idsTable(part)} JOIN activities a ON a.str_id = ids.str_id
    WHERE a.std_activity_type = ANY(${types}::text[]) AND (a.pchembl_value IS NOT NULL OR a.activity_value IS NOT NULL)
      AND (a.target_id = ANY(${targets}::bigint[]) OR a.assay_id = ANY(${assays}::bigint[]))`.execute(trx),
    ).then((result) => result.rows[0]?.packed);
  // A large sheet reads its two halves on two connections at once (PostgreSQL probes and packs; PGlite has one and takes them in turn).
  const parts = strIds.length > halvesFrom ? [strIds.slice(0, strIds.length >> 1), strIds.slice(strIds.length >> 1)] : [strIds];
  const packed = await Promise.all(parts.map(read));
  const out: MeasurementRow[] = [];
  for (const line of packed.flatMap(unpack)) {
    const [strId, targetId, assayId, type, pchembl, value, units, prefix] = line;
    const measurement = {
      str_id: Number(strId),
      pchembl_value: numberOrNull(pchembl),
      activity_value: numberOrNull(value),
      standard_uom: textOrNull(units),
      std_act_prefix: textOrNull(prefix),
    };
    for (const key of [`t${targetId}|${type}`, `a${assayId}|${type}`])
      for (const endpoint of index.get(key) ?? []) out.push({ endpoint, ...measurement });
  }
  return out;
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
    sql<{
      packed: string | null;
    }>`SELECT string_agg(concat(s.str_id, E'\t', s.mol_weight, E'\t', s.logp_calc, E'\t', s.psa, E'\t', s.hb_donors, E'\t',
        s.hb_acceptor, E'\t', s.rot_bonds, E'\t', s.heavy_atoms), E'\n' ORDER BY s.str_id) AS packed
    FROM ${idsTable(strIds)} JOIN structures s ON s.str_id = ids.str_id`.execute(trx),
  );
  return unpack(rows[0]?.packed).map(([strId, mw, clogp, psa, hbd, hba, rotb, heavy]) => ({
    str_id: Number(strId),
    mw: numberOrNull(mw),
    clogp: numberOrNull(clogp),
    psa: numberOrNull(psa),
    hbd: numberOrNull(hbd),
    hba: numberOrNull(hba),
    rotb: numberOrNull(rotb),
    heavy_atoms: numberOrNull(heavy),
  }));
}

/** Lines of tab-separated fields of a packed answer (`concat` writes NULL as an empty field). */
function unpack(packed: string | null | undefined): string[][] {
  return packed ? packed.split('\n').map((line) => line.split('\t')) : [];
}

function numberOrNull(field: string | undefined): number | null {
  return field === undefined || field === '' ? null : Number(field);
}

function textOrNull(field: string | undefined): string | null {
  return field === undefined || field === '' ? null : field;
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
