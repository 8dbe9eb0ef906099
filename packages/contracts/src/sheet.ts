import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { EXPORT_ROLES, SEARCH_ROLES } from './roles.ts';
import { ExportJobSchema } from './exports.ts';
import { CompoundSourceSchema } from './workspace.ts';

/**
 * The compound × endpoint sheet (issue 59; docs/workspace.md "The sheet"): one row per compound of
 * a result set or collection, one column per endpoint — a target × activity type, or one assay ×
 * activity type — holding the aggregate of every measurement of that compound in the knowledge
 * base, with computed properties and differences (A − B) beside them. Stateless: every page call
 * names its source and columns; the server keeps the computed columns a while, so the next page or
 * sort costs only the sort.
 */

/** Most compounds a sheet holds (the Structures tab of a search at its own limits). */
export const SHEET_MAX_COMPOUNDS = 250_000;
/** Most endpoint columns. */
export const SHEET_MAX_ENDPOINTS = 20;
/** Most difference columns. */
export const SHEET_MAX_DIFFERENCES = 10;
/** Most endpoints a suggestion lists (most compounds covered first), each kind. */
export const SHEET_MAX_SUGGESTIONS = 200;
export const SHEET_PAGE_SIZE = { default: 50, max: 500 } as const;
/** Most rows one export of a sheet holds (its rows are kept with the job, as a SAR table's). */
export const SHEET_EXPORT_MAX_ROWS = 50_000;

/** A sheet's compounds: a results tab's rows (their structures), ids, or a collection. */
export const SheetSourceSchema = CompoundSourceSchema;
export type SheetSource = z.infer<typeof SheetSourceSchema>;

export const SheetEndpointSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('target'), targetId: z.number().int().positive(), activityType: z.string().trim().min(1).max(100) }),
  z.object({ kind: z.literal('assay'), assayId: z.number().int().positive(), activityType: z.string().trim().min(1).max(100) }),
]);
export type SheetEndpoint = z.infer<typeof SheetEndpointSchema>;

/** An endpoint the sheet could show, with how many of its compounds have a measurement there. */
export const SheetEndpointOptionSchema = z.object({
  endpoint: SheetEndpointSchema,
  /** "IC50 · EGFR" / "IC50 · CHEMBL1234567 (assay)". */
  label: z.string(),
  /** The target's name (an assay's target, when it has one). */
  targetName: z.string().nullable(),
  /** The gene symbol of the target, when it has one (short labels). */
  geneSymbol: z.string().nullable(),
  compounds: z.number().int(),
  activities: z.number().int(),
  /** Values become pActivity (molar units or a pChEMBL); otherwise the values are used as published. */
  molar: z.boolean(),
});
export type SheetEndpointOption = z.infer<typeof SheetEndpointOptionSchema>;

export const SheetSuggestRequestSchema = z.object({ source: SheetSourceSchema });
export const SheetSuggestResponseSchema = z.object({
  compounds: z.number().int(),
  /** Target × activity type, most compounds first. */
  targets: z.array(SheetEndpointOptionSchema),
  /** Assay × activity type, most compounds first. */
  assays: z.array(SheetEndpointOptionSchema),
});
export type SheetSuggestResponse = z.infer<typeof SheetSuggestResponseSchema>;

/** What a cell shows: the median of its exact values by default. */
export const SHEET_AGGREGATES = ['median', 'geomean', 'best'] as const;
export const SheetAggregateSchema = z.enum(SHEET_AGGREGATES);
export type SheetAggregate = z.infer<typeof SheetAggregateSchema>;

/** Properties the sheet can show beside the endpoints (the structure's computed values). */
export const SHEET_PROPERTIES = ['mw', 'clogp', 'psa', 'hbd', 'hba', 'rotb', 'heavyAtoms'] as const;
export const SheetPropertySchema = z.enum(SHEET_PROPERTIES);
export type SheetProperty = z.infer<typeof SheetPropertySchema>;
export const SHEET_PROPERTY_LABELS: Record<SheetProperty, string> = {
  mw: 'MW',
  clogp: 'cLogP',
  psa: 'TPSA',
  hbd: 'HBD',
  hba: 'HBA',
  rotb: 'Rot. bonds',
  heavyAtoms: 'Heavy atoms',
};

/**
 * A sortable, filterable column: `strId`, a property key, `e<i>` (the i-th endpoint, from 0) or
 * `d<i>` (the i-th difference).
 */
export const SheetColumnSchema = z
  .string()
  .regex(
    /^(strId|mw|clogp|psa|hbd|hba|rotb|heavyAtoms|e\d{1,2}|d\d{1,2})$/,
    'Unknown sheet column: use strId, a property, e0…e19 or d0…d9',
  );

export const SheetDifferenceSchema = z.object({ a: z.number().int().min(0), b: z.number().int().min(0) });
export const SheetFilterSchema = z.object({
  column: SheetColumnSchema,
  min: z.number().finite().nullable().optional(),
  max: z.number().finite().nullable().optional(),
  /** Only rows with (true) or without (false) a value in the column. */
  hasValue: z.boolean().optional(),
});
export type SheetFilter = z.infer<typeof SheetFilterSchema>;

