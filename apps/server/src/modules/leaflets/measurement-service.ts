import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import { referenceLeafletLink } from '@kb/contracts/leaflets';
import type {
  LeafletIdType,
  Measurement,
  MeasurementCondition,
  MeasurementList,
  MeasurementSort,
  MeasurementTarget,
} from '@kb/contracts/leaflets';
import type { Database } from '../../db/schema.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { LeafletScope } from './leaflet-scope.ts';
import { activityFilter, compoundLeafletLink, resolveScope } from './leaflet-scope.ts';

/** Which measurements a list (or its export) holds: the request as the contract reads it. */
export interface MeasurementSelection {
  idType: LeafletIdType;
  id?: number | undefined;
  actId?: number | undefined;
  targetId?: MeasurementTarget | undefined;
  assayId?: number | undefined;
  type?: string | undefined;
  sort: MeasurementSort;
  direction: 'asc' | 'desc';
}

/** The selection once its ids were checked: the compound, the target part and the type. */
export interface ResolvedSelection {
  scope: LeafletScope;
  compound: MeasurementList['compound'];
  targetScope: MeasurementList['targetScope'];
  target: MeasurementList['target'];
  type: string | null;
  assayId: number | null;
  sort: MeasurementSort;
  direction: 'asc' | 'desc';
}

type Sql = RawBuilder<unknown>;

/** The order of each sort (unknown values last both ways; the activity id breaks ties). */
function orderBy(sort: MeasurementSort, direction: 'asc' | 'desc'): Sql {
  const dir = direction === 'asc' ? sql`ASC` : sql`DESC`;
  switch (sort) {
    case 'value':
      // Concentrations by their µM value; other units (%, cm/s …) after them, by their own value.
      return sql`a.micro_molarvalue ${dir} NULLS LAST, a.activity_value ${dir} NULLS LAST, a.act_id ${dir}`;
    case 'pchembl':
      return sql`a.pchembl_value ${dir} NULLS LAST, a.act_id ${dir}`;
    case 'type':
      return sql`a.std_activity_type ${dir} NULLS LAST, a.micro_molarvalue ASC NULLS LAST, a.activity_value ASC NULLS LAST, a.act_id`;
    case 'year':
      return sql`d.year ${dir} NULLS LAST, a.act_id ${dir}`;
    case 'measurement':
      return sql`a.act_id ${dir}`;
  }
}

/** The assay fields that are conditions of the measurement (concentration / unit / prefix quadruples and single values). */
const CONDITION_FIELDS = [
  ['substrate', 'Substrate'],
  ['radio_ligand', 'Radioligand'],
  ['in_presence_of', 'In presence of'],
  ['co_administered', 'Co-administered'],
  ['buffer', 'Buffer'],
] as const;

interface MeasurementRow extends Omit<Measurement, 'conditions' | 'reference_link'> {
  [key: string]: unknown;
}

function conditionsOf(row: Record<string, unknown>, parameters: readonly ParameterRow[]): MeasurementCondition[] {
  const list: MeasurementCondition[] = [];
  const text = (key: string) => (typeof row[key] === 'string' && row[key] !== '' ? (row[key] as string) : null);
  const num = (key: string) => (typeof row[key] === 'number' ? (row[key] as number) : null);
  for (const [field, label] of CONDITION_FIELDS) {
    const name = text(field);
    const value = num(`${field}_conc`);
    if (name === null && value === null) continue;
    list.push({ label, text: name, relation: text(`${field}_prefix`), value, unit: text(`${field}_uom`) });
  }
  if (num('incubation_time') !== null)
    list.push({
      label: 'Incubation time',
      text: null,
      relation: text('incubation_time_prefix'),
      value: num('incubation_time'),
      unit: text('incubation_time_uom'),
    });
  if (num('temperature') !== null)
    list.push({
      label: 'Temperature',
      text: null,
      relation: text('temperature_prefix'),
      value: num('temperature'),
      unit: text('temperature_uom'),
    });
  if (num('ph') !== null) list.push({ label: 'pH', text: null, relation: null, value: num('ph'), unit: null });
  if (text('mutant')) list.push({ label: 'Mutant', text: text('mutant'), relation: null, value: null, unit: null });
  if (row.wild_type !== null && row.wild_type !== undefined)
    list.push({ label: 'Wild type', text: row.wild_type ? 'yes' : 'no', relation: null, value: null, unit: null });
  for (const p of parameters) {
    // The standardised form where ChEMBL gives one, else the published one.
    const standard = p.standard_value !== null || p.standard_text_value !== null;
    list.push({
      label: p.standard_type ?? p.param_type,
      relation: standard ? p.standard_relation : p.relation,
      value: standard ? p.standard_value : p.value,
      unit: standard ? p.standard_units : p.units,
      text:
        [standard ? p.standard_text_value : p.text_value, p.comments].filter((part) => part !== null && part !== '').join(' · ') || null,
    });
  }
  return list;
}

