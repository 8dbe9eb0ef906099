import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import type { Quantity } from './quantities.ts';
import { SEARCH_ROLES } from './roles.ts';
import { SessionIdSchema } from './search.ts';

/**
 * The analyzers (spec §2 /analyzers, /analyzers/{tabid}; §7 `security/allmapping/search/visualization`,
 * `.../storerequest`, `.../fetchrequest`): charts over the rows of a results tab, aggregated on the
 * server so a 750,000-activity session works, linked back to the grid (brushed points become a
 * selection). docs/sar.md "Analyzers" says how each chart is computed.
 */

/** Results tabs the analyzers chart. */
export const ANALYZER_TABS = ['structuretab', 'activitiestab'] as const;
export const AnalyzerTabSchema = z.enum(ANALYZER_TABS);
export type AnalyzerTab = z.infer<typeof AnalyzerTabSchema>;

/**
 * Numeric measures a chart can use. `year` exists on the Activities tab only; `pactivity` is the
 * row's own on the Activities tab and, on the Structures tab, the median pActivity of the
 * structure's activities within the search on the scatter's `endpoint` (a target × activity type).
 */
export const ANALYZER_MEASURES = ['mw', 'clogp', 'psa', 'hbd', 'hba', 'rotb', 'pactivity', 'year'] as const;
export const AnalyzerMeasureSchema = z.enum(ANALYZER_MEASURES);
export type AnalyzerMeasure = z.infer<typeof AnalyzerMeasureSchema>;
export const ANALYZER_MEASURE_LABELS: Readonly<Record<AnalyzerMeasure, string>> = {
  mw: 'Molecular weight (g/mol)',
  clogp: 'cLogP',
  psa: 'Polar surface area (Å²)',
  hbd: 'H-bond donors',
  hba: 'H-bond acceptors',
  rotb: 'Rotatable bonds',
  pactivity: 'pActivity',
  year: 'Year',
};
/** How each measure's values are written (contracts/quantities.ts): pActivity 7.20, a weight 481.60, a year 2024. */
export const ANALYZER_MEASURE_QUANTITY: Readonly<Record<AnalyzerMeasure, Quantity>> = {
  mw: 'molecularWeight',
  clogp: 'descriptor',
  psa: 'descriptor',
  hbd: 'count',
  hba: 'count',
  rotb: 'count',
  pactivity: 'pActivity',
  year: 'plain',
};
/** Measures of the Structures tab (the activity measures need an activity row). */
export const STRUCTURE_MEASURES: readonly AnalyzerMeasure[] = ['mw', 'clogp', 'psa', 'hbd', 'hba', 'rotb'];

/** Longest activity type an endpoint names (the knowledge base's are under 40 characters). */
export const ENDPOINT_ACTIVITY_TYPE_MAX = 100;
/**
 * An endpoint: a target and a standard activity type (IC50, Ki…). On the Structures tab a scatter's
 * pActivity is a structure's median over its activities within the search on this endpoint.
 */
export const AnalyzerEndpointSchema = z.object({
  // An integer column: a larger id would reach the database as "integer out of range".
  targetId: z
    .number()
    .int('A target id is a whole number')
    .positive('A target id is a positive number')
    .max(2_147_483_647, 'There is no target with so large an id'),
  // Not trimmed: it is matched exactly against the stored type.
  activityType: z
    .string()
    .min(1, 'Name the activity type of the endpoint (IC50, Ki…)')
    .max(ENDPOINT_ACTIVITY_TYPE_MAX, `An activity type has at most ${ENDPOINT_ACTIVITY_TYPE_MAX} characters`),
});
export type AnalyzerEndpoint = z.infer<typeof AnalyzerEndpointSchema>;

/** Groupings of a distribution (Activities tab). */
export const ANALYZER_GROUPINGS = ['target', 'assayType', 'year', 'activityType'] as const;
export const AnalyzerGroupingSchema = z.enum(ANALYZER_GROUPINGS);

/** Above this many points a scatter is binned (2-D histogram) or sampled, and says so. */
export const SCATTER_MAX_POINTS = 20_000;

