import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { SEARCH_ROLES } from './roles.ts';
import { SessionIdSchema } from './search.ts';
import { SelectionSchema } from './results.ts';
import { ExportJobSchema } from './exports.ts';
import { MessageResponseSchema } from './auth.ts';

/**
 * The SAR view (spec §2 /sarview, /sarview/{tabid}; §7 `api/results/setSarData`): the rows of a
 * results tab, put into the SAR view of their search session, studied against one endpoint (a
 * target and an activity type) around one or more cores. What is computed and how is in
 * docs/sar.md. Every call reads the caller's own search session (another user's answers 403).
 */

/** Most compounds one SAR view holds; a larger set is refused with a message saying how to narrow it. */
export const SAR_MAX_COMPOUNDS = 5_000;
/** Most cores studied at once. */
export const SAR_MAX_CORES = 5;
/** Most endpoints side by side in one SAR table (the first and up to three more). */
export const SAR_MAX_ENDPOINTS = 4;
/** Most difference columns (pActivity A − pActivity B) of one SAR table: every ordered pair of two endpoints… up to six. */
export const SAR_MAX_DIFFERENCES = 6;
/**
 * Where an endpoint's measurements are read: `set`, the rows put into the SAR view (a search's
 * own activities, as filtered and ticked); `knowledgeBase`, every measurement in the knowledge
 * base of the SAR view's compounds — how a search on one target still shows the anti-target.
 */
export const SAR_ENDPOINT_SCOPES = ['set', 'knowledgeBase'] as const;
export const SarEndpointScopeSchema = z.enum(SAR_ENDPOINT_SCOPES);
export type SarEndpointScope = z.infer<typeof SarEndpointScopeSchema>;
/** Results tabs the SAR view can be opened from. */
export const SAR_SOURCE_TABS = ['structuretab', 'activitiestab'] as const;
export const SarSourceTabSchema = z.enum(SAR_SOURCE_TABS);
export type SarSourceTab = z.infer<typeof SarSourceTabSchema>;

const Ids = z.array(z.number().int().positive()).max(100_000);

/** R-group labels in order: R1, R2, …, R10 (by number, not as text). */
export function byRGroupLabel(a: string, b: string): number {
  return Number(a.slice(1)) - Number(b.slice(1)) || a.localeCompare(b);
}

// ---------------------------------------------------------------- the SAR data of a session

export const SetSarDataRequestSchema = z.object({
  sessionid: SessionIdSchema,
  tab: SarSourceTabSchema,
  /** The ticked rows (or all minus the unticked); absent or null: every row of the tab as filtered. */
  selection: SelectionSchema.nullable().optional(),
  /** A "go to" narrowing the tab to some structures, as the grid shows it. */
  strIdList: Ids.optional(),
});
export type SetSarDataRequest = z.infer<typeof SetSarDataRequestSchema>;

/** One endpoint the SAR data can be studied against: a target and an activity type, with how many compounds have a value. */
export const SarEndpointOptionSchema = z.object({
  targetId: z.number().int(),
  targetName: z.string(),
  activityType: z.string(),
  compounds: z.number().int(),
  activities: z.number().int(),
  /** Molar units (nM, µM, mM, M …): values become pActivity. Otherwise the values are used as published. */
  molar: z.boolean(),
  scope: SarEndpointScopeSchema,
});
export type SarEndpointOption = z.infer<typeof SarEndpointOptionSchema>;

export const SarDataSchema = z.object({
  sessionid: SessionIdSchema,
  tab: SarSourceTabSchema,
  /** Distinct structures in the SAR view. */
  compounds: z.number().int(),
  /** Activities of those structures (from the Activities tab: the rows chosen; from Structures: all of theirs in the session). */
  activities: z.number().int(),
  createdAt: z.string(),
  /** Endpoints of the rows put into the SAR view (scope `set`), most compounds first. */
  endpoints: z.array(SarEndpointOptionSchema),
  /**
   * Endpoints of every measurement in the knowledge base of these compounds (scope
   * `knowledgeBase`), most compounds first: the anti-targets of a one-target search.
   */
  measuredEndpoints: z.array(SarEndpointOptionSchema),
});
export type SarData = z.infer<typeof SarDataSchema>;

export const SarSessionParamsSchema = z.object({ sessionid: SessionIdSchema });

// ---------------------------------------------------------------- cores

export const SarEndpointSchema = z.object({
  targetId: z.number().int().positive(),
  activityType: z.string().trim().min(1).max(100),
  /** Absent: `set`. */
  scope: SarEndpointScopeSchema.optional(),
});
export type SarEndpoint = z.infer<typeof SarEndpointSchema>;

