import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { ExportJobSchema } from './exports.ts';
import { EXPORT_ROLES, SEARCH_ROLES } from './roles.ts';

/**
 * Compound and reference leaflets (spec §2 `/leaflet/{idType}/{id}`, `/leafletreference/{sid}/{rid}`,
 * §7 `security/leafletview/compound/{id}`, `results/leafletview/dcm/findDCMOrNot/{id}`), their
 * permanent links (`/leaflet/reference/{rid}`) and the measurement list behind a potency.
 * Rows use the spec's snake_case column names (§3); the containers around them are camelCase.
 * What each leaflet shows: docs/leaflets.md.
 */

// ---------------------------------------------------------------- ids

/**
 * What the id of `/leaflet/{idType}/{id}` names: a structure (str_id), a compound record (gvk_id)
 * or a development compound (clinical_compound_id). A compound or development compound with a
 * structure shows the leaflet of that structure.
 */
export const LEAFLET_ID_TYPES = ['structure', 'compound', 'dcm'] as const;
export type LeafletIdType = (typeof LEAFLET_ID_TYPES)[number];
export const LEAFLET_ID_TYPE_LABELS: Record<LeafletIdType, string> = {
  structure: 'structure',
  compound: 'compound record',
  dcm: 'development compound',
};

/** `sid` values of `/leafletreference/{sid}/{rid}` that mean "not opened from a search". */
export const NO_SESSION_SIDS = ['0', 'none', ''] as const;

/** The search session a `sid` route parameter names, or null for "no search". */
export function sessionIdFromSid(sid: string | undefined | null): string | null {
  if (sid === undefined || sid === null || (NO_SESSION_SIDS as readonly string[]).includes(sid)) return null;
  return sid;
}

/** A search session id as the search page makes them (a UUID). */
export const SESSION_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The permanent, session-free links of the leaflets: what grids, lists, exports and the API offer.
 * A reference leaflet may carry the search it was opened from as `?sid=`; the page uses it only
 * when that search is the viewer's own (docs/leaflets.md "Links that last").
 */
export function structureLeafletLink(strId: number): string {
  return `/leaflet/structure/${strId}`;
}

export function referenceLeafletLink(refId: number, sessionId: string | null = null): string {
  return `/leaflet/reference/${refId}${sessionId ? `?sid=${encodeURIComponent(sessionId)}` : ''}`;
}

const PositiveId = z.coerce
  .number({ message: 'The id must be a whole number above zero' })
  .int('The id must be a whole number above zero')
  .positive('The id must be a whole number above zero')
  .max(Number.MAX_SAFE_INTEGER, 'The id is too large');

/** Caps that keep a leaflet one quick page even for a structure measured thousands of times. */
export const LEAFLET_LIMITS = {
  /** Target groups of a compound leaflet. */
  targetGroups: 200,
  /** References of a compound leaflet. */
  references: 200,
  /** Compounds of a reference leaflet. */
  referenceCompounds: 500,
  /** Activities of a reference leaflet. */
  referenceActivities: 500,
  /** Measured solubility / logD / pKa values shown per property in the Properties panel. */
  measuredValues: 3,
} as const;

// ---------------------------------------------------------------- compound leaflet

export const CompoundLeafletParamsSchema = z.object({ id: PositiveId });
export const CompoundLeafletQuerySchema = z.object({
  idType: z.enum(LEAFLET_ID_TYPES, { message: 'idType must be structure, compound or dcm' }).default('structure'),
});

const Num = z.number().nullable();
const Str = z.string().nullable();
const Int = z.number().int().nullable();

export const LeafletStructureSchema = z.object({
  str_id: z.number().int(),
  smiles: z.string(),
  canonical_smiles: z.string(),
  inchi: Str,
  inchikey: Str,
  mol_formula: Str,
});

/** Computed properties; logd_calc, pka_value and solubility are null unless a source gave them. */
export const LeafletPropertiesSchema = z.object({
  mol_weight: Num,
  exact_mass: Num,
  logp_calc: Num,
  logd_calc: Num,
  psa: Num,
  hb_donors: Int,
  hb_acceptor: Int,
  rot_bonds: Int,
  heavy_atoms: Int,
  pka_value: Num,
  solubility: Num,
});
export type LeafletProperties = z.infer<typeof LeafletPropertiesSchema>;

