import { z } from 'zod';
import { RESULT_ENTITIES, ResultTabKeySchema } from './result-tabs.ts';

/**
 * The guided search (spec §2 "Search builder", §3 "Search row" / "Sub-search shapes", §4, §5).
 * A search is an ordered list of rows; each row's `operator` joins it to the NEXT row (the last
 * row's operator is cleared). What each row matches and how operators combine across entity types
 * is documented in docs/search-semantics.md.
 */

export const SEARCH_OPERATORS = ['AND', 'OR', 'NOT'] as const;
export type SearchOperator = (typeof SEARCH_OPERATORS)[number];
export const DEFAULT_OPERATOR: SearchOperator = 'AND';
/** Spec §9: the target-term and uploaded multi-value operator. */
export const MULTI_VALUE_OPERATOR = '|';

export const ACTIVITY_PREFIXES = ['<', '<=', '>', '>=', '=', 'R'] as const;
export type ActivityPrefix = (typeof ACTIVITY_PREFIXES)[number];

/** Spec §5/§9: more activities than this and the search is refused with ACTIVITY_CAP_MESSAGE. */
export const ACTIVITY_CAP = 750_000;
export const ACTIVITY_CAP_MESSAGE = 'Data restriction: Refine the query as search result exceeded 750,000 Activities';
export const CONFIRMATION_TEXT = 'Are you sure to proceed with current input?';

/** Bounded strings and lists: every field a user types or uploads has a ceiling. */
const Text = z.string().trim().min(1).max(500);
const Ids = z.array(z.number().int().positive()).max(100_000);
const Texts = z.array(Text).max(100_000);
const OptionalNumber = z.number().finite().nullable().optional();

/** An item chosen from an autocomplete (spec "auto-complete items"). */
export const LookupItemSchema = z.object({
  id: z.union([z.number().int(), z.string().max(500)]),
  label: z.string().max(1000),
});
export type LookupItem = z.infer<typeof LookupItemSchema>;

/** min ≤ max when both are given: a malformed range is refused with a message naming the field. */
function rangeOk(min: number | null | undefined, max: number | null | undefined): boolean {
  return min == null || max == null || min <= max;
}

// ---------------------------------------------------------------- structure

export const STRUCTURE_INPUT_TYPES = ['name', 'smiles', 'smarts', 'inchikey', 'molfile'] as const;
export const STRUCTURE_CATEGORIES = ['exact', 'substructure', 'similarity'] as const;
export const STRUCTURE_FEATURES = ['desalted', 'asis'] as const;

/**
 * Spec §5: name search is exact by default; SMILES and InChIKey substructure; feature desalted.
 * For an InChIKey, "substructure" means the same skeleton: the first block of the key (any
 * stereo, isotope or protonation form); "exact" means the whole key.
 */
export function defaultStructureCategory(inputType: (typeof STRUCTURE_INPUT_TYPES)[number]): (typeof STRUCTURE_CATEGORIES)[number] {
  return inputType === 'name' ? 'exact' : 'substructure';
}

/** At most this many nearest structures a similarity row may ask for (`similarityNearest`). */
export const MAX_SIMILARITY_NEAREST = 10_000;
export const SIMILARITY_NEAREST_MESSAGE = `Ask for 1 to ${MAX_SIMILARITY_NEAREST.toLocaleString('en-US')} nearest structures, or leave it empty for all in the range`;

export const StructureQuerySchema = z
  .object({
    inputType: z.enum(STRUCTURE_INPUT_TYPES),
    // Not trimmed: a molfile's first lines may be blank. Blank values are refused all the same.
    value: z
      .string()
      .max(100_000)
      .refine((v) => v.trim().length > 0, 'Enter a structure, name or InChIKey'),
    category: z.enum(STRUCTURE_CATEGORIES),
    similarityMin: z.number().min(0).max(1).nullable().optional(),
    similarityMax: z.number().min(0).max(1).nullable().optional(),
    /**
     * Similarity only: just the N structures of the whole knowledge base most similar to the query
     * within the range (ties by structure id); the row then combines with the others as any row.
     */
    similarityNearest: z
      .number()
      .int(SIMILARITY_NEAREST_MESSAGE)
      .min(1, SIMILARITY_NEAREST_MESSAGE)
      .max(MAX_SIMILARITY_NEAREST, SIMILARITY_NEAREST_MESSAGE)
      .nullable()
      .optional(),
    feature: z.enum(STRUCTURE_FEATURES).default('desalted'),
    /** Spec §5 read-only marker: the value came from a name, SMILES or InChIKey look-up and is shown locked. */
    readOnly: z.boolean().optional(),
  })
  .refine((q) => rangeOk(q.similarityMin, q.similarityMax), {
    message: 'Minimum similarity is above the maximum',
    path: ['similarityMin'],
  });