/** A core as drawn or typed: R-group positions marked as `[*:1]`, `R1` (molfile RGP) or left open. */
export const SarCoreInputSchema = z.object({
  kind: z.enum(['smiles', 'smarts', 'molfile']),
  // Not trimmed: a molfile's first line (its name) may be blank, as Ketcher writes it; the server
  // trims SMILES and SMARTS.
  text: z
    .string()
    .max(131_072)
    .refine((text) => text.trim().length > 0, 'Give a core'),
});
export type SarCoreInput = z.infer<typeof SarCoreInputSchema>;

export const SarCoresRequestSchema = z.object({
  sessionid: SessionIdSchema,
  /** Null: every compound of the SAR view; else only those with a value for this endpoint. */
  endpoint: SarEndpointSchema.nullable(),
});
export const SuggestedCoreSchema = z.object({
  /** SMILES (scaffolds) or SMARTS (the MCS). */
  text: z.string(),
  kind: z.enum(['smiles', 'smarts']),
  source: z.enum(['scaffold', 'mcs']),
  /** Compounds of the set that contain it. */
  compounds: z.number().int(),
});
export type SuggestedCore = z.infer<typeof SuggestedCoreSchema>;
export const SarCoresResponseSchema = z.object({
  compounds: z.number().int(),
  /** The most frequent Murcko scaffolds first, then the MCS of the set (when one was found in time). */
  cores: z.array(SuggestedCoreSchema),
  /** The MCS search stopped at its time limit: the MCS shown may be smaller than the true one. */
  mcsTimedOut: z.boolean(),
});
export type SarCoresResponse = z.infer<typeof SarCoresResponseSchema>;

// ---------------------------------------------------------------- endpoints measured together

export const SarOverlapRequestSchema = z.object({
  sessionid: SessionIdSchema,
  /** The first endpoint (A): the table's rows are its compounds, so the overlaps are counted among them. */
  endpoint: SarEndpointSchema,
  moreEndpoints: z
    .array(SarEndpointSchema)
    .min(1)
    .max(SAR_MAX_ENDPOINTS - 1, `At most ${SAR_MAX_ENDPOINTS} endpoints in one table`),
});
export const SarOverlapResponseSchema = z.object({
  /** Compounds of A with a value (the rows a table can have). */
  compounds: z.number().int(),
  /** Every pair of endpoints (a < b, indices as in a difference): the compounds of A with a value on both. */
  pairs: z.array(z.object({ a: z.number().int(), b: z.number().int(), compounds: z.number().int() })),
});
export type SarOverlapResponse = z.infer<typeof SarOverlapResponseSchema>;

// ---------------------------------------------------------------- the SAR table

/** A difference column: pActivity of endpoint `a` − pActivity of endpoint `b` (indices into the table's endpoints, 0 = `endpoint`). */
export const SarDifferenceSchema = z
  .object({
    a: z
      .number()
      .int()
      .min(0)
      .max(SAR_MAX_ENDPOINTS - 1),
    b: z
      .number()
      .int()
      .min(0)
      .max(SAR_MAX_ENDPOINTS - 1),
  })
  .refine((d) => d.a !== d.b, 'A difference needs two different endpoints');
export type SarDifference = z.infer<typeof SarDifferenceSchema>;

export const SarTableRequestSchema = z.object({
  sessionid: SessionIdSchema,
  /** The first endpoint: its compounds are the table's rows. */
  endpoint: SarEndpointSchema,
  /** Further endpoints shown beside it, each its own column (a compound without a value there shows none). */
  moreEndpoints: z
    .array(SarEndpointSchema)
    .max(SAR_MAX_ENDPOINTS - 1, `At most ${SAR_MAX_ENDPOINTS} endpoints in one table`)
    .optional(),
  /** Selectivity columns: pActivity A − pActivity B of two molar endpoints. */
  differences: z.array(SarDifferenceSchema).max(SAR_MAX_DIFFERENCES, `At most ${SAR_MAX_DIFFERENCES} difference columns`).optional(),
  cores: z.array(SarCoreInputSchema).min(1, 'Choose a core').max(SAR_MAX_CORES),
});
export type SarTableRequest = z.infer<typeof SarTableRequestSchema>;

/** A compound's value for the endpoint: the median of its measurements, with n and the spread. */
export const SarActivitySchema = z.object({
  /** pActivity (−log10 molar) for molar units, else the value as published. */
  value: z.number(),
  n: z.number().int(),
  min: z.number(),
  max: z.number(),
});
export type SarActivity = z.infer<typeof SarActivitySchema>;

/** A compound of a pair (a cliff or a matched pair) with its value for the endpoint. */
export const SarPairMemberSchema = z.object({ strId: z.number().int(), smiles: z.string(), activity: SarActivitySchema });