/** Properties a source measures as activities (physicochemical assays) rather than computes. */
export const MEASURED_PROPERTIES = ['solubility', 'logd', 'pka'] as const;
export type MeasuredPropertyKey = (typeof MEASURED_PROPERTIES)[number];

/** One measured value of a property: the activity, with where it was published. */
export const MeasuredValueSchema = z.object({
  act_id: z.number().int(),
  /** The activity type as the source reports it ("Solubility", "LogD7.4", "pKa1"). */
  std_activity_type: z.string(),
  std_act_prefix: Str,
  activity_value: Num,
  standard_uom: Str,
  parameter: Str,
  /** The target of the activity (ADME assays often have none): the measurement list opens there. */
  target_id: Int,
  ref_id: Int,
  /** Short citation of the reference ("J Med Chem (2012)", a patent number), else its title. */
  reference: Str,
  year: Int,
  data_source: Str,
});
export type MeasuredValue = z.infer<typeof MeasuredValueSchema>;

/** A property the knowledge base holds measurements of, for this compound: how many, and the first few. */
export const MeasuredPropertySchema = z.object({
  property: z.enum(MEASURED_PROPERTIES),
  count: z.number().int(),
  values: z.array(MeasuredValueSchema),
});
export type MeasuredProperty = z.infer<typeof MeasuredPropertySchema>;

export const LeafletCompoundRecordSchema = z.object({
  gvk_id: z.number().int(),
  name: Str,
  compound_category: Str,
  cas_number: Str,
  /** The document that first reported this record. */
  ref_id: Int,
  data_source: Str,
});

export const LeafletSynonymSchema = z.object({ gvk_id: z.number().int(), synonym: z.string(), syn_type: z.string() });

/** The activities of the compound on one target (target_id null: assays without a protein target, e.g. ADME). */
export const TargetGroupSchema = z.object({
  target_id: Int,
  target_name: Str,
  gene_symbol: Str,
  uniprot_id: Str,
  organism: Str,
  activity_count: z.number().int(),
  activity_types: z.array(z.string()),
  /** Lowest µM value reported as exact or as an upper bound (=, <, <=, ~): the best potency (null for the no-target group). */
  best_micro_molarvalue: Num,
  best_pchembl: Num,
});
export type TargetGroup = z.infer<typeof TargetGroupSchema>;

export const DevelopmentCompoundSchema = z.object({
  clinical_compound_id: z.number().int(),
  str_id: Int,
  drug_name: z.string(),
  highest_phase: Str,
  status: Str,
  approval_year: Int,
  mode_of_action: Str,
  drug_dose: Str,
  remarks: Str,
  /** ISO date (YYYY-MM-DD). */
  last_significant_update: Str,
  reason_with_drawn: Str,
  reason_with_drawn_category: Str,
  indications: z.array(z.object({ indication_id: z.number().int(), name: z.string(), mesh_id: Str, phase: Str })),
  companies: z.array(z.object({ company_id: z.number().int(), name: z.string(), country: Str })),
  targets: z.array(z.object({ target_id: z.number().int(), name: z.string(), gene_symbol: Str, action_type: Str, mechanism: Str })),
});
export type DevelopmentCompound = z.infer<typeof DevelopmentCompoundSchema>;

export const LeafletReferenceRowSchema = z.object({
  ref_id: z.number().int(),
  ref_type: z.string(),
  title: Str,
  reference: Str,
  journal_patent_name: Str,
  year: Int,
  doi: Str,
  pubmed_id: Int,
  patent_no: Str,
  /** Activities of this compound the reference reports (0: it only reports the compound record). */
  activity_count: z.number().int(),
  /** The reference leaflet's permanent link (`/leaflet/reference/{ref_id}`). */
  link: z.string(),
});
export type LeafletReferenceRow = z.infer<typeof LeafletReferenceRowSchema>;