export type StructureQuery = z.infer<typeof StructureQuerySchema>;

/** Spec §3 structure properties (min/max pairs) and physicochemical ones. */
export const PROPERTY_FIELDS = {
  mol_weight: ['molmin', 'molmax'],
  logp_calc: ['logpmin', 'logpmax'],
  rot_bonds: ['rotbondsmin', 'rotbondsmax'],
  psa: ['psamin', 'psamax'],
  pka_value: ['pkamin', 'pkamax'],
  logd_calc: ['logdmin', 'logdmax'],
  solubility: ['solubilitymin', 'solubilitymax'],
  hb_donors: ['hbdmin', 'hbdmax'],
  hb_acceptor: ['hbamin', 'hbamax'],
} as const;
export type PropertyColumn = keyof typeof PROPERTY_FIELDS;

const propertyShape = Object.fromEntries(
  Object.values(PROPERTY_FIELDS).flatMap(([min, max]) => [
    [min, OptionalNumber],
    [max, OptionalNumber],
  ]),
) as Record<(typeof PROPERTY_FIELDS)[PropertyColumn][number], typeof OptionalNumber>;

export const StructurePropertiesSchema = z.object(propertyShape).superRefine((value, ctx) => {
  for (const [column, [min, max]] of Object.entries(PROPERTY_FIELDS)) {
    if (!rangeOk(value[min], value[max])) ctx.addIssue({ code: 'custom', message: `${column}: minimum is above the maximum`, path: [min] });
  }
});
export type StructureProperties = z.infer<typeof StructurePropertiesSchema>;

/** Spec §5 structure property defaults (shown in the builder; not applied until the user asks). */
export const PROPERTY_DEFAULTS = {
  molmin: 0,
  molmax: 500,
  rotbondsmin: 0,
  rotbondsmax: 100,
  logpmin: 0,
  logpmax: 100,
  psamin: 0,
  psamax: 100,
} as const;
export const PROPERTY_MIN_LIMIT = 20;
/** Spec §4 structure rules. */
export const RULE_OF_FIVE: StructureProperties = {
  molmin: 0,
  molmax: 500,
  hbdmin: 0,
  hbdmax: 5,
  hbamin: 0,
  hbamax: 10,
  logpmin: 0,
  logpmax: 5,
};
export const RULE_OF_THREE: StructureProperties = {
  molmin: 0,
  molmax: 300,
  hbdmin: 0,
  hbdmax: 3,
  hbamin: 0,
  hbamax: 3,
  rotbondsmin: 3,
  rotbondsmax: 3,
  logpmin: 0,
  logpmax: 3,
};

// ---------------------------------------------------------------- sub-search shapes

/** Spec §3 "Target term row". `targetCategories` say which fields the label was looked up in. */
export const TARGET_CATEGORIES = ['name', 'uniprot', 'gene', 'entrez', 'pdb'] as const;
/** Families (target_classes) one term may name: a picked family, or a few picked together. */
export const TARGET_TERM_MAX_CLASSES = 100;
export const TargetTermSchema = z.object({
  label: Text,
  targetCategories: z.array(z.enum(TARGET_CATEGORIES)).max(5).default(['name']),
  operator: z.literal('|').default('|'),
  displayValue: z.string().max(1000).optional(),
  /** Target ids when the term came from an autocomplete: exactly those targets. */
  ids: Ids.optional(),
  /**
   * Families picked from the autocomplete (target_classes ids): the targets of each family and of
   * everything under it. Without ids or classIds the label is text, resolved by the rules of
   * docs/search-semantics.md "Target text and families" (identifiers exactly; prefix, whole word,
   * family names and wildcards otherwise).
   */
  classIds: z.array(z.number().int().positive().max(2_147_483_647)).max(TARGET_TERM_MAX_CLASSES).optional(),
});
export type TargetTerm = z.infer<typeof TargetTermSchema>;