export const SarRowSchema = z.object({
  strId: z.number().int(),
  smiles: z.string(),
  /** Index into `cores` of the core this compound was decomposed on. */
  core: z.number().int(),
  /** R-group label → SMILES with its attachment points (`[*:1]`); null: hydrogen / nothing there. */
  rgroups: z.record(z.string(), z.string().nullable()),
  activity: SarActivitySchema,
  mw: z.number().nullable(),
  clogp: z.number().nullable(),
  heavyAtoms: z.number().int().nullable(),
  /** Ligand efficiency: 1.37 × pActivity / heavy atoms (kcal/mol per heavy atom); null for non-molar endpoints. */
  le: z.number().nullable(),
  /** Lipophilic efficiency: pActivity − cLogP; null for non-molar endpoints or without cLogP. */
  lipe: z.number().nullable(),
  /** The compound's value for each of the table's `endpoints` (the first is `activity`); null: not measured there. */
  values: z.array(SarActivitySchema.nullable()),
  /** Each of the table's `differences` (A − B of the two medians); null when either is missing. */
  differences: z.array(z.number().nullable()),
});
export type SarRow = z.infer<typeof SarRowSchema>;

export const SarUnmatchedSchema = z.object({
  strId: z.number().int(),
  smiles: z.string(),
  activity: SarActivitySchema,
  /** Why it is not in the table: "does not contain any of the cores", "no structure", … */
  reason: z.string(),
});

/**
 * Fewer compounds per Free-Wilson term than this, and R² says little: a fit with nearly as many
 * terms as compounds matches its own data whatever the groups do (the page warns; q² says more).
 */
export const FREE_WILSON_MIN_COMPOUNDS_PER_TERM = 3;

export const FreeWilsonSchema = z.object({
  /** Compounds in the fit. */
  compounds: z.number().int(),
  /** Fitted terms: one indicator per R-group at a position, each position's reference group excepted. */
  terms: z.number().int(),
  /** On the compounds fitted. */
  r2: z.number(),
  /** Leave-one-out cross-validated q² = 1 − PRESS / SS(total): how well a compound left out is predicted by the rest. */
  q2: z.number(),
  /** Mean pActivity the contributions are relative to. */
  intercept: z.number(),
  contributions: z.array(z.object({ label: z.string(), smiles: z.string().nullable(), contribution: z.number(), n: z.number().int() })),
  /** The highest predicted combinations, made or not. */
  best: z.array(
    z.object({
      rgroups: z.record(z.string(), z.string().nullable()),
      predicted: z.number(),
      /** The compound that has this combination, when one was made. */
      strId: z.number().int().nullable(),
    }),
  ),
});
export type FreeWilson = z.infer<typeof FreeWilsonSchema>;

export const SarTableEndpointSchema = z.object({
  targetId: z.number().int(),
  targetName: z.string(),
  activityType: z.string(),
  scope: SarEndpointScopeSchema,
  /** "pActivity" for molar units, else the published unit. */
  unit: z.string(),
  molar: z.boolean(),
  /** What the user should know about the values (units converted, non-molar values used as published). */
  note: z.string().nullable(),
});
export type SarTableEndpoint = z.infer<typeof SarTableEndpointSchema>;

/** What a Free-Wilson fit or the R-group matrix reads: an endpoint's values or a difference column. */
export const SarMeasureSchema = z.object({ kind: z.enum(['endpoint', 'difference']), index: z.number().int().min(0) });
export type SarMeasure = z.infer<typeof SarMeasureSchema>;

export const SarTableSchema = z.object({
  /** The first endpoint (= `endpoints[0]`). */
  endpoint: SarTableEndpointSchema,
  /** Every endpoint of the table, the first first. */
  endpoints: z.array(SarTableEndpointSchema),
  /** Difference columns with their label ("pIC50 EGFR − pIC50 ERBB2"). */
  differences: z.array(z.object({ a: z.number().int(), b: z.number().int(), label: z.string() })),
  /** The cores as RDKit labelled them (`[*:n]` at each R position). */
  cores: z.array(z.object({ smiles: z.string(), compounds: z.number().int() })),
  /** R1…Rn in order. */
  labels: z.array(z.string()),
  rows: z.array(SarRowSchema),
  unmatched: z.array(SarUnmatchedSchema),
  /** Null when there are too few compounds or R-groups to fit (the reason in `freeWilsonNote`). */
  freeWilson: FreeWilsonSchema.nullable(),
  /** Why there is no fit, or, beside a fit, which compounds it left out (R-groups seen in only one compound). */
  freeWilsonNote: z.string().nullable(),
  /** The Free-Wilson fit of every further endpoint and difference (the first endpoint's is `freeWilson`). */
  fits: z.array(z.object({ measure: SarMeasureSchema, freeWilson: FreeWilsonSchema.nullable(), note: z.string().nullable() })),
  durationMs: z.number().int(),
});
export type SarTable = z.infer<typeof SarTableSchema>;