interface ParameterRow {
  assay_id: number;
  param_type: string;
  relation: string | null;
  value: number | null;
  units: string | null;
  text_value: string | null;
  standard_type: string | null;
  standard_relation: string | null;
  standard_value: number | null;
  standard_units: string | null;
  standard_text_value: string | null;
  comments: string | null;
}

/**
 * Measurement lists (docs/leaflets.md "Measurement list"): the activities of one compound on one
 * target, none or all. Every query starts from an index: the structure and target
 * (activities_str_target_idx, which also counts them and hands them over in value order), the
 * compound records (activities_gvk_idx) or the activity (primary key); only the page shown is
 * joined to assays, targets and references.
 */
export class MeasurementService {
  constructor(private readonly db: Kysely<Database>) {}

  /** Checks the selection's ids (404 for an unknown compound, activity or target) and says what it lists. */
  async resolve(selection: MeasurementSelection): Promise<ResolvedSelection> {
    let idType = selection.idType;
    let id = selection.id;
    let target: MeasurementTarget | undefined = selection.targetId;
    let scope: LeafletScope;
    if (selection.actId !== undefined) {
      const activity = await this.db
        .selectFrom('activities')
        .select(['str_id', 'gvk_id', 'target_id'])
        .where('act_id', '=', selection.actId)
        .executeTakeFirst();
      if (!activity) throw notFound(`No activity with id ${selection.actId} in the knowledge base.`);
      if (activity.str_id !== null) {
        idType = 'structure';
        id = Number(activity.str_id);
        scope = { strId: id, gvkIds: [], clinicalIds: [] };
      } else if (activity.gvk_id !== null) {
        idType = 'compound';
        id = Number(activity.gvk_id);
        scope = { strId: null, gvkIds: [id], clinicalIds: [] };
      } else {
        throw notFound(`Activity ${selection.actId} names no compound, so it has no measurement list.`);
      }
      target ??= activity.target_id === null ? 'none' : Number(activity.target_id);
    } else {
      if (id === undefined) throw badRequest('Name the compound (id, with idType) or one of its measurements (actId).', { field: 'id' });
      scope = await resolveScope(this.db, idType, id);
    }
    target ??= 'all';
    let targetRow: MeasurementList['target'] = null;
    if (typeof target === 'number') {
      const row = await this.db
        .selectFrom('targets')
        .select(['target_id', 'name', 'gene_symbol', 'uniprot_id', 'organism', 'target_type'])
        .where('target_id', '=', target)
        .executeTakeFirst();
      if (!row) throw notFound(`No target with id ${target} in the knowledge base.`);
      targetRow = { ...row, target_id: Number(row.target_id) };
    }
    return {
      scope,
      compound: { idType, id, str_id: scope.strId, name: await this.compoundName(scope), link: compoundLeafletLink(scope, idType, id) },
      targetScope: typeof target === 'number' ? 'target' : target,
      target: targetRow,
      type: selection.type ?? null,
      assayId: selection.assayId ?? null,
      sort: selection.sort,
      direction: selection.direction,
    };
  }

  /** The name a chemist knows the compound by: a development compound's drug name, else a record's name. */
  private async compoundName(scope: LeafletScope): Promise<string | null> {
    const byStructure = scope.strId !== null;
    const { rows } = await sql<{ name: string | null }>`SELECT coalesce(
        (SELECT cc.drug_name FROM clinical_compounds cc WHERE ${byStructure ? sql`cc.str_id = ${scope.strId}` : sql`cc.clinical_compound_id = ANY(${scope.clinicalIds}::bigint[]) OR cc.gvk_id = ANY(${scope.gvkIds}::bigint[])`}
          ORDER BY cc.clinical_compound_id LIMIT 1),
        (SELECT c.name FROM compounds c WHERE ${byStructure ? sql`c.str_id = ${scope.strId}` : sql`c.gvk_id = ANY(${scope.gvkIds}::bigint[])`} AND c.name IS NOT NULL
          ORDER BY c.gvk_id LIMIT 1)) AS name`.execute(this.db);
    return rows[0]?.name ?? null;
  }