export const CompoundLeafletSchema = z.object({
  /** What the link named, as given. */
  requested: z.object({ idType: z.enum(LEAFLET_ID_TYPES), id: z.number().int() }),
  /** The leaflet's permanent link: `/leaflet/structure/{str_id}`, else the record or development compound it was opened as. */
  link: z.string(),
  /** The structure the leaflet is about; null for a compound record or development compound without one (e.g. a biologic). */
  structure: LeafletStructureSchema.nullable(),
  properties: LeafletPropertiesSchema.nullable(),
  /**
   * Solubility, logD and pKa measured as activities of the compound (the computed properties have
   * none): by property, the number of measurements and the first LEAFLET_LIMITS.measuredValues.
   */
  measured: z.array(MeasuredPropertySchema),
  compounds: z.array(LeafletCompoundRecordSchema),
  synonyms: z.array(LeafletSynonymSchema),
  /** WHO ATC classes of the compound records (ChEMBL molecule_atc_classification): level-5 code, substance name, levels 1-4 names. */
  atc: z.array(z.object({ code: z.string(), name: z.string(), path: z.array(z.string()) })),
  activities: z.object({
    total: z.number().int(),
    /** Groups: distinct targets, plus one for activities without a target. */
    groupsTotal: z.number().int(),
    /** Distinct targets. */
    targetsTotal: z.number().int(),
    groups: z.array(TargetGroupSchema),
  }),
  development: z.array(DevelopmentCompoundSchema),
  references: z.object({ total: z.number().int(), rows: z.array(LeafletReferenceRowSchema) }),
});
export type CompoundLeaflet = z.infer<typeof CompoundLeafletSchema>;

export const FindDcmParamsSchema = z.object({ id: PositiveId });
export const FindDcmResponseSchema = z.object({
  isDcm: z.boolean(),
  /** Development compounds of this structure, lowest id first. */
  clinicalCompoundIds: z.array(z.number().int()),
});
export type FindDcmResponse = z.infer<typeof FindDcmResponseSchema>;

// ---------------------------------------------------------------- reference leaflet

export const ReferenceLeafletParamsSchema = z.object({ rid: PositiveId });
const ReferenceSessionIdSchema = z
  .string()
  .regex(
    SESSION_ID_PATTERN,
    'The search named in this link is not a search id (search ids look like 6f1c2f0e-4a3b-4c4d-9e8f-0a1b2c3d4e5f): open the reference without it',
  );
export const ReferenceLeafletQuerySchema = z.object({
  /**
   * The search the reference was opened from (`sid` of the route); `0` / `none` / absent: none.
   * Used only when it is the caller's own: another user's or an unknown search opens the whole
   * reference (`searchNote` says why).
   */
  sessionid: z.preprocess(
    (value) => (typeof value === 'string' ? (sessionIdFromSid(value) ?? undefined) : value),
    ReferenceSessionIdSchema.optional(),
  ),
  /** Only the compounds and activities that are in that search (needs a ready session). */
  inSearchOnly: z
    .enum(['true', 'false'], { message: 'inSearchOnly must be true or false' })
    .default('false')
    .transform((value) => value === 'true'),
});
export type ReferenceLeafletQuery = z.output<typeof ReferenceLeafletQuerySchema>;

export const ReferenceDocumentSchema = z.object({
  ref_id: z.number().int(),
  ref_type: z.string(),
  title: Str,
  reference: Str,
  journal_patent_name: Str,
  year: Int,
  volume: Str,
  issue: Str,
  start_page: Str,
  end_page: Str,
  issn_no: Str,
  pubmed_id: Int,
  doi: Str,
  patent_no: Str,
  country_code: Str,
  application_type: Str,
  abstract: Str,
  data_source: Str,
});
export type ReferenceDocument = z.infer<typeof ReferenceDocumentSchema>;

export const ReferenceCompoundSchema = z.object({
  str_id: z.number().int(),
  smiles: z.string(),
  /** A name of the compound record this reference reports (else any record of the structure). */
  name: Str,
  /** The compound's label in the reference ("12b"), when the activities carry one. */
  label: Str,
  activity_count: z.number().int(),
  /** In the search the leaflet was opened from; null without a (ready) search. */
  in_search: z.boolean().nullable(),
});
export type ReferenceCompound = z.infer<typeof ReferenceCompoundSchema>;

/**
 * What a measured activity says, as a reference's table and the measurement list both show it: its target,
 * and the value as standardised (ChEMBL standard_*) with its value in µM when it is a concentration.
 */
const StandardisedActivityShape = {
  target_id: Int,
  target_name: Str,
  gene_symbol: Str,
  std_activity_type: Str,
  std_act_prefix: Str,
  activity_value: Num,
  standard_uom: Str,
  micro_molarvalue: Num,
  pchembl_value: Num,
  /** false: the source could not standardise it; type, prefix, value and unit are the published ones. */
  standardised: z.boolean(),
};