export const SheetRequestSchema = z.object({
  source: SheetSourceSchema,
  endpoints: z.array(SheetEndpointSchema).max(SHEET_MAX_ENDPOINTS, `A sheet shows at most ${SHEET_MAX_ENDPOINTS} endpoints`).default([]),
  differences: z
    .array(SheetDifferenceSchema)
    .max(SHEET_MAX_DIFFERENCES, `A sheet shows at most ${SHEET_MAX_DIFFERENCES} differences`)
    .default([]),
  aggregate: SheetAggregateSchema.default('median'),
  properties: z.array(SheetPropertySchema).max(SHEET_PROPERTIES.length).default(['mw', 'clogp']),
  sort: z
    .object({ column: SheetColumnSchema, direction: z.enum(['asc', 'desc']) })
    .nullable()
    .default(null),
  filters: z.array(SheetFilterSchema).max(40).default([]),
  page: z.number().int().min(0).max(1_000_000).default(0),
  pageSize: z.number().int().min(1).max(SHEET_PAGE_SIZE.max).default(SHEET_PAGE_SIZE.default),
});
export type SheetRequest = z.infer<typeof SheetRequestSchema>;
export type SheetRequestInput = z.input<typeof SheetRequestSchema>;

/** `=` exact; `>` at least (more active than a censored bound); `<` at most. */
export const QualifierSchema = z.enum(['=', '>', '<']);
export type Qualifier = z.infer<typeof QualifierSchema>;

/**
 * One compound on one endpoint (docs/workspace.md "Aggregates"). `value` is the chosen aggregate
 * of the exact values; with no exact value, the most informative censored bound with its
 * qualifier. Censored values are never averaged as if exact: they are counted in `censored`.
 */
export const SheetCellSchema = z.object({
  value: z.number(),
  qualifier: QualifierSchema,
  /** Every measurement of the compound here, exact and censored. */
  n: z.number().int(),
  censored: z.number().int(),
  median: z.number().nullable(),
  /** Geometric mean of the concentrations = mean of pActivity (molar); mean of the values otherwise. */
  geomean: z.number().nullable(),
  /** The most active value, a censored bound included (`bestQualifier`). */
  best: z.number(),
  bestQualifier: QualifierSchema,
  /** Sample standard deviation of the exact values (n − 1; null below two). */
  sd: z.number().nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
});
export type SheetCell = z.infer<typeof SheetCellSchema>;

export const SheetDifferenceCellSchema = z.object({ value: z.number(), qualifier: QualifierSchema });

export const SheetColumnInfoSchema = SheetEndpointOptionSchema.extend({
  /** `pActivity` for molar endpoints, else the unit the values are in. */
  unit: z.string(),
  /** Compounds of the sheet with a value here. */
  withValue: z.number().int(),
  note: z.string(),
});
export type SheetColumnInfo = z.infer<typeof SheetColumnInfoSchema>;

export const SheetRowSchema = z.object({
  strId: z.number().int(),
  smiles: z.string(),
  name: z.string().nullable(),
  properties: z.record(z.string(), z.number().nullable()),
  cells: z.array(SheetCellSchema.nullable()),
  differences: z.array(SheetDifferenceCellSchema.nullable()),
});
export type SheetRow = z.infer<typeof SheetRowSchema>;

export const SheetPageSchema = z.object({
  /** Compounds of the source. */
  compounds: z.number().int(),
  /** Rows after the filters. */
  rowCount: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  columns: z.array(SheetColumnInfoSchema),
  differences: z.array(z.object({ a: z.number().int(), b: z.number().int(), label: z.string(), withValue: z.number().int() })),
  sort: z.object({ column: z.string(), direction: z.enum(['asc', 'desc']) }).nullable(),
  rows: z.array(SheetRowSchema),
});
export type SheetPage = z.infer<typeof SheetPageSchema>;

export const SHEET_EXPORT_FORMATS = ['csv', 'xlsx', 'sdf'] as const;
export const SheetExportRequestSchema = SheetRequestSchema.omit({ page: true, pageSize: true }).extend({
  format: z.enum(SHEET_EXPORT_FORMATS),
  /** The credits the user was shown (one per row); a changed sheet answers 409 instead of charging another price. */
  expectedCredits: z.number().int().nonnegative().optional(),
});
export type SheetExportRequest = z.infer<typeof SheetExportRequestSchema>;

export const sheetEndpoints = {
  sheetSuggest: defineEndpoint({
    method: 'POST',
    path: '/api/sheet/endpoints',
    access: SEARCH_ROLES,
    summary: 'The endpoints (target × activity type, assay × activity type) measured for the compounds of a source, most compounds first.',
    body: SheetSuggestRequestSchema,
    response: SheetSuggestResponseSchema,
  }),
  sheetPage: defineEndpoint({
    method: 'POST',
    path: '/api/sheet/page',
    access: SEARCH_ROLES,
    summary: `A page of the compound × endpoint sheet of a source (at most ${SHEET_MAX_COMPOUNDS.toLocaleString('en-US')} compounds, ${SHEET_MAX_ENDPOINTS} endpoints), sorted and filtered.`,
    body: SheetRequestSchema,
    response: SheetPageSchema,
  }),
  sheetExport: defineEndpoint({
    method: 'POST',
    path: '/api/sheet/export',
    access: EXPORT_ROLES,
    summary: 'Exports the sheet (CSV, XLSX or SDF) under the results export’s credit rule: one credit a row.',
    body: SheetExportRequestSchema,
    response: ExportJobSchema,
  }),
} as const;
