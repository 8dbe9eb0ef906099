import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { SEARCH_ROLES } from './roles.ts';
import { AppliedFilterSchema, SessionIdSchema } from './search.ts';
import { ResultTabKeySchema } from './result-tabs.ts';

/**
 * Charts and left-hand filters of the results (spec §3 "Charts", §4 "Charts", §9). A chart counts
 * the rows of one tab per value of one property; picking values (include / exclude) or a range
 * (min / max) filters that tab. docs/results.md says what each chart counts.
 */

export const CHART_TYPES = ['List', 'Range', 'Image', 'Tree'] as const;
export type ChartType = (typeof CHART_TYPES)[number];

export interface ChartDefinition {
  chartKey: string;
  chartLabel: string;
  chartType: ChartType;
  /** Spec "chartPriorityOrder": the order charts are offered and enabled in. */
  chartPriorityOrder: number;
  /** What one value is, for the filter panel's tooltips. */
  description: string;
}

/** Every chart, in priority order; the first four are enabled by default (spec §4, §9). */
export const CHART_CATALOGUE: readonly ChartDefinition[] = [
  {
    chartKey: 'bibliographyrefid',
    chartLabel: 'References',
    chartType: 'List',
    chartPriorityOrder: 1,
    description: 'The reference (article or patent) reporting the activity',
  },
  {
    chartKey: 'bibliography',
    chartLabel: 'Bibliography source',
    chartType: 'List',
    chartPriorityOrder: 2,
    description: 'J journal article, P patent, O other source',
  },
  { chartKey: 'year', chartLabel: 'Publication year', chartType: 'Range', chartPriorityOrder: 3, description: 'Year of the reference' },
  {
    chartKey: 'assaytype',
    chartLabel: 'Assay type',
    chartType: 'List',
    chartPriorityOrder: 4,
    description: 'Binding, functional, ADME, toxicity, physicochemical',
  },
  {
    chartKey: 'activitytype',
    chartLabel: 'Activity type',
    chartType: 'List',
    chartPriorityOrder: 5,
    description: 'Standard activity type (IC50, Ki, ...)',
  },
  {
    chartKey: 'target',
    chartLabel: 'Target',
    chartType: 'List',
    chartPriorityOrder: 6,
    description: 'The protein or organism the activity was measured on',
  },
  {
    chartKey: 'targetclass',
    chartLabel: 'Target class',
    chartType: 'Tree',
    chartPriorityOrder: 7,
    description: 'Classification of the target (a class includes its sub-classes)',
  },
  {
    chartKey: 'mechanism',
    chartLabel: 'Activity mechanism',
    chartType: 'List',
    chartPriorityOrder: 8,
    description: 'Inhibitor, agonist, degrader ...',
  },
  { chartKey: 'organism', chartLabel: 'Assay organism', chartType: 'List', chartPriorityOrder: 9, description: 'Organism of the assay' },
  {
    chartKey: 'molweight',
    chartLabel: 'Molecular weight',
    chartType: 'Range',
    chartPriorityOrder: 10,
    description: 'Average molecular weight of the structure',
  },
  {
    chartKey: 'logp',
    chartLabel: 'cLogP',
    chartType: 'Range',
    chartPriorityOrder: 11,
    description: 'Calculated logP (Crippen) of the structure',
  },
  {
    chartKey: 'structures',
    chartLabel: 'Most reported structures',
    chartType: 'Image',
    chartPriorityOrder: 12,
    description: 'Structures with the most rows in this tab',
  },
  {
    chartKey: 'phase',
    chartLabel: 'Highest clinical phase',
    chartType: 'List',
    chartPriorityOrder: 13,
    description: 'Highest development phase of the structure’s clinical compounds',
  },
  {
    chartKey: 'indication',
    chartLabel: 'Indication',
    chartType: 'Tree',
    chartPriorityOrder: 14,
    description: 'Indications of the clinical compounds (a disease includes its sub-diseases)',
  },
  {
    chartKey: 'company',
    chartLabel: 'Company',
    chartType: 'List',
    chartPriorityOrder: 15,
    description: 'Companies named on the references',
  },
];
export const CHART_KEYS = CHART_CATALOGUE.map((chart) => chart.chartKey);
export function chartDefinition(chartKey: string): ChartDefinition | null {
  return CHART_CATALOGUE.find((chart) => chart.chartKey === chartKey) ?? null;
}

/** The id of a List chart's bar of rows without a value ("Not specified"); it can be picked like any value. */
export const NO_VALUE_ID = '__none__';
export const NO_VALUE_LABEL = 'Not specified';