  /** The measurements of the compound on the target part, before the type filter. */
  private where(resolved: ResolvedSelection, withType: boolean): Sql {
    const parts: Sql[] = [activityFilter(resolved.scope)];
    if (resolved.targetScope === 'target') parts.push(sql`a.target_id = ${resolved.target!.target_id}`);
    else if (resolved.targetScope === 'none') parts.push(sql`a.target_id IS NULL`);
    if (resolved.assayId !== null) parts.push(sql`a.assay_id = ${resolved.assayId}`);
    if (withType && resolved.type !== null) parts.push(sql`a.std_activity_type = ${resolved.type}`);
    return sql.join(parts, sql` AND `);
  }

  /** How many there are, by activity type (one pass over the index). */
  async counts(resolved: ResolvedSelection): Promise<Pick<MeasurementList, 'total' | 'matching' | 'types'>> {
    const { rows } = await sql<{ type: string | null; count: number }>`
      SELECT a.std_activity_type AS type, count(*)::int AS count FROM activities a WHERE ${this.where(resolved, false)}
      GROUP BY a.std_activity_type ORDER BY count(*) DESC, a.std_activity_type NULLS LAST`.execute(this.db);
    const total = rows.reduce((sum, row) => sum + row.count, 0);
    const matching = resolved.type === null ? total : (rows.find((row) => row.type === resolved.type)?.count ?? 0);
    return { total, matching, types: rows };
  }

  /** One page of the measurements, in the selection's sort, with their assay, conditions and reference. */
  async rows(resolved: ResolvedSelection, limit: number, offset: number): Promise<Measurement[]> {
    const order = orderBy(resolved.sort, resolved.direction);
    const byYear = resolved.sort === 'year';
    const { rows } = await sql<MeasurementRow>`
      WITH page AS (
        SELECT a.act_id FROM activities a ${byYear ? sql`LEFT JOIN documents d ON d.ref_id = a.ref_id` : sql``}
        WHERE ${this.where(resolved, true)}
        ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}
      )
      SELECT a.act_id, a.str_id, a.gvk_id, a.compound_name_reference AS compound_label,
        a.target_id, t.name AS target_name, t.gene_symbol,
        a.std_activity_type, a.std_act_prefix, a.activity_value, a.standard_uom, a.micro_molarvalue, a.pchembl_value, a.standardised,
        a.activity_type, a.activity_prefix, a.activity, a.activity_uom, a.activity_text, a.activity_remarks, a.data_validity_comment,
        a.activity_mechanism, a.parameter, a.sd, a.le, a.lle,
        a.assay_id, ay.chembl_id AS assay_chembl_id, ay.assay_type, ay.description AS assay_description, ay.enzyme_cell_assay, ay.assay_method_name,
        ay.organism, ay.strain, coalesce(ay.cells_cellline_organ, cl.name) AS cell_line, ay.tissue,
        ay.substrate, ay.substrate_conc, ay.substrate_uom, ay.substrate_prefix,
        ay.radio_ligand, ay.radio_ligand_conc, ay.radio_ligand_uom, ay.radio_ligand_prefix,
        ay.in_presence_of, ay.in_presence_of_conc, ay.in_presence_of_uom, ay.in_presence_of_prefix,
        ay.co_administered, ay.co_administered_conc, ay.co_administered_uom, ay.co_administered_prefix,
        ay.buffer, ay.buffer_conc, ay.buffer_uom, ay.buffer_prefix,
        ay.incubation_time, ay.incubation_time_uom, ay.incubation_time_prefix, ay.temperature, ay.temperature_uom, ay.temperature_prefix,
        ay.ph, ay.mutant, ay.wild_type,
        a.ref_id, d.ref_type, d.title AS ref_title,
        coalesce(d.reference, CASE WHEN d.ref_type = 'patent' THEN d.patent_no ELSE d.journal_patent_name || coalesce(' (' || d.year || ')', '') END) AS reference,
        d.year, d.doi, d.pubmed_id, ds.name AS data_source
      FROM page
      JOIN activities a ON a.act_id = page.act_id
      LEFT JOIN targets t ON t.target_id = a.target_id
      LEFT JOIN assays ay ON ay.assay_id = a.assay_id
      LEFT JOIN cell_lines cl ON cl.cell_line_id = ay.cell_line_id
      LEFT JOIN documents d ON d.ref_id = a.ref_id
      LEFT JOIN data_sources ds ON ds.data_source_id = a.data_source_id
      ORDER BY ${order}`.execute(this.db);
    const assayIds = [...new Set(rows.map((row) => row.assay_id).filter((id): id is number => id !== null))];
    const parameters = assayIds.length
      ? (
          await sql<ParameterRow>`SELECT assay_id, param_type, relation, value, units, text_value, standard_type, standard_relation, standard_value, standard_units,
              standard_text_value, comments
            FROM assay_parameters WHERE assay_id = ANY(${assayIds}::bigint[]) ORDER BY assay_id, param_type, assay_param_id`.execute(
            this.db,
          )
        ).rows
      : [];
    // Grouped once: an export reads 25,000 rows, each looking its assay's parameters up.
    const byAssay = new Map<number, ParameterRow[]>();
    for (const p of parameters) {
      const group = byAssay.get(Number(p.assay_id));
      if (group) group.push(p);
      else byAssay.set(Number(p.assay_id), [p]);
    }
    return rows.map((row) => measurementOf(row, byAssay.get(Number(row.assay_id)) ?? []));
  }