export const ReferenceActivitySchema = z.object({
  act_id: z.number().int(),
  /** null: an activity of a compound without a structure (peptide, antibody, mixture). */
  str_id: z.number().int().nullable(),
  compound_label: Str,
  ...StandardisedActivityShape,
  /** Ligand efficiency (ChEMBL ligand_eff): binding efficiency index, surface efficiency index, LE, LLE. */
  bei: Num,
  sei: Num,
  le: Num,
  lle: Num,
  parameter: Str,
  assay_id: Int,
  assay_type: Str,
  assay_description: Str,
  in_search: z.boolean().nullable(),
});
export type ReferenceActivity = z.infer<typeof ReferenceActivitySchema>;

export const ReferenceSessionSchema = z.object({
  sessionid: z.string(),
  /** Search session status; the in-search marks exist only when it is `ready` (its result sets are kept). */
  status: z.string(),
  ready: z.boolean(),
  summary: Str,
});

/** All of the reference's compounds or activities, how many of them the search holds, and the rows shown (filtered, capped). */
const ReferencePartSchema = <T extends z.ZodType>(row: T) =>
  z.object({
    total: z.number().int(),
    /** Null without a ready search. */
    inSearch: Int,
    rows: z.array(row),
  });

/**
 * Why the search named by the link is not used: it is another user's (`not-yours`, a colleague
 * opening a shared link) or no longer exists (`unknown`). The whole reference is shown instead.
 */
export const REFERENCE_SEARCH_NOTES = ['not-yours', 'unknown'] as const;
export type ReferenceSearchNote = (typeof REFERENCE_SEARCH_NOTES)[number];

export const ReferenceLeafletSchema = z.object({
  document: ReferenceDocumentSchema,
  /** The permanent link of this leaflet (`/leaflet/reference/{rid}`): no session, opens for anyone who may see leaflets. */
  link: z.string(),
  authors: z.array(z.string()),
  companies: z.array(z.object({ company_id: z.number().int(), name: z.string(), address: Str, country: Str })),
  /** The caller's own search the link named; null without one (and when `searchNote` says it was not used). */
  session: ReferenceSessionSchema.nullable(),
  searchNote: z.enum(REFERENCE_SEARCH_NOTES).nullable(),
  inSearchOnly: z.boolean(),
  compounds: ReferencePartSchema(ReferenceCompoundSchema),
  activities: ReferencePartSchema(ReferenceActivitySchema),
});
export type ReferenceLeaflet = z.infer<typeof ReferenceLeafletSchema>;

// ---------------------------------------------------------------- measurement list

/**
 * Every measurement behind a number: the activities of one compound (a structure, or a record /
 * development compound without one) on one target, on none (ADME, physicochemical assays) or on
 * all. Opened from a leaflet's potency, an Activities row, a SAR table cell or a dynamic-query row.
 */
export const MEASUREMENT_SORTS = ['value', 'pchembl', 'type', 'year', 'measurement'] as const;
export type MeasurementSort = (typeof MEASUREMENT_SORTS)[number];
export const MEASUREMENT_SORT_LABELS: Record<MeasurementSort, string> = {
  value: 'value (µM, then as published)',
  pchembl: 'pChEMBL',
  type: 'activity type',
  year: 'year of the reference',
  measurement: 'activity id',
};

export const MEASUREMENT_LIMITS = {
  pageSize: 50,
  maxPageSize: 200,
  maxPage: 100_000,
  /** Rows one export of a measurement list holds (its rows are kept with the job, as a dynamic query's). */
  maxExportRows: 25_000,
} as const;

/** `targetId`: a target id, `none` (activities without a target) or `all` (every target). */
export const MeasurementTargetSchema = z.union([z.enum(['none', 'all']), PositiveId], {
  message: 'targetId must be a target id (a whole number above zero), none (activities without a target) or all',
});
export type MeasurementTarget = z.infer<typeof MeasurementTargetSchema>;