/** Spec §3 "Activity row". Prefix R means the range min..max; other prefixes compare with minValue. */
export const ActivityTermSchema = z
  .object({
    activityType: Text,
    activityUom: z.string().trim().max(100).nullable().optional(),
    prefix: z.enum(ACTIVITY_PREFIXES).nullable().optional(),
    minValue: OptionalNumber,
    maxValue: OptionalNumber,
  })
  .refine((t) => t.prefix !== 'R' || (t.minValue != null && t.maxValue != null), {
    message: 'A range (R) needs both a minimum and a maximum',
    path: ['minValue'],
  })
  .refine((t) => t.prefix !== 'R' || rangeOk(t.minValue, t.maxValue), { message: 'The minimum is above the maximum', path: ['minValue'] })
  .refine((t) => t.prefix == null || t.prefix === 'R' || t.minValue != null, {
    message: 'Enter a value for the prefix',
    path: ['minValue'],
  });
export type ActivityTerm = z.infer<typeof ActivityTermSchema>;

/** Spec §3 bibliography custom rows. */
export const PatentTermSchema = z.object({
  countryCode: z.string().trim().max(4).optional(),
  year: z.number().int().min(1800).max(2200).nullable().optional(),
  patentNo: z.string().trim().max(50).optional(),
});
export const JournalTermSchema = z.object({
  journalName: z.string().trim().max(300).optional(),
  year: z.number().int().min(1800).max(2200).nullable().optional(),
  volume: z.string().trim().max(30).optional(),
  issue: z.string().trim().max(30).optional(),
  pageNo: z.string().trim().max(30).optional(),
});
export const YearRangeSchema = z
  .object({
    fromYear: z.number().int().min(1800).max(2200).nullable().optional(),
    toYear: z.number().int().min(1800).max(2200).nullable().optional(),
  })
  .refine((r) => rangeOk(r.fromYear, r.toYear), { message: 'The from-year is after the to-year', path: ['fromYear'] });

/** Spec §9 bibliography data sources: J(ournal), P(atent), O(ther). */
export const BIBLIOGRAPHY_SOURCES = ['J', 'P', 'O'] as const;

/** Spec §3 "Strain search". */
export const StrainTermSchema = z.object({
  genus: z.string().trim().max(200).optional(),
  species: z.string().trim().max(200).optional(),
  strainType: z.string().trim().max(200).optional(),
});

/** Spec §2 tree views; Taxonomy is sent as SourceOntologyTreeView (spec §4). */
export const TREE_VIEWS = [
  'Target',
  'Indication',
  'Pharmacokinetics',
  'Toxicity',
  'SourceOntologyTreeView',
  'Pathways',
  'ClinicalPhase',
  'AssayMethodName',
  'Bibliography',
  'Endpoint',
] as const;
export type TreeView = (typeof TREE_VIEWS)[number];
/** Spec §4: a tree source named Taxonomy travels as SourceOntologyTreeView. */
export function treeViewForSource(name: string): TreeView | null {
  const sent = name === 'Taxonomy' ? 'SourceOntologyTreeView' : name;
  return (TREE_VIEWS as readonly string[]).includes(sent) ? (sent as TreeView) : null;
}

export const DEGRADER_TYPES = ['monovalent', 'bivalent'] as const;
export const ASSAY_TYPES = ['binding', 'functional', 'adme', 'toxicity', 'physicochemical', 'unassigned'] as const;

// ---------------------------------------------------------------- rows

const RowBase = z.object({
  /** Joins this row to the next one; the last row's is ignored (spec §4). */
  operator: z.enum(SEARCH_OPERATORS).nullable().default(DEFAULT_OPERATOR),
  /** Name of the uploaded file the row's list came from (spec "file name"). */
  fileName: z.string().max(300).nullable().optional(),
});

