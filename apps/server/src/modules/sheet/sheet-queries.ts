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

/**
 * Measurements of one target × type or assay × type among a sheet's compounds, counted. Types are
 * grouped without case (`typeKey`, lower-cased, as the columns in memory hold them); the type as
 * written is `activityType` when the read knows it, else that of the activity `sampleActId`.
 */
export interface EndpointGroup {
  key: number;
  typeKey: string;
  activityType?: string;
  sampleActId?: number;
  compounds: number;
  activities: number;
  with_pchembl: number;
  units: (string | null)[];
}

/** A group with the names that label it (the suggestions' rows). */
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

/**
 * Target × type (or assay × type) of the compounds' usable measurements from the database, most
 * compounds first (ties: most measurements, then key and type), as sheet-memory.ts `memoryGroups` counts them.
 */
export async function sqlGroups(db: Kysely<Database>, strIds: readonly number[], kind: SheetEndpoint['kind']): Promise<EndpointGroup[]> {
  const column = kind === 'target' ? sql.ref('a.target_id') : sql.ref('a.assay_id');
  const { rows } = await probing(db, (trx) =>
    sql<EndpointGroup>`SELECT ${column} AS key, lower(a.std_activity_type) AS "typeKey", min(a.std_activity_type) AS "activityType",
        count(DISTINCT a.str_id)::int AS compounds, count(*)::int AS activities, count(a.pchembl_value)::int AS with_pchembl,
        array_agg(DISTINCT a.standard_uom) AS units
      FROM ${idsTable(strIds)} JOIN activities a ON a.str_id = ids.str_id
      WHERE ${column} IS NOT NULL AND ${USABLE}
      GROUP BY 1, 2
      ORDER BY compounds DESC, activities DESC, 1, lower(a.std_activity_type) COLLATE "C" LIMIT ${SHEET_MAX_SUGGESTIONS}`.execute(trx),
  );
  return rows.map((row) => ({ ...row, key: Number(row.key) }));
}

/**
 * The groups with their targets' or assays' names and their types as written, in the order the
 * picker shows them: most compounds first, then most measurements, then by target name (or assay
 * id) and type. A group whose target or assay is gone is left out.
 */
export async function labelGroups(
  db: Kysely<Database>,
  kind: SheetEndpoint['kind'],
  groups: readonly EndpointGroup[],
): Promise<EndpointGroupRow[]> {
  if (!groups.length) return [];
  const keys = [...new Set(groups.map((group) => group.key))];
  const samples = groups.flatMap((group) =>
    group.activityType === undefined && group.sampleActId !== undefined ? [group.sampleActId] : [],
  );
  const [names, written] = await Promise.all([
    kind === 'target'
      ? sql<NameRow>`SELECT t.target_id AS key, t.name AS label_name, t.name AS target_name, t.gene_symbol
          FROM targets t WHERE t.target_id = ANY(${keys}::bigint[])`.execute(db)
      : sql<NameRow>`SELECT s.assay_id AS key, s.description AS label_name, t.name AS target_name, t.gene_symbol
          FROM assays s LEFT JOIN targets t ON t.target_id = s.target_id WHERE s.assay_id = ANY(${keys}::bigint[])`.execute(db),
    samples.length
      ? sql<{ act_id: number; std_activity_type: string }>`SELECT act_id, std_activity_type FROM activities
          WHERE act_id = ANY(${samples}::bigint[])`.execute(db)
      : Promise.resolve({ rows: [] }),
  ]);
  const nameOf = new Map(names.rows.map((row) => [Number(row.key), row]));
  const typeOf = new Map(written.rows.map((row) => [Number(row.act_id), row.std_activity_type]));
  const rows = groups.flatMap((group): EndpointGroupRow[] => {
    const name = nameOf.get(group.key);
    if (!name) return [];
    const activityType =
      group.activityType ?? (group.sampleActId !== undefined ? typeOf.get(group.sampleActId) : undefined) ?? group.typeKey;
    const { key, compounds, activities, with_pchembl, units } = group;
    return [
      {
        key,
        activity_type: activityType,
        label_name: name.label_name,
        target_name: name.target_name,
        gene_symbol: name.gene_symbol,
        compounds,
        activities,
        with_pchembl,
        units,
      },
    ];
  });
  const tie = (a: EndpointGroupRow, b: EndpointGroupRow) =>
    kind === 'target' ? (a.target_name ?? '').localeCompare(b.target_name ?? '') : a.key - b.key;
  return rows.sort(
    (a, b) => b.compounds - a.compounds || b.activities - a.activities || tie(a, b) || a.activity_type.localeCompare(b.activity_type),
  );
}