/** Spec §9 sort options; the default is Most Results (ties by label). */
export const CHART_SORTS = [
  { key: 'az', label: 'A-Z', sortType: 'label', sortOrder: 'asc' },
  { key: 'za', label: 'Z-A', sortType: 'label', sortOrder: 'desc' },
  { key: 'least', label: 'Least Results', sortType: 'count', sortOrder: 'asc' },
  { key: 'most', label: 'Most Results', sortType: 'count', sortOrder: 'desc' },
] as const;
export type ChartSortKey = (typeof CHART_SORTS)[number]['key'];
export const DEFAULT_CHART_SORT: ChartSortKey = 'most';
/** Values a chart shows unless asked for more (the filter panel lists up to MAX_CHART_VALUES). */
export const DEFAULT_CHART_MAX_COUNT = 10;
export const MAX_CHART_VALUES = 500;

/** One value of a chart: a bar (List), a bin (Range: from ≤ v < to, the last bin closed), a structure (Image), a node (Tree). */
export const ChartItemSchema = z.object({
  id: z.union([z.string(), z.number()]),
  label: z.string(),
  /**
   * A short label for a crowded axis (a target's gene symbol; null: the value has none, shorten the
   * label). Absent on charts whose labels are short enough already. The label stays the full name.
   */
  short: z.string().nullable().optional(),
  count: z.number().int(),
  from: z.number().nullable().optional(),
  to: z.number().nullable().optional(),
  /** Tree: the parent node's id (spec: children are built from parentid); null at the root. */
  parentId: z.union([z.string(), z.number()]).nullable().optional(),
  /** Tree: the ids the node stands for (itself and its descendants). */
  ids: z.array(z.number()).optional(),
});
export type ChartItem = z.infer<typeof ChartItemSchema>;

export const ChartRequestSchema = z.object({
  sessionid: SessionIdSchema,
  /** The tab whose rows the chart counts. */
  type: ResultTabKeySchema,
  /** The chart key (spec `charttype`). */
  charttype: z.string().min(1).max(100),
  /** True: count every row of the tab, ignoring its filters. */
  resetFlg: z.boolean().default(false),
  sortOrder: z.enum(['asc', 'desc']).default('desc'),
  sortType: z.enum(['label', 'count']).default('count'),
  maxCount: z.number().int().min(1).max(MAX_CHART_VALUES).default(DEFAULT_CHART_MAX_COUNT),
  /** The tab narrowed to the rows of these structures ("go to" from another tab): the chart counts only those, as the grid shows. */
  strIdList: z.array(z.number().int().positive()).max(100_000).optional(),
});
export type ChartRequest = z.infer<typeof ChartRequestSchema>;

export const ChartResponseSchema = z.object({
  tab: ResultTabKeySchema,
  chartKey: z.string(),
  chartLabel: z.string(),
  chartType: z.enum(CHART_TYPES),
  chartPriorityOrder: z.number().int(),
  chartData: z.array(ChartItemSchema),
  /** Distinct values in all (chartData holds up to maxCount of them; Tree: every node). */
  distinct: z.number().int(),
  /** Rows of the tab the chart counted (rows without a value are not in any bar). */
  rows: z.number().int(),
  /** Range charts: the smallest and largest value. */
  min: z.number().nullable(),
  max: z.number().nullable(),
  maxCount: z.number().int(),
  /** The filter of this chart currently applied to the tab, if any. */
  applied: AppliedFilterSchema.nullable(),
});
export type ChartResponse = z.infer<typeof ChartResponseSchema>;

export const LhsfRequestSchema = z.object({
  sessionid: SessionIdSchema,
  type: ResultTabKeySchema,
  /** Only values whose label (or short label: a target's gene symbol) contains this text. */
  search: z.string().trim().max(200).optional(),
  sortOrder: z.enum(['asc', 'desc']).default('desc'),
  sortType: z.enum(['label', 'count']).default('count'),
  maxCount: z.number().int().min(1).max(MAX_CHART_VALUES).default(100),
});

export const chartEndpoints = {
  chart: defineEndpoint({
    method: 'POST',
    path: '/api/results/chart',
    access: SEARCH_ROLES,
    summary:
      'One chart of one tab (charttype = chart key, type = tab): values with row counts over the rows passing the tab’s filters (resetFlg: all rows), sorted A-Z, Z-A, least or most results.',
    body: ChartRequestSchema,
    response: ChartResponseSchema,
  }),
  leftHandFilter: defineEndpoint({
    method: 'POST',
    path: '/api/security/lhsf/chart/:chartType/:chartKey',
    access: SEARCH_ROLES,
    summary: 'The values of one chart for the left-hand filter panel (searchable, up to 500), with row counts.',
    params: z.object({ chartType: z.enum(CHART_TYPES), chartKey: z.string().min(1).max(100) }),
    body: LhsfRequestSchema,
    response: ChartResponseSchema,
  }),
} as const;
