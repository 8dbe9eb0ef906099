import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import { LEAFLET_LIMITS, MEASURED_PROPERTIES, referenceLeafletLink } from '@kb/contracts/leaflets';
import type {
  CompoundLeaflet,
  DevelopmentCompound,
  FindDcmResponse,
  LeafletIdType,
  LeafletReferenceRow,
  MeasuredProperty,
  MeasuredPropertyKey,
  MeasuredValue,
  ReferenceActivity,
  ReferenceCompound,
  ReferenceDocument,
  ReferenceLeaflet,
  ReferenceSearchNote,
  TargetGroup,
} from '@kb/contracts/leaflets';
import type { Database } from '../../db/schema.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { LeafletScope } from './leaflet-scope.ts';
import { activityFilter, clinicalFilter, compoundFilter, compoundLeafletLink, requireStructure, resolveScope } from './leaflet-scope.ts';

type Sql = RawBuilder<unknown>;

/** The search a reference leaflet was opened from, once its owner was checked. */
export interface LeafletSession {
  id: string;
  status: string;
  setId: number;
  summary: string | null;
  /** The search's sets held in memory (nothing in its set tables), or null: join the set tables. */
  members: SearchMembership | null;
}

/** Membership in a search's sets held in memory (search/session-sets.ts `heldHas`). */
export interface SearchMembership {
  structure(strId: number): boolean;
  activity(actId: number): boolean;
}

/**
 * Activity types that are measurements of a physicochemical property (case-insensitive, as ChEMBL
 * and the demo data spell them): "Solubility", "Kinetic solubility", "logS"; "LogD", "LogD7.4";
 * "pKa", "pKa1". One regular expression each, so the leaflet and its test agree.
 */
export const MEASURED_PROPERTY_PATTERNS: Record<MeasuredPropertyKey, string> = {
  solubility: '(solubility|^log ?s$)',
  logd: '^log ?d',
  pka: '^pka',
};

/** Where the reference leaflet's rows come from, and whether only the search's part is wanted. */
interface ReferenceFilter {
  refId: number;
  /** Set id of a ready search, else null (no marks). */
  setId: number | null;
  /** The search's sets in memory, or null: its set tables. */
  members: SearchMembership | null;
  inSearchOnly: boolean;
}

/** Queries of the compound and reference leaflets. Every query starts from an indexed id. */
export class LeafletService {
  constructor(private readonly db: Kysely<Database>) {}

  // ------------------------------------------------------------ compound leaflet

  /** The compound leaflet of a structure, compound record or development compound; 404 when the id names nothing. */
  async compoundLeaflet(idType: LeafletIdType, id: number): Promise<CompoundLeaflet> {
    const scope = await resolveScope(this.db, idType, id);
    const structure = scope.strId === null ? undefined : await this.structureRow(scope.strId);
    const [compounds, synonyms, atc, activities, development, references, measured] = await Promise.all([
      this.compoundRecords(scope),
      this.synonyms(scope),
      this.atcClasses(scope),
      this.targetGroups(scope),
      this.developmentCompounds(scope),
      this.references(scope),
      this.measuredProperties(scope),
    ]);
    return {
      requested: { idType, id },
      link: compoundLeafletLink(scope, idType, id),
      structure: structure
        ? {
            str_id: structure.str_id,
            smiles: structure.smiles,
            canonical_smiles: structure.canonical_smiles,
            inchi: structure.inchi,
            inchikey: structure.inchikey,
            mol_formula: structure.mol_formula,
          }
        : null,
      properties: structure
        ? {
            mol_weight: structure.mol_weight,
            exact_mass: structure.exact_mass,
            logp_calc: structure.logp_calc,
            logd_calc: structure.logd_calc,
            psa: structure.psa,
            hb_donors: structure.hb_donors,
            hb_acceptor: structure.hb_acceptor,
            rot_bonds: structure.rot_bonds,
            heavy_atoms: structure.heavy_atoms,
            pka_value: structure.pka_value,
            solubility: structure.solubility,
          }
        : null,
      measured,
      compounds,
      synonyms,
      atc,
      activities,
      development,
      references,
    };
  }

  /** Whether a structure is a development compound (spec `findDCMOrNot`); 404 for an unknown structure. */
  async findDcm(strId: number): Promise<FindDcmResponse> {
    await requireStructure(this.db, strId);
    const rows = await this.db
      .selectFrom('clinical_compounds')
      .select('clinical_compound_id')
      .where('str_id', '=', strId)
      .orderBy('clinical_compound_id')
      .execute();
    const clinicalCompoundIds = rows.map((r) => Number(r.clinical_compound_id));
    return { isDcm: clinicalCompoundIds.length > 0, clinicalCompoundIds };
  }