interface NameRow {
  key: number;
  label_name: string | null;
  target_name: string | null;
  gene_symbol: string | null;
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
  str_id: number;
  /** pchembl_value, activity_value, standard_uom and std_act_prefix: a sheet-values.ts `Measurement` as it is. */
  pchembl: number | null;
  value: number | null;
  units: string | null;
  relation: string | null;
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
): Promise<MeasurementRow[][]> {
  const out: MeasurementRow[][] = endpoints.map(() => []);
  if (!endpoints.length || !strIds.length) return out;
  const index = new Map<string, number[]>();
  endpoints.forEach((e, i) => {
    const type = e.activityType.toLowerCase();
    const key = e.kind === 'target' ? `t${e.targetId}|${type}` : `a${e.assayId}|${type}`;
    index.set(key, [...(index.get(key) ?? []), i]);
  });
  const types = [...new Set(endpoints.map((e) => e.activityType.toLowerCase()))];
  const targets = endpoints.flatMap((e) => (e.kind === 'target' ? [e.targetId] : []));
  const assays = endpoints.flatMap((e) => (e.kind === 'assay' ? [e.assayId] : []));
  // One text for all rows (a row a line, tab-separated): 400,000 rows as objects cost Node seconds to build at M.
  const read = (part: readonly number[]) =>
    probing(db, (trx) =>
      sql<{
        packed: string | null;
      }>`SELECT string_agg(concat(a.str_id, E'\t', a.target_id, E'\t', a.assay_id, E'\t', lower(a.std_activity_type), E'\t',
        a.pchembl_value, E'\t', a.activity_value, E'\t', translate(a.standard_uom, E'\t\n', '  '), E'\t', translate(a.std_act_prefix, E'\t\n', '  ')),
        E'\n' ORDER BY a.str_id, a.act_id) AS packed
    FROM ${idsTable(part)} JOIN activities a ON a.str_id = ids.str_id
    WHERE lower(a.std_activity_type) = ANY(${types}::text[]) AND (a.pchembl_value IS NOT NULL OR a.activity_value IS NOT NULL)
      AND (a.target_id = ANY(${targets}::bigint[]) OR a.assay_id = ANY(${assays}::bigint[]))`.execute(trx),
    ).then((result) => result.rows[0]?.packed);
  // A large sheet reads its two halves on two connections at once (PostgreSQL probes and packs; PGlite has one and takes them in turn).
  const parts = strIds.length > halvesFrom ? [strIds.slice(0, strIds.length >> 1), strIds.slice(strIds.length >> 1)] : [strIds];
  const packed = await Promise.all(parts.map(read));
  for (const line of packed.flatMap(unpack)) {
    const [strId, targetId, assayId, type, pchembl, value, units, prefix] = line;
    const measurement = {
      str_id: Number(strId),
      pchembl: numberOrNull(pchembl),
      value: numberOrNull(value),
      units: textOrNull(units),
      relation: textOrNull(prefix),
    };
    for (const key of [`t${targetId}|${type}`, `a${assayId}|${type}`])
      for (const endpoint of index.get(key) ?? []) out[endpoint]!.push(measurement);
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