export const ScatterConfigSchema = z.object({
  chart: z.literal('scatter'),
  x: AnalyzerMeasureSchema,
  y: AnalyzerMeasureSchema,
  color: AnalyzerMeasureSchema.nullable().default(null),
  /** Structures tab: the endpoint of `pactivity` on any of x, y, colour (analyses saved before it open without one). */
  endpoint: AnalyzerEndpointSchema.nullable().default(null),
});
export const DistributionConfigSchema = z.object({
  chart: z.literal('distribution'),
  measure: AnalyzerMeasureSchema.default('pactivity'),
  groupBy: AnalyzerGroupingSchema.default('target'),
  /** Most groups shown (the largest). */
  groups: z.number().int().min(1).max(50).default(12),
});
export const HeatmapConfigSchema = z.object({
  chart: z.literal('heatmap'),
  /** Most targets and compounds (those with the most activities). */
  targets: z.number().int().min(2).max(60).default(25),
  compounds: z.number().int().min(2).max(200).default(60),
});
export const TreemapConfigSchema = z.object({ chart: z.literal('treemap') });
export const ScaffoldsConfigSchema = z.object({
  chart: z.literal('scaffolds'),
  limit: z.number().int().min(1).max(100).default(30),
});
export const AnalyzerChartConfigSchema = z.discriminatedUnion('chart', [
  ScatterConfigSchema,
  DistributionConfigSchema,
  HeatmapConfigSchema,
  TreemapConfigSchema,
  ScaffoldsConfigSchema,
]);
export type AnalyzerChartConfig = z.infer<typeof AnalyzerChartConfigSchema>;
export type AnalyzerChartKind = AnalyzerChartConfig['chart'];

export const VisualizationRequestSchema = z.object({
  sessionid: SessionIdSchema,
  tab: AnalyzerTabSchema,
  config: AnalyzerChartConfigSchema,
});
export type VisualizationRequest = z.infer<typeof VisualizationRequestSchema>;

// ---------------------------------------------------------------- answers

const Bounds = z.object({ min: z.number(), max: z.number() });
export const ScatterDataSchema = z.object({
  chart: z.literal('scatter'),
  x: AnalyzerMeasureSchema,
  y: AnalyzerMeasureSchema,
  color: AnalyzerMeasureSchema.nullable(),
  /** The endpoint of a Structures-tab pActivity, with its target's name (null when no measure uses one). */
  endpoint: AnalyzerEndpointSchema.extend({ targetName: z.string() }).nullable(),
  /** Rows of the tab with both values. */
  total: z.number().int(),
  /** Rows of the tab without one of the values (left out). */
  missing: z.number().int(),
  /** Of the rows drawn, those without a colour value (drawn grey). */
  colorMissing: z.number().int(),
  /** Over SCATTER_MAX_POINTS: `sampled` (a random sample of points) — the message says so. */
  sampled: z.boolean(),
  /** Points: the row id of the tab (activity id or str_id), x, y, the colour value and the row's structure (drawn on hover; null for a compound without one). */
  points: z.array(
    z.object({ id: z.number().int(), x: z.number(), y: z.number(), c: z.number().nullable(), s: z.number().int().nullable() }),
  ),
  xBounds: Bounds.nullable(),
  yBounds: Bounds.nullable(),
  colorBounds: Bounds.nullable(),
});
export const DistributionDataSchema = z.object({
  chart: z.literal('distribution'),
  measure: AnalyzerMeasureSchema,
  groupBy: AnalyzerGroupingSchema,
  groups: z.array(
    z.object({
      key: z.string(),
      label: z.string(),
      count: z.number().int(),
      min: z.number(),
      q1: z.number(),
      median: z.number(),
      q3: z.number(),
      max: z.number(),
      /** Equal-width bins over the measure's range of all groups (the same bins for every group). */
      histogram: z.array(z.number().int()),
    }),
  ),
  /** Bin edges: histogram[i] counts values in [edges[i], edges[i+1]). */
  edges: z.array(z.number()),
  /** Groups beyond the `groups` largest, left out. */
  otherGroups: z.number().int(),
});
export const HeatmapDataSchema = z.object({
  chart: z.literal('heatmap'),
  /**
   * Where the cells come from: `knowledgeBase`, every measurement of the chosen compounds in the
   * knowledge base (any target, not only the search's rows), so a one-target search still shows
   * the compounds' selectivity.
   */
  cellsFrom: z.literal('knowledgeBase'),
  /** `inSearch`: the tab's rows of these compounds include activities on this target. */
  /** `geneSymbol`: the short name the heatmap labels a target by (the full name on hover). */
  targets: z.array(
    z.object({ id: z.number().int(), name: z.string(), geneSymbol: z.string().nullable().optional(), inSearch: z.boolean() }),
  ),
  /** The tab's most measured compounds (by their rows with a target and a pActivity). */
  compounds: z.array(z.object({ strId: z.number().int(), smiles: z.string() })),
  /** Targets the compounds were measured on beyond the `targets` shown (left out). */
  otherTargets: z.number().int(),
  /** Median pActivity of compound `c` on target `t` (indexes into the two lists). */
  cells: z.array(z.object({ t: z.number().int(), c: z.number().int(), value: z.number(), n: z.number().int() })),
});
export interface TreemapNode {
  name: string;
  /** Distinct compounds under the node. */
  value: number;
  children?: TreemapNode[];
}
export const TreemapNodeSchema: z.ZodType<TreemapNode> = z.lazy(() =>
  z.object({ name: z.string(), value: z.number().int(), children: z.array(TreemapNodeSchema).optional() }),
);
export const TreemapDataSchema = z.object({ chart: z.literal('treemap'), total: z.number().int(), root: z.array(TreemapNodeSchema) });
export const ScaffoldsDataSchema = z.object({
  chart: z.literal('scaffolds'),
  /** Distinct structures looked at (a random sample above SAR_MAX_COMPOUNDS-sized sets; `sampled` says so). */
  structures: z.number().int(),
  sampled: z.boolean(),
  scaffolds: z.array(z.object({ smiles: z.string(), compounds: z.number().int() })),
});
export const VisualizationResponseSchema = z.discriminatedUnion('chart', [
  ScatterDataSchema,
  DistributionDataSchema,
  HeatmapDataSchema,
  TreemapDataSchema,
  ScaffoldsDataSchema,
]);
export type VisualizationResponse = z.infer<typeof VisualizationResponseSchema>;