  private async structureRow(strId: number) {
    return this.db
      .selectFrom('structures')
      .select([
        'str_id',
        'smiles',
        'canonical_smiles',
        'inchi',
        'inchikey',
        'mol_formula',
        'mol_weight',
        'exact_mass',
        'logp_calc',
        'logd_calc',
        'psa',
        'hb_donors',
        'hb_acceptor',
        'rot_bonds',
        'heavy_atoms',
        'pka_value',
        'solubility',
      ])
      .where('str_id', '=', strId)
      .executeTakeFirstOrThrow();
  }

  private async compoundRecords(scope: LeafletScope): Promise<CompoundLeaflet['compounds']> {
    const { rows } = await sql<CompoundLeaflet['compounds'][number]>`
      SELECT c.gvk_id, c.name, c.compound_category, c.cas_number, c.ref_id, ds.name AS data_source
      FROM compounds c LEFT JOIN data_sources ds ON ds.data_source_id = c.data_source_id
      WHERE ${compoundFilter(scope)}
      ORDER BY c.gvk_id`.execute(this.db);
    return rows;
  }

  /**
   * Solubility, logD and pKa the knowledge base holds as measurements (activities of
   * physicochemical assays) of the scope, by property: how many, and the first few with their
   * reference. Read from the scope's activities (the same index as the target groups).
   */
  private async measuredProperties(scope: LeafletScope): Promise<MeasuredProperty[]> {
    const property = sql`CASE ${sql.join(
      MEASURED_PROPERTIES.map((key) => sql`WHEN a.std_activity_type ~* ${MEASURED_PROPERTY_PATTERNS[key]} THEN ${key}`),
      sql` `,
    )} END`;
    const { rows } = await sql<MeasuredValue & { property: MeasuredPropertyKey; n: number }>`
      WITH m AS (
        SELECT a.act_id, a.std_activity_type, a.std_act_prefix, a.activity_value, a.standard_uom, a.parameter, a.target_id, a.ref_id,
          a.data_source_id, ${property} AS property
        FROM activities a
        WHERE ${activityFilter(scope)} AND a.std_activity_type IS NOT NULL
          AND a.std_activity_type ~* ${Object.values(MEASURED_PROPERTY_PATTERNS).join('|')}
      ), ranked AS (
        SELECT m.*, row_number() OVER (PARTITION BY m.property ORDER BY m.act_id) AS rn, count(*) OVER (PARTITION BY m.property)::int AS n FROM m
      )
      SELECT r.property, r.n, r.act_id, r.std_activity_type, r.std_act_prefix, r.activity_value, r.standard_uom, r.parameter, r.target_id, r.ref_id,
        CASE WHEN d.ref_type = 'patent' AND d.patent_no IS NOT NULL THEN d.patent_no
          WHEN d.journal_patent_name IS NOT NULL THEN d.journal_patent_name || coalesce(' (' || d.year || ')', '')
          ELSE coalesce(d.reference, d.title) END AS reference,
        d.year, ds.name AS data_source
      FROM ranked r
      LEFT JOIN documents d ON d.ref_id = r.ref_id
      LEFT JOIN data_sources ds ON ds.data_source_id = r.data_source_id
      WHERE r.rn <= ${LEAFLET_LIMITS.measuredValues}
      ORDER BY r.property, r.rn`.execute(this.db);
    return MEASURED_PROPERTIES.flatMap((key) => {
      const values = rows.filter((row) => row.property === key);
      if (values.length === 0) return [];
      return [{ property: key, count: values[0]!.n, values: values.map(({ property: _p, n: _n, ...value }) => value) }];
    });
  }

  /** ATC classes of the scope's compound records; the path names levels 1-4 (their codes are prefixes of the level-5 code). */
  private async atcClasses(scope: LeafletScope): Promise<CompoundLeaflet['atc']> {
    const { rows } = await sql<CompoundLeaflet['atc'][number]>`
      SELECT DISTINCT ac.code, ac.name,
        ARRAY(SELECT p.name FROM atc_classes p WHERE p.code IN (left(ac.code, 1), left(ac.code, 3), left(ac.code, 4), left(ac.code, 5))
          AND p.level < 5 ORDER BY p.level) AS path
      FROM compound_atc ca JOIN compounds c ON c.gvk_id = ca.gvk_id JOIN atc_classes ac ON ac.code = ca.atc_code
      WHERE ${compoundFilter(scope)}
      ORDER BY ac.code`.execute(this.db);
    return rows;
  }