/** Progress of the SAR work of a session (polled while a table or the pairs are computed). */
export const SarProgressSchema = z.object({
  running: z.boolean(),
  phase: z.enum(['idle', 'cores', 'decompose', 'pairs']),
  done: z.number().int(),
  total: z.number().int(),
});
export type SarProgress = z.infer<typeof SarProgressSchema>;

// ---------------------------------------------------------------- virtual compounds and export

export const SarVirtualRequestSchema = z.object({
  /** The labelled core of the table (`[*:n]` at each R position). */
  core: z.string().trim().min(1).max(2_000),
  /** Label → R-group SMILES with its attachment point, or null for hydrogen. */
  rgroups: z.record(z.string().max(10), z.string().max(2_000).nullable()),
});
export const SarVirtualResponseSchema = z.object({ smiles: z.string() });

export const SAR_EXPORT_FORMATS = ['xlsx', 'sdf'] as const;
export const SarExportRequestSchema = SarTableRequestSchema.extend({
  format: z.enum(SAR_EXPORT_FORMATS),
  /** The credits the user was shown (one per compound of the table); when the table changed since, the export answers 409 instead of charging another price. */
  expectedCredits: z.number().int().nonnegative().optional(),
});

// ---------------------------------------------------------------- endpoints

const SessionParams = SarSessionParamsSchema;

export const sarEndpoints = {
  setSarData: defineEndpoint({
    method: 'POST',
    path: '/api/results/setSarData',
    access: SEARCH_ROLES,
    summary: `Puts rows of a results tab (Structures or Activities; the ticked ones or all) into the SAR view of that search session (at most ${SAR_MAX_COMPOUNDS.toLocaleString('en-US')} compounds) and answers the endpoints it can be studied against.`,
    body: SetSarDataRequestSchema,
    response: SarDataSchema,
  }),
  sarData: defineEndpoint({
    method: 'GET',
    path: '/api/sar/data/:sessionid',
    access: SEARCH_ROLES,
    summary: 'The SAR data of a search session (404 before setSarData): its compounds and endpoints.',
    params: SessionParams,
    response: SarDataSchema,
  }),
  sarCores: defineEndpoint({
    method: 'POST',
    path: '/api/sar/cores',
    access: SEARCH_ROLES,
    summary: 'Suggested cores of the SAR data: the most frequent Murcko scaffolds and the MCS, with how many compounds each covers.',
    body: SarCoresRequestSchema,
    response: SarCoresResponseSchema,
  }),
  sarOverlap: defineEndpoint({
    method: 'POST',
    path: '/api/sar/overlap',
    access: SEARCH_ROLES,
    summary:
      'How many compounds of the first endpoint are measured on both endpoints of each pair: a difference column (A − B) needs at least one.',
    body: SarOverlapRequestSchema,
    response: SarOverlapResponseSchema,
  }),
  sarTable: defineEndpoint({
    method: 'POST',
    path: '/api/sar/table',
    access: SEARCH_ROLES,
    summary:
      'The SAR table of an endpoint around one or more cores: R-group decomposition, pActivity, MW, cLogP, LE, LipE, the compounds that do not fit, and the Free-Wilson analysis.',
    body: SarTableRequestSchema,
    response: SarTableSchema,
  }),
  sarProgress: defineEndpoint({
    method: 'GET',
    path: '/api/sar/progress/:sessionid',
    access: SEARCH_ROLES,
    summary: 'Progress of the SAR work running for a session (polled while a table or the pairs are computed).',
    params: SessionParams,
    response: SarProgressSchema,
    touchesSession: false,
  }),
  sarCancel: defineEndpoint({
    method: 'POST',
    path: '/api/sar/cancel/:sessionid',
    access: SEARCH_ROLES,
    summary: 'Cancels the SAR work running for a session; its pending call answers 409.',
    params: SessionParams,
    response: MessageResponseSchema,
  }),
  sarVirtual: defineEndpoint({
    method: 'POST',
    path: '/api/sar/virtual',
    access: SEARCH_ROLES,
    summary: 'A virtual compound: the core with the given R-groups joined on (RDKit molzip).',
    body: SarVirtualRequestSchema,
    response: SarVirtualResponseSchema,
  }),
  sarExport: defineEndpoint({
    method: 'POST',
    path: '/api/sar/export',
    access: ['FULL_USER', 'DOWNLOAD_EVALUATOR'],
    summary:
      'Exports the SAR table (XLSX with the R-groups as SMILES, or SDF with R-group fields) as an export job charged one credit per compound.',
    body: SarExportRequestSchema,
    response: ExportJobSchema,
  }),
} as const;