  /** A page of the list (GET …/measurements). */
  async list(selection: MeasurementSelection & { page: number; pageSize: number }): Promise<MeasurementList> {
    const resolved = await this.resolve(selection);
    const [counts, rows] = await Promise.all([
      this.counts(resolved),
      this.rows(resolved, selection.pageSize, selection.page * selection.pageSize),
    ]);
    return {
      compound: resolved.compound,
      targetScope: resolved.targetScope,
      target: resolved.target,
      type: resolved.type,
      assayId: resolved.assayId,
      ...counts,
      sort: resolved.sort,
      direction: resolved.direction,
      page: selection.page,
      pageSize: selection.pageSize,
      rows,
    };
  }
}

const MEASUREMENT_KEYS = [
  'act_id',
  'str_id',
  'gvk_id',
  'compound_label',
  'target_id',
  'target_name',
  'gene_symbol',
  'std_activity_type',
  'std_act_prefix',
  'activity_value',
  'standard_uom',
  'micro_molarvalue',
  'pchembl_value',
  'standardised',
  'activity_type',
  'activity_prefix',
  'activity',
  'activity_uom',
  'activity_text',
  'activity_remarks',
  'data_validity_comment',
  'activity_mechanism',
  'parameter',
  'sd',
  'le',
  'lle',
  'assay_id',
  'assay_chembl_id',
  'assay_type',
  'assay_description',
  'enzyme_cell_assay',
  'assay_method_name',
  'organism',
  'strain',
  'cell_line',
  'tissue',
  'ref_id',
  'ref_type',
  'ref_title',
  'reference',
  'year',
  'doi',
  'pubmed_id',
  'data_source',
] as const satisfies readonly (keyof Measurement)[];

const ID_KEYS = new Set(['act_id', 'str_id', 'gvk_id', 'target_id', 'assay_id', 'ref_id', 'pubmed_id', 'year']);

function measurementOf(row: MeasurementRow, parameters: readonly ParameterRow[]): Measurement {
  const out: Record<string, unknown> = {};
  // bigint columns come back as strings from some drivers: ids are numbers in the contract.
  for (const key of MEASUREMENT_KEYS)
    out[key] = ID_KEYS.has(key) && row[key] !== null && row[key] !== undefined ? Number(row[key]) : (row[key] ?? null);
  out.standardised = row.standardised !== false;
  out.conditions = conditionsOf(row, parameters);
  out.reference_link = row.ref_id === null ? null : referenceLeafletLink(Number(row.ref_id));
  return out as Measurement;
}