  private async synonyms(scope: LeafletScope): Promise<CompoundLeaflet['synonyms']> {
    const { rows } = await sql<CompoundLeaflet['synonyms'][number]>`
      SELECT cs.gvk_id, cs.synonym, cs.syn_type
      FROM compounds c JOIN compound_synonyms cs ON cs.gvk_id = c.gvk_id
      WHERE ${compoundFilter(scope)}
      ORDER BY cs.syn_type, lower(cs.synonym), cs.gvk_id`.execute(this.db);
    return rows;
  }

  /**
   * Activities grouped by target, most measured first. Grouped before targets are joined, so a
   * structure with tens of thousands of activities joins only its few hundred targets.
   */
  private async targetGroups(scope: LeafletScope): Promise<CompoundLeaflet['activities']> {
    const { rows } = await sql<TargetGroup & { groups_total: number; targets_total: number; total: number }>`
      WITH g AS (
        SELECT a.target_id,
          count(*)::int AS activity_count,
          array_remove(array_agg(DISTINCT a.std_activity_type), NULL) AS activity_types,
          -- A censored value (> 30 uM) says the compound is weaker than that: not its best potency.
          -- Without a target (solubility, clearance ...) a lowest value is no potency at all.
          CASE WHEN a.target_id IS NULL THEN NULL
            ELSE min(a.micro_molarvalue) FILTER (WHERE coalesce(a.std_act_prefix, '=') IN ('=', '<', '<=', '~')) END AS best_micro_molarvalue,
          max(a.pchembl_value) AS best_pchembl
        FROM activities a
        WHERE ${activityFilter(scope)}
        GROUP BY a.target_id
      ), page AS (
        SELECT g.*, count(*) OVER ()::int AS groups_total, count(g.target_id) OVER ()::int AS targets_total,
          (sum(g.activity_count) OVER ())::int AS total
        FROM g
        ORDER BY g.activity_count DESC, g.best_pchembl DESC NULLS LAST, g.target_id NULLS LAST
        LIMIT ${LEAFLET_LIMITS.targetGroups}
      )
      SELECT page.target_id, t.name AS target_name, t.gene_symbol, t.uniprot_id, t.organism, page.activity_count, page.activity_types,
        page.best_micro_molarvalue, page.best_pchembl, page.groups_total, page.targets_total, page.total
      FROM page LEFT JOIN targets t ON t.target_id = page.target_id
      ORDER BY page.activity_count DESC, page.best_pchembl DESC NULLS LAST, page.target_id NULLS LAST`.execute(this.db);
    const first = rows[0];
    return {
      total: first?.total ?? 0,
      groupsTotal: first?.groups_total ?? 0,
      targetsTotal: first?.targets_total ?? 0,
      groups: rows.map(({ groups_total: _groups, targets_total: _targets, total: _total, ...group }) => ({
        ...group,
        activity_types: [...group.activity_types].sort(),
      })),
    };
  }