export const StructureRowSchema = RowBase.extend({
  selectedOption: z.literal('structure'),
  structure: StructureQuerySchema.nullable().optional(),
  properties: StructurePropertiesSchema.nullable().optional(),
  /** Structure ids (uploaded or typed: digits only) and CAS numbers, kept apart (spec §5). */
  strIds: Ids.optional(),
  casNumbers: Texts.optional(),
  /**
   * Added by the structure filter of the results (docs/results.md "Structure filter"): the last
   * row, joined by AND (include) or NOT (exclude). Searched like any structure row; the results
   * show it as their filter and the builder labels it.
   */
  resultFilter: z.boolean().optional(),
});

export const TargetRowSchema = RowBase.extend({
  selectedOption: z.literal('target'),
  targets: z.array(TargetTermSchema).max(10_000),
});

export const BibliographyRowSchema = RowBase.extend({
  selectedOption: z.literal('bibliography'),
  /** Documents picked from the autocomplete or tree (ref_id). */
  refIds: Ids.optional(),
  pubmedIds: Ids.optional(),
  dois: Texts.optional(),
  patents: z.array(PatentTermSchema).max(10_000).optional(),
  journals: z.array(JournalTermSchema).max(10_000).optional(),
  authors: Texts.optional(),
  yearRange: YearRangeSchema.nullable().optional(),
  companies: Texts.optional(),
  sources: z.array(z.enum(BIBLIOGRAPHY_SOURCES)).max(3).optional(),
});

export const CompanyRowSchema = RowBase.extend({
  selectedOption: z.literal('company'),
  companyIds: Ids.optional(),
  companyNames: Texts.optional(),
});

export const DegraderRowSchema = RowBase.extend({
  selectedOption: z.literal('degrader'),
  degraderTypes: z.array(z.enum(DEGRADER_TYPES)).min(1).max(2),
  ligases: Texts.optional(),
});

export const ClinicalPhaseRowSchema = RowBase.extend({
  selectedOption: z.literal('clinicalphase'),
  /** Phase or status names as the autocomplete lists them (e.g. "Phase II", "Launched", "Withdrawn"). */
  phases: Texts,
});

export const SourceRowSchema = RowBase.extend({
  selectedOption: z.literal('source'),
  taxonomyIds: Ids.optional(),
  strains: z.array(StrainTermSchema).max(1000).optional(),
});

export const IndicationRowSchema = RowBase.extend({
  selectedOption: z.literal('indication'),
  indicationIds: Ids.optional(),
  indicationNames: Texts.optional(),
});

export const ActivityRowSchema = RowBase.extend({
  selectedOption: z.literal('activitytypes'),
  activities: z.array(ActivityTermSchema).min(1).max(100),
});

export const AssayRowSchema = RowBase.extend({
  selectedOption: z.literal('assay'),
  assayTypes: z.array(z.enum(ASSAY_TYPES)).max(6).optional(),
  methodNames: Texts.optional(),
  assayIds: Ids.optional(),
});

export const MechanismRowSchema = RowBase.extend({
  selectedOption: z.literal('activitymechanism'),
  mechanisms: Texts,
});

export const CategoryRowSchema = RowBase.extend({
  selectedOption: z.literal('compoundcategories'),
  categories: Texts,
});

export const TreeRowSchema = RowBase.extend({
  selectedOption: z.literal('treeview'),
  tree: z.enum(TREE_VIEWS),
  /** Selected node ids of that tree (spec "Tree nodes": ids); a node means itself and everything under it. */
  nodeIds: z
    .array(z.union([z.number().int(), z.string().max(300)]))
    .min(1)
    .max(10_000),
  /** Labels of the selected nodes, for the session summary. */
  labels: z.array(z.string().max(500)).max(10_000).optional(),
});

/**
 * Rows picked in a results tab (spec "new search by selection"): the ids of one kind of record.
 * Activities match exactly themselves, assays and references their activities, structures and
 * development compounds their structures (docs/search-semantics.md).
 */
export const SelectionRowSchema = RowBase.extend({
  selectedOption: z.literal('selection'),
  entity: z.enum(RESULT_ENTITIES),
  ids: Ids.min(1, 'Select at least one row'),
  /** What the user selected, for the search summary ("12 activities of search …"). */
  label: z.string().max(500).optional(),
});

/**
 * "In collection …": the structures of a workspace collection (docs/workspace.md) the caller may
 * read. A reference, not a copy: the search reads the collection's members when it runs, so a
 * saved search, an alert or a re-run follows the collection as it is then. Structure-level, like
 * a selection of structures (docs/search-semantics.md).
 */