/** Which measurements: a compound as the compound leaflet names it, or one measurement (actId) standing for its compound and target. */
const MeasurementSelectionShape = {
  /** With `id`: what the id names, as for the compound leaflet. */
  idType: z.enum(LEAFLET_ID_TYPES, { message: 'idType must be structure, compound or dcm' }).default('structure'),
  id: PositiveId.optional(),
  /** Instead of idType + id: the compound of this activity, on its target unless `targetId` says otherwise. */
  actId: PositiveId.optional(),
  /** Default: `all` with an id, the activity's own target with an actId. */
  targetId: MeasurementTargetSchema.optional(),
  /** Only the measurements of this assay (a sheet's assay column). */
  assayId: PositiveId.optional(),
  /** Only this activity type (std_activity_type), e.g. IC50. */
  type: z.string().trim().min(1, 'type must not be empty').max(100, 'type is at most 100 characters').optional(),
  sort: z.enum(MEASUREMENT_SORTS, { message: `sort must be one of ${MEASUREMENT_SORTS.join(', ')}` }).default('value'),
  direction: z.enum(['asc', 'desc'], { message: 'direction must be asc or desc' }).default('asc'),
};

const oneSubject = (value: { id?: number; actId?: number }) => (value.id === undefined) !== (value.actId === undefined);
const ONE_SUBJECT_MESSAGE = 'Name the compound (id, with idType) or one of its measurements (actId): one of the two';

export const MeasurementQuerySchema = z
  .object({
    ...MeasurementSelectionShape,
    page: z.coerce
      .number({ message: 'page must be a whole number' })
      .int('page must be a whole number')
      .min(0, 'page starts at 0')
      .max(MEASUREMENT_LIMITS.maxPage)
      .default(0),
    pageSize: z.coerce
      .number({ message: 'pageSize must be a whole number' })
      .int('pageSize must be a whole number')
      .min(1, 'pageSize is at least 1')
      .max(MEASUREMENT_LIMITS.maxPageSize, `pageSize is at most ${MEASUREMENT_LIMITS.maxPageSize}`)
      .default(MEASUREMENT_LIMITS.pageSize),
  })
  .refine(oneSubject, { message: ONE_SUBJECT_MESSAGE, path: ['id'] });
export type MeasurementQuery = z.output<typeof MeasurementQuerySchema>;
export type MeasurementQueryInput = z.input<typeof MeasurementQuerySchema>;

/** One condition of the assay: a field of the assay (pH, temperature, substrate …) or one of its ChEMBL assay parameters. */
export const MeasurementConditionSchema = z.object({
  label: z.string(),
  relation: Str,
  value: Num,
  /** As stored (exports keep it so); the page writes it as a chemist would. */
  unit: Str,
  text: Str,
});
export type MeasurementCondition = z.infer<typeof MeasurementConditionSchema>;

export const MeasurementSchema = z.object({
  act_id: z.number().int(),
  str_id: Int,
  gvk_id: Int,
  /** The compound's label in the reference ("12b"). */
  compound_label: Str,
  ...StandardisedActivityShape,
  // As published.
  activity_type: Str,
  activity_prefix: Str,
  activity: Num,
  activity_uom: Str,
  activity_text: Str,
  activity_remarks: Str,
  data_validity_comment: Str,
  activity_mechanism: Str,
  parameter: Str,
  sd: Num,
  le: Num,
  lle: Num,
  // The assay.
  assay_id: Int,
  assay_chembl_id: Str,
  assay_type: Str,
  assay_description: Str,
  enzyme_cell_assay: Str,
  assay_method_name: Str,
  organism: Str,
  strain: Str,
  /** The depositor's cell line / organ, else the ChEMBL cell dictionary's name. */
  cell_line: Str,
  tissue: Str,
  conditions: z.array(MeasurementConditionSchema),
  // The reference.
  ref_id: Int,
  ref_type: Str,
  ref_title: Str,
  /** Citation ("J Med Chem (2012) 55(3):100-112", a patent number). */
  reference: Str,
  year: Int,
  doi: Str,
  pubmed_id: Int,
  /** The reference leaflet's permanent link (`/leaflet/reference/{ref_id}`), null without a reference. */
  reference_link: Str,
  data_source: Str,
});
export type Measurement = z.infer<typeof MeasurementSchema>;