  private async developmentCompounds(scope: LeafletScope): Promise<DevelopmentCompound[]> {
    const { rows } = await sql<Omit<DevelopmentCompound, 'indications' | 'companies' | 'targets'>>`
      SELECT cc.clinical_compound_id, cc.str_id, cc.drug_name, p.name AS highest_phase, st.name AS status, cc.approval_year,
        cc.mode_of_action, cc.drug_dose, cc.remarks, cc.last_significant_update::text AS last_significant_update,
        cc.reason_with_drawn, cc.reason_with_drawn_category
      FROM clinical_compounds cc
      LEFT JOIN clinical_phases p ON p.phase_id = cc.highest_phase_id
      LEFT JOIN clinical_statuses st ON st.status_id = cc.status_id
      WHERE ${clinicalFilter(scope)}
      ORDER BY p.sort_order DESC NULLS LAST, cc.clinical_compound_id`.execute(this.db);
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.clinical_compound_id);
    const [indications, companies, targets] = await Promise.all([
      this.drugIndications(ids),
      this.drugCompanies(ids),
      this.drugTargets(ids),
    ]);
    const pick = <T extends { clinical_compound_id: number }>(list: T[], id: number) =>
      list.filter((row) => row.clinical_compound_id === id).map(({ clinical_compound_id: _id, ...rest }) => rest);
    return rows.map((row) => ({
      ...row,
      indications: pick(indications, row.clinical_compound_id),
      companies: pick(companies, row.clinical_compound_id),
      targets: pick(targets, row.clinical_compound_id),
    }));
  }

  private async drugIndications(ids: number[]) {
    const { rows } = await sql<{
      clinical_compound_id: number;
      indication_id: number;
      name: string;
      mesh_id: string | null;
      phase: string | null;
    }>`
      SELECT ci.clinical_compound_id, i.indication_id, i.name, i.mesh_id, p.name AS phase
      FROM clinical_compound_indications ci
      JOIN indications i ON i.indication_id = ci.indication_id
      LEFT JOIN clinical_phases p ON p.phase_id = ci.phase_id
      WHERE ci.clinical_compound_id = ANY(${ids}::bigint[])
      ORDER BY p.sort_order DESC NULLS LAST, i.name`.execute(this.db);
    return rows;
  }

  private async drugCompanies(ids: number[]) {
    const { rows } = await sql<{ clinical_compound_id: number; company_id: number; name: string; country: string | null }>`
      SELECT cco.clinical_compound_id, co.company_id, co.name, co.country
      FROM clinical_compound_companies cco JOIN companies co ON co.company_id = cco.company_id
      WHERE cco.clinical_compound_id = ANY(${ids}::bigint[])
      ORDER BY co.name`.execute(this.db);
    return rows;
  }

  private async drugTargets(ids: number[]) {
    const { rows } = await sql<{
      clinical_compound_id: number;
      target_id: number;
      name: string;
      gene_symbol: string | null;
      action_type: string | null;
      mechanism: string | null;
    }>`
      SELECT ct.clinical_compound_id, t.target_id, t.name, t.gene_symbol, ct.action_type, ct.mechanism
      FROM clinical_compound_targets ct JOIN targets t ON t.target_id = ct.target_id
      WHERE ct.clinical_compound_id = ANY(${ids}::bigint[])
      ORDER BY t.name`.execute(this.db);
    return rows;
  }

  /** Documents reached through the scope's activities and compound records, newest first. */
  private async references(scope: LeafletScope): Promise<CompoundLeaflet['references']> {
    const { rows } = await sql<Omit<LeafletReferenceRow, 'link'> & { total: number }>`
      WITH reached AS (
        SELECT a.ref_id, count(*)::int AS activity_count FROM activities a
        WHERE ${activityFilter(scope)} AND a.ref_id IS NOT NULL GROUP BY a.ref_id
        UNION ALL
        SELECT c.ref_id, 0 FROM compounds c WHERE ${compoundFilter(scope)} AND c.ref_id IS NOT NULL
      ), merged AS (
        SELECT ref_id, sum(activity_count)::int AS activity_count FROM reached GROUP BY ref_id
      )
      SELECT d.ref_id, d.ref_type, d.title, d.reference, d.journal_patent_name, d.year, d.doi, d.pubmed_id, d.patent_no,
        m.activity_count, count(*) OVER ()::int AS total
      FROM merged m JOIN documents d ON d.ref_id = m.ref_id
      ORDER BY d.year DESC NULLS LAST, d.ref_id DESC
      LIMIT ${LEAFLET_LIMITS.references}`.execute(this.db);
    return {
      total: rows[0]?.total ?? 0,
      rows: rows.map(({ total: _total, ...row }) => ({ ...row, link: referenceLeafletLink(row.ref_id) })),
    };
  }

  // ------------------------------------------------------------ reference leaflet

  /**
   * The reference leaflet. With a ready search session of the caller, marks which compounds
   * (search_structures) and activities (search_activities) of the reference are in that search,
   * and may keep only those. A session the link named but that is not usable (another user's, an
   * unknown one) opens the whole reference, with `searchNote` saying why.
   */
  async referenceLeaflet(
    refId: number,
    session: LeafletSession | null,
    requestedInSearchOnly: boolean,
    searchNote: ReferenceSearchNote | null = null,
  ): Promise<ReferenceLeaflet> {
    const ready = session?.status === 'ready';
    // "Only in this search" of a search that is not the caller's means nothing to them: the whole reference.
    const inSearchOnly = requestedInSearchOnly && searchNote === null;
    if (inSearchOnly && !session)
      throw badRequest('“Only in this search” needs the search session the reference was opened from (sessionid).');
    if (inSearchOnly && !ready) {
      throw badRequest(
        `“Only in this search” needs a search whose results are kept; this one is ${session?.status ?? 'unknown'}. Run the search again.`,
      );
    }
    const document = await this.documentRow(refId);
    const filter: ReferenceFilter = {
      refId,
      setId: ready && session ? session.setId : null,
      members: ready && session ? session.members : null,
      inSearchOnly,
    };
    const [authors, companies, compounds, activities] = await Promise.all([
      this.authors(refId),
      this.documentCompanies(refId),
      this.referenceCompounds(filter),
      this.referenceActivities(filter),
    ]);
    return {
      document,
      link: referenceLeafletLink(refId),
      authors,
      companies,
      session: session ? { sessionid: session.id, status: session.status, ready, summary: session.summary } : null,
      searchNote,
      inSearchOnly,
      compounds,
      activities,
    };
  }

  private async documentRow(refId: number): Promise<ReferenceDocument> {
    const { rows } = await sql<ReferenceDocument>`
      SELECT d.ref_id, d.ref_type, d.title, d.reference, d.journal_patent_name, d.year, d.volume, d.issue, d.start_page, d.end_page,
        d.issn_no, d.pubmed_id, d.doi, d.patent_no, d.country_code, d.application_type, d.abstract, ds.name AS data_source
      FROM documents d LEFT JOIN data_sources ds ON ds.data_source_id = d.data_source_id
      WHERE d.ref_id = ${refId}`.execute(this.db);
    const row = rows[0];
    if (!row) throw notFound(`No reference with id ${refId} in the knowledge base.`);
    return row;
  }

  private async authors(refId: number): Promise<string[]> {
    const rows = await this.db.selectFrom('document_authors').select('name').where('ref_id', '=', refId).orderBy('position').execute();
    return rows.map((r) => r.name);
  }

  private async documentCompanies(refId: number): Promise<ReferenceLeaflet['companies']> {
    return this.db
      .selectFrom('document_companies as dc')
      .innerJoin('companies as co', 'co.company_id', 'dc.company_id')
      .select(['co.company_id', 'co.name', 'co.address', 'co.country'])
      .where('dc.ref_id', '=', refId)
      .orderBy('co.name')
      .execute();
  }

  /**
   * The "in this search" mark of a reference's rows (`id` names the row's structure or activity):
   * none without a ready search; with the search's sets in memory, the reference's rows found in
   * them, sent as a list (a reference has at most some thousands); else a probe of the set table.
   */
  private async searchMark(
    filter: ReferenceFilter,
    of: 'structure' | 'activity',
    id: Sql,
    joinTable: (table: Sql) => Sql,
  ): Promise<{ value: Sql; join: Sql }> {
    if (filter.setId === null) return { value: sql`NULL::boolean`, join: sql`` };
    const members = filter.members;
    if (!members) {
      const table = of === 'structure' ? sql`search_structures` : sql`search_activities`;
      return { value: of === 'structure' ? sql`ss.str_id IS NOT NULL` : sql`sa.act_id IS NOT NULL`, join: joinTable(table) };
    }
    const { rows } = await referenceIds(filter.refId, of).execute(this.db);
    const isMember = of === 'structure' ? members.structure : members.activity;
    const inSearch = rows.map((row) => Number(row.id)).filter((value) => isMember(value));
    return { value: sql`(${id} = ANY(${inSearch}::bigint[]))`, join: sql`` };
  }

  /**
   * Structures the reference reports: those of its activities (activities_ref_idx) and of the
   * compound records it first reported. The in-search mark is a primary-key probe of the set.
   */
  private async referenceCompounds(filter: ReferenceFilter): Promise<ReferenceLeaflet['compounds']> {
    const { refId, setId } = filter;
    const mark = await this.searchMark(
      filter,
      'structure',
      sql`m.str_id`,
      (table) => sql`LEFT JOIN ${table} ss ON ss.set_id = ${setId} AND ss.str_id = m.str_id`,
    );
    const reported = sql`
      WITH reported AS (
        SELECT a.str_id, count(*)::int AS activity_count, min(a.compound_name_reference) AS label, min(a.gvk_id) AS gvk_id
        FROM activities a WHERE a.ref_id = ${refId} AND a.str_id IS NOT NULL GROUP BY a.str_id
        UNION ALL
        SELECT c.str_id, 0, NULL, c.gvk_id FROM compounds c WHERE c.ref_id = ${refId} AND c.str_id IS NOT NULL
      ), merged AS (
        SELECT str_id, sum(activity_count)::int AS activity_count, min(label) AS label, min(gvk_id) AS gvk_id FROM reported GROUP BY str_id
      ), marked AS (
        SELECT m.*, ${mark.value} AS in_search
        FROM merged m ${mark.join}
      )`;
    const counts = await sql<{ total: number; in_search: number }>`${reported}
      SELECT count(*)::int AS total, (count(*) FILTER (WHERE in_search))::int AS in_search FROM marked`.execute(this.db);
    const { rows } = await sql<ReferenceCompound>`${reported}, page AS (
        SELECT * FROM marked ${filter.inSearchOnly ? sql`WHERE in_search` : sql``}
        ORDER BY str_id LIMIT ${LEAFLET_LIMITS.referenceCompounds}
      )
      SELECT page.str_id, s.smiles,
        coalesce(c.name, (SELECT c2.name FROM compounds c2 WHERE c2.str_id = page.str_id AND c2.name IS NOT NULL ORDER BY c2.gvk_id LIMIT 1)) AS name,
        page.label, page.activity_count, page.in_search
      FROM page JOIN structures s ON s.str_id = page.str_id LEFT JOIN compounds c ON c.gvk_id = page.gvk_id
      ORDER BY page.str_id`.execute(this.db);
    return partOf(counts.rows[0], setId, rows);
  }

  /**
   * Activities the reference reports, by compound then act_id. The reference's rows are read
   * first (MATERIALIZED), so the planner never walks the whole table in act_id order hunting
   * for them; only the page shown is joined to its targets and assays.
   */
  private async referenceActivities(filter: ReferenceFilter): Promise<ReferenceLeaflet['activities']> {
    const { refId, setId } = filter;
    const mark = await this.searchMark(
      filter,
      'activity',
      sql`r.act_id`,
      (table) => sql`LEFT JOIN ${table} sa ON sa.set_id = ${setId} AND sa.act_id = r.act_id`,
    );
    const marked = sql`
      WITH of_ref AS MATERIALIZED (
        SELECT a.act_id, a.str_id FROM activities a WHERE a.ref_id = ${refId}
      ), marked AS (
        SELECT r.act_id, r.str_id, ${mark.value} AS in_search
        FROM of_ref r ${mark.join}
      )`;
    const counts = await sql<{ total: number; in_search: number }>`${marked}
      SELECT count(*)::int AS total, (count(*) FILTER (WHERE in_search))::int AS in_search FROM marked`.execute(this.db);
    const { rows } = await sql<ReferenceActivity>`${marked}, page AS (
        SELECT * FROM marked ${filter.inSearchOnly ? sql`WHERE in_search` : sql``}
        ORDER BY str_id NULLS LAST, act_id LIMIT ${LEAFLET_LIMITS.referenceActivities}
      )
      SELECT a.act_id, a.str_id, a.compound_name_reference AS compound_label, a.target_id, t.name AS target_name, t.gene_symbol,
        a.std_activity_type, a.std_act_prefix, a.activity_value, a.standard_uom, a.micro_molarvalue, a.pchembl_value,
        a.standardised, a.bei, a.sei, a.le, a.lle, a.parameter,
        a.assay_id, s.assay_type, s.description AS assay_description, page.in_search
      FROM page
      JOIN activities a ON a.act_id = page.act_id
      LEFT JOIN targets t ON t.target_id = a.target_id
      LEFT JOIN assays s ON s.assay_id = a.assay_id
      ORDER BY page.str_id NULLS LAST, page.act_id`.execute(this.db);
    return partOf(counts.rows[0], setId, rows);
  }
}

/** The reference's structures (of its activities and compound records) or activities: the rows a mark is asked for. */
function referenceIds(refId: number, of: 'structure' | 'activity') {
  return of === 'structure'
    ? sql<{ id: number }>`SELECT a.str_id AS id FROM activities a WHERE a.ref_id = ${refId} AND a.str_id IS NOT NULL
        UNION SELECT c.str_id FROM compounds c WHERE c.ref_id = ${refId} AND c.str_id IS NOT NULL`
    : sql<{ id: number }>`SELECT a.act_id AS id FROM activities a WHERE a.ref_id = ${refId}`;
}

function partOf<T>(counts: { total: number; in_search: number } | undefined, setId: number | null, rows: T[]) {
  return { total: counts?.total ?? 0, inSearch: setId === null ? null : (counts?.in_search ?? 0), rows };
}
