import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { SEARCH_ROLES } from './roles.ts';
import { SessionIdSchema } from './search.ts';

/**
 * Compound and reference leaflets (spec §2 `/leaflet/{idType}/{id}`, `/leafletreference/{sid}/{rid}`,
 * §7 `security/leafletview/compound/{id}`, `results/leafletview/dcm/findDCMOrNot/{id}`).
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
export function sessionIdFromSid(sid: string | undefined): string | null {
  if (sid === undefined || (NO_SESSION_SIDS as readonly string[]).includes(sid)) return null;
  return sid;
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
});
export type LeafletReferenceRow = z.infer<typeof LeafletReferenceRowSchema>;

export const CompoundLeafletSchema = z.object({
  /** What the link named, as given. */
  requested: z.object({ idType: z.enum(LEAFLET_ID_TYPES), id: z.number().int() }),
  /** The structure the leaflet is about; null for a compound record or development compound without one (e.g. a biologic). */
  structure: LeafletStructureSchema.nullable(),
  properties: LeafletPropertiesSchema.nullable(),
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
export const ReferenceLeafletQuerySchema = z.object({
  /** The search the reference was opened from (`sid` of the route); `0` / `none` / absent: none. */
  sessionid: z.preprocess((value) => (typeof value === 'string' ? (sessionIdFromSid(value) ?? undefined) : value), SessionIdSchema.optional()),
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

export const ReferenceActivitySchema = z.object({
  act_id: z.number().int(),
  /** null: an activity of a compound without a structure (peptide, antibody, mixture). */
  str_id: z.number().int().nullable(),
  compound_label: Str,
  target_id: Int,
  target_name: Str,
  gene_symbol: Str,
  std_activity_type: Str,
  std_act_prefix: Str,
  activity_value: Num,
  standard_uom: Str,
  micro_molarvalue: Num,
  pchembl_value: Num,
  /** false: ChEMBL could not standardise it; type, prefix, value and unit are the published ones. */
  standardised: z.boolean(),
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

export const ReferenceLeafletSchema = z.object({
  document: ReferenceDocumentSchema,
  authors: z.array(z.string()),
  companies: z.array(z.object({ company_id: z.number().int(), name: z.string(), address: Str, country: Str })),
  session: ReferenceSessionSchema.nullable(),
  inSearchOnly: z.boolean(),
  compounds: ReferencePartSchema(ReferenceCompoundSchema),
  activities: ReferencePartSchema(ReferenceActivitySchema),
});
export type ReferenceLeaflet = z.infer<typeof ReferenceLeafletSchema>;

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
      'Reference leaflet: bibliographic data, authors, companies and abstract, the compounds and activities the reference reports; with a search session, which of them are in that search (inSearchOnly=true keeps only those).',
    params: ReferenceLeafletParamsSchema,
    query: ReferenceLeafletQuerySchema,
    response: ReferenceLeafletSchema,
  }),
};