export const MeasurementListSchema = z.object({
  compound: z.object({
    idType: z.enum(LEAFLET_ID_TYPES),
    id: z.number().int(),
    str_id: Int,
    /** A drug name or a record's name, when the compound has one. */
    name: Str,
    /** The compound leaflet's permanent link. */
    link: z.string(),
  }),
  /** `target`: one target (below); `none`: activities without a target; `all`: every target. */
  targetScope: z.enum(['target', 'none', 'all']),
  target: z
    .object({ target_id: z.number().int(), name: z.string(), gene_symbol: Str, uniprot_id: Str, organism: Str, target_type: Str })
    .nullable(),
  /** The activity type the list is limited to, if any. */
  type: Str,
  /** The assay the list is limited to, if any. */
  assayId: z.number().int().nullable(),
  /** Measurements of the compound on the target(s) (and the assay, when given), all types. */
  total: z.number().int(),
  /** Of those, the ones listed (of `type` when given; else `total`). */
  matching: z.number().int(),
  /** The activity types of the `total` measurements, most frequent first (type null: none given). */
  types: z.array(z.object({ type: Str, count: z.number().int() })),
  sort: z.enum(MEASUREMENT_SORTS),
  direction: z.enum(['asc', 'desc']),
  page: z.number().int(),
  pageSize: z.number().int(),
  rows: z.array(MeasurementSchema),
});
export type MeasurementList = z.infer<typeof MeasurementListSchema>;

/** Export of a measurement list (every matching row, in its sort) through the export jobs and credits. */
export const MeasurementExportRequestSchema = z
  .object({
    ...MeasurementSelectionShape,
    format: z.enum(['csv', 'xlsx'], { message: 'format must be csv or xlsx' }),
    /** The credits the user was shown and confirmed; when the rows changed since, the export answers 409 instead of charging another price. */
    expectedCredits: z.number().int().nonnegative().optional(),
  })
  .refine(oneSubject, { message: ONE_SUBJECT_MESSAGE, path: ['id'] });
export type MeasurementExportRequest = z.output<typeof MeasurementExportRequestSchema>;

// ---------------------------------------------------------------- endpoints

export const leafletEndpoints = {
  compoundLeaflet: defineEndpoint({
    method: 'GET',
    path: '/api/security/leafletview/compound/:id',
    access: SEARCH_ROLES,
    summary:
      'Compound leaflet: structure identifiers and properties, compound records, names and synonyms, ATC classes, activities grouped by target, development status and references. idType says what the id names (structure = str_id, compound = gvk_id, dcm = clinical_compound_id).',
    params: CompoundLeafletParamsSchema,
    query: CompoundLeafletQuerySchema,
    response: CompoundLeafletSchema,
  }),
  findDcmOrNot: defineEndpoint({
    method: 'GET',
    path: '/api/results/leafletview/dcm/findDCMOrNot/:id',
    access: SEARCH_ROLES,
    summary: 'Whether a structure (str_id) is a development compound, and which ones.',
    params: FindDcmParamsSchema,
    response: FindDcmResponseSchema,
  }),
  referenceLeaflet: defineEndpoint({
    method: 'GET',
    path: '/api/security/leafletview/reference/:rid',
    access: SEARCH_ROLES,
    summary:
      "Reference leaflet: bibliographic data, authors, companies and abstract, the compounds and activities the reference reports; with the caller's own search session, which of them are in that search (inSearchOnly=true keeps only those). Another user's or an unknown session opens the whole reference (searchNote says why). Its permanent web link is /leaflet/reference/{rid} (`link`).",
    params: ReferenceLeafletParamsSchema,
    query: ReferenceLeafletQuerySchema,
    response: ReferenceLeafletSchema,
  }),
  measurements: defineEndpoint({
    method: 'GET',
    path: '/api/security/leafletview/measurements',
    access: SEARCH_ROLES,
    summary:
      'Every measurement of one compound on one target (targetId), on none (targetId=none) or on all: activity type, relation, value and unit as published and standardised, pChEMBL, assay, organism, cell line, conditions and reference (with its permanent leaflet link). The compound as for the compound leaflet (idType + id), or the compound and target of one activity (actId). Paged and sorted on the server; `total` counts them all.',
    query: MeasurementQuerySchema,
    response: MeasurementListSchema,
  }),
  measurementsExport: defineEndpoint({
    method: 'POST',
    path: '/api/security/leafletview/measurements/export',
    access: EXPORT_ROLES,
    summary: `Exports a measurement list (every matching row, at most ${MEASUREMENT_LIMITS.maxExportRows.toLocaleString('en-US')}, units as stored) as CSV or XLSX through the export jobs: one download credit per row, 402 when the balance is short, 409 when expectedCredits no longer matches.`,
    body: MeasurementExportRequestSchema,
    response: ExportJobSchema,
  }),
};