export const CollectionRowSchema = RowBase.extend({
  selectedOption: z.literal('collection'),
  collectionId: z.number().int().positive(),
  /** The collection's name when the row was made, for summaries ("In collection “Kinase hits”"). */
  label: z.string().max(500).optional(),
});

export const SearchRowSchema = z.discriminatedUnion('selectedOption', [
  StructureRowSchema,
  TargetRowSchema,
  BibliographyRowSchema,
  CompanyRowSchema,
  DegraderRowSchema,
  ClinicalPhaseRowSchema,
  SourceRowSchema,
  IndicationRowSchema,
  ActivityRowSchema,
  AssayRowSchema,
  MechanismRowSchema,
  CategoryRowSchema,
  TreeRowSchema,
  SelectionRowSchema,
  CollectionRowSchema,
]);
export type SearchRow = z.infer<typeof SearchRowSchema>;
export type SearchRowInput = z.input<typeof SearchRowSchema>;
export type SelectedOption = SearchRow['selectedOption'];

/** The search criteria sent with every count / log call (spec "searchcriteria" / "searchpostobject"). */
export const SearchCriteriaSchema = z.object({
  rows: z.array(SearchRowSchema).min(1, 'Add at least one search row').max(50),
});
export type SearchCriteria = z.infer<typeof SearchCriteriaSchema>;
export type SearchCriteriaInput = z.input<typeof SearchCriteriaSchema>;

/** Search session ids are client-generated UUIDs, bound to the user on first use. */
export const SessionIdSchema = z.string().uuid('The search session id must be a UUID');

// ---------------------------------------------------------------- counts

/** Spec §7 `api/guidedsearch/count`: rows[0] with five counts. */
export const FiveCountsSchema = z.object({
  stridscount: z.number().int(),
  actidscount: z.number().int(),
  assayidscount: z.number().int(),
  refidscount: z.number().int(),
  clinicalcompoundidscount: z.number().int(),
});
/** Spec §7 `allresultscount` / `newsearchbyselectioncount`: rows[0] with six counts. */
export const SixCountsSchema = FiveCountsSchema.extend({ gvkidscount: z.number().int() });
export type SearchCounts = z.infer<typeof SixCountsSchema>;

export const CountRequestSchema = z.object({ searchcriteria: SearchCriteriaSchema });
export const CountResponseSchema = z.object({ rows: z.array(FiveCountsSchema) });
export const SessionCountRequestSchema = z.object({ searchcriteria: SearchCriteriaSchema, sessionid: SessionIdSchema });
export const SessionCountResponseSchema = z.object({ rows: z.array(SixCountsSchema), sessionid: z.string() });

/** Spec §3 "Default criteria counts": the whole knowledge base, before any search. */
export const DefaultCountsSchema = z.object({
  refIdsCount: z.number().int(),
  strIdsCount: z.number().int(),
  gvkIdsCount: z.number().int(),
  actIdsCount: z.number().int(),
  assayIdsCount: z.number().int(),
  clinicalCompoundIdsCount: z.number().int(),
  drugIdsCount: z.number().int(),
});
export type DefaultCounts = z.infer<typeof DefaultCountsSchema>;

/** Spec §7 log calls (`lhslogs`, `activitylhslogs`, `assaysunloggedlogs`): materialise one id set of the session. */
export const LogRequestSchema = z.object({ searchpostobject: SearchCriteriaSchema, sessionid: SessionIdSchema });
export const LogResponseSchema = z.object({
  sessionid: z.string(),
  table: z.enum(['structures', 'activities', 'assays']),
  rows: z.number().int(),
});

export const ChartDataStatusRequestSchema = z.object({ sessionid: SessionIdSchema });
/** A search session id in a path (`progress/:sessionid`, `cancel/:sessionid`). */
export const SessionParamsSchema = z.object({ sessionid: z.string().uuid('The session id is not a UUID') });

/**
 * Progress of a running search: long structure searches stream it (spec: pathological queries
 * "stream progress and can be cancelled"). `phase` index = waiting for the structure index,
 * structure = searching structures, sets = building the result sets in the database.
 */