/** Most endpoints offered for a Structures-tab pActivity (the most measured). */
export const ANALYZER_ENDPOINTS_MAX = 50;
export const EndpointOptionsRequestSchema = z.object({ sessionid: SessionIdSchema, tab: AnalyzerTabSchema });
export const EndpointOptionsResponseSchema = z.object({
  /** Target × activity type of the tab's activities with a pActivity, most structures first (at most ANALYZER_ENDPOINTS_MAX). */
  endpoints: z.array(AnalyzerEndpointSchema.extend({ targetName: z.string(), structures: z.number().int(), activities: z.number().int() })),
  /** Endpoints beyond those answered. */
  more: z.number().int(),
});
export type EndpointOption = z.infer<typeof EndpointOptionsResponseSchema>['endpoints'][number];

// ---------------------------------------------------------------- saved analyses

/** What an analysis keeps: the search it was made on, the tab and its charts. */
export const StoredAnalysisConfigSchema = z.object({
  tab: AnalyzerTabSchema,
  charts: z.array(AnalyzerChartConfigSchema).min(1).max(12),
});
export const StoreAnalysisRequestSchema = z.object({
  name: z.string().trim().min(1, 'Give the analysis a name').max(120),
  sessionid: SessionIdSchema,
  config: StoredAnalysisConfigSchema,
});
export const StoredAnalysisSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The search session it was made on; when that has expired, the search is run again from `criteria`. */
  sessionid: SessionIdSchema,
  /** The search's readable summary when it was saved. */
  summary: z.string().nullable(),
  config: StoredAnalysisConfigSchema,
  createdAt: z.string(),
});
export type StoredAnalysis = z.infer<typeof StoredAnalysisSchema>;
// The id is an integer column: a larger one would reach the database as "integer out of range" (500).
export const FetchAnalysesQuerySchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647).optional() });
export const FetchAnalysesResponseSchema = z.object({ analyses: z.array(StoredAnalysisSchema) });

export const analyzerEndpoints = {
  visualization: defineEndpoint({
    method: 'POST',
    path: '/api/security/allmapping/search/visualization',
    access: SEARCH_ROLES,
    summary:
      'One analyzer chart over the rows of a results tab (scatter, distribution, target × compound heatmap, target-class treemap, scaffold frequency), aggregated on the server.',
    body: VisualizationRequestSchema,
    response: VisualizationResponseSchema,
  }),
  endpointOptions: defineEndpoint({
    method: 'POST',
    path: '/api/security/allmapping/search/visualization/endpoints',
    access: SEARCH_ROLES,
    summary:
      'The endpoints (target × activity type) of a results tab’s activities with a pActivity, most structures first: what a Structures-tab scatter can plot as pActivity.',
    body: EndpointOptionsRequestSchema,
    response: EndpointOptionsResponseSchema,
  }),
  storeRequest: defineEndpoint({
    method: 'POST',
    path: '/api/security/allmapping/search/storerequest',
    access: SEARCH_ROLES,
    summary: 'Saves an analysis (its search session, tab and charts) under a name.',
    body: StoreAnalysisRequestSchema,
    response: StoredAnalysisSchema,
  }),
  fetchRequest: defineEndpoint({
    method: 'GET',
    path: '/api/security/allmapping/search/fetchrequest',
    access: SEARCH_ROLES,
    summary: 'The caller’s saved analyses, newest first; `?id=` one of them (another user’s answers 403).',
    query: FetchAnalysesQuerySchema,
    response: FetchAnalysesResponseSchema,
  }),
} as const;