export const SearchProgressSchema = z.object({
  sessionid: z.string(),
  status: z.enum(['none', 'running', 'ready', 'failed', 'cancelled']),
  /** `queued`: the server runs a few searches at once and this one waits for its turn (`queuePosition`). */
  phase: z.enum(['queued', 'index', 'structure', 'sets']).nullable(),
  /** While queued: how many searches wait ahead of this one (0 = next). */
  queuePosition: z.number().int().nonnegative().nullable().optional(),
  searched: z.number().int(),
  total: z.number().int(),
  hits: z.number().int(),
  message: z.string().nullable(),
});
export type SearchProgress = z.infer<typeof SearchProgressSchema>;
/** Answered (409) to the calls of a search its user cancelled. */
export const SEARCH_CANCELLED_MESSAGE = 'The search was cancelled.';

export const ChartDataStatusSchema = z.object({ sessionid: z.string(), status: z.enum(['ready', 'pending', 'none']) });

// ---------------------------------------------------------------- saved queries, criteria, recent searches

/** A chart filter as applied in the results (spec §3 "Charts": include / exclude, min / max). */
export const AppliedFilterSchema = z.object({
  chartKey: z.string().max(100),
  /** The results tab the filter applies to (a saved query's filters without one apply to Activities). */
  tab: ResultTabKeySchema.optional(),
  include: z
    .array(z.union([z.string().max(500), z.number()]))
    .max(10_000)
    .optional(),
  exclude: z
    .array(z.union([z.string().max(500), z.number()]))
    .max(10_000)
    .optional(),
  minValue: z.number().nullable().optional(),
  maxValue: z.number().nullable().optional(),
});
export type AppliedFilter = z.infer<typeof AppliedFilterSchema>;

/** The file `bu/search/save/query` produces and "open a saved query" reads back. */
export const SAVED_QUERY_FORMAT = 'kb-search-query/1';
export const SavedQueryFileSchema = z.object({
  format: z.literal(SAVED_QUERY_FORMAT),
  name: z.string().max(200),
  savedAt: z.string(),
  searchcriteria: SearchCriteriaSchema,
  appliedFilters: z.array(AppliedFilterSchema).max(100).default([]),
});
export type SavedQueryFile = z.infer<typeof SavedQueryFileSchema>;

export const SaveQueryRequestSchema = z.object({
  name: z.string().trim().min(1).max(200).default('search'),
  searchcriteria: SearchCriteriaSchema,
  appliedFilters: z.array(AppliedFilterSchema).max(100).default([]),
});

/** Spec §3 "Criteria options" (a saved, named search the user can make the default). */
export const CriteriaOptionSchema = z.object({
  criteria_id: z.number().int(),
  criteria_name: z.string(),
  is_active: z.boolean(),
  created_at: z.string(),
});
export type CriteriaOption = z.infer<typeof CriteriaOptionSchema>;
export const CriteriaListSchema = z.object({ rows: z.array(CriteriaOptionSchema) });
export const CriteriaSelectRequestSchema = z.object({ criteriaId: z.number().int().positive() });
export const CriteriaDetailSchema = CriteriaOptionSchema.extend({
  searchcriteria: SearchCriteriaSchema,
  appliedFilters: z.array(AppliedFilterSchema),
});
export const VariableSaveRequestSchema = SaveQueryRequestSchema.extend({ makeDefault: z.boolean().default(false) });

/** Spec `bu/sessionsummary/save`: the summary text of a search run, kept as a recent search. */
export const SessionSummaryRequestSchema = z.object({
  sessionid: SessionIdSchema,
  summary: z.string().max(20_000),
});

export const RecentSearchSchema = z.object({
  sessionid: z.string(),
  summary: z.string().nullable(),
  createdAt: z.string(),
  counts: SixCountsSchema.nullable(),
  searchcriteria: SearchCriteriaSchema.nullable(),
});
export const HomeOverviewSchema = z.object({
  counts: DefaultCountsSchema,
  recentSearches: z.array(RecentSearchSchema),
  savedQueries: z.array(CriteriaOptionSchema),
  recentDocuments: z.array(
    z.object({
      ref_id: z.number().int(),
      ref_type: z.string(),
      title: z.string().nullable(),
      reference: z.string().nullable(),
      year: z.number().int().nullable(),
      activities: z.number().int(),
    }),
  ),
});
export type HomeOverview = z.infer<typeof HomeOverviewSchema>;
