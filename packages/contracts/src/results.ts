import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { SEARCH_ROLES } from './roles.ts';
import { AppliedFilterSchema, SearchCriteriaSchema, SessionIdSchema, SixCountsSchema } from './search.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, RESULT_ENTITIES, ResultTabKeySchema, ResultTabPathSchema, START_PAGE } from './result-tabs.ts';

/**
 * The results workspace (spec §2 results routes, §3 "Result columns" / "Tab params", §4 "Results
 * tab state", §7 "Results"). Every call reads the id sets of one search session, so tabs, charts,
 * filters and selections of one search agree (docs/results.md).
 */

const Ids = z.array(z.number().int().positive()).max(100_000);

// ---------------------------------------------------------------- columns

export const COLUMN_TYPES = ['integer', 'number', 'text', 'structure', 'date', 'json'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

/** Spec §3: each column has a label, data type and order; some are hidden by default. */
export const ResultColumnSchema = z.object({
  key: z.string(),
  label: z.string(),
  type: z.enum(COLUMN_TYPES),
  order: z.number().int(),
  hidden: z.boolean(),
  sortable: z.boolean(),
});
export type ResultColumn = z.infer<typeof ResultColumnSchema>;

export const TabColumnsSchema = z.object({ tab: ResultTabKeySchema, label: z.string(), columns: z.array(ResultColumnSchema) });
export type TabColumns = z.infer<typeof TabColumnsSchema>;
export const AllTabColumnsSchema = z.object({ resetAll: z.boolean(), tabs: z.array(TabColumnsSchema) });

/** The similarity column every structure-bearing tab has, hidden until a similarity sort (spec §4). */
export const SIMILARITY_COLUMN = 'similarity';

// ---------------------------------------------------------------- tab pages

export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export const SortOrderSchema = z.object({ column: z.string().min(1).max(100), direction: z.enum(SORT_DIRECTIONS) });
export type SortOrder = z.infer<typeof SortOrderSchema>;

/** Spec §3 "Tab params". `smilesSortCategory` names the measure of a SMILES sort (Tanimoto on Morgan r=2). */
export const SMILES_SORT_CATEGORIES = ['similarity'] as const;
export const TabRequestSchema = z
  .object({
    sessionid: SessionIdSchema,
    pageNumber: z.number().int().min(0).default(START_PAGE),
    pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
    sortOrder: SortOrderSchema.nullable().optional(),
    /** Sort the rows by similarity to this SMILES (spec `sortSmiles`); reveals the similarity column. */
    sortSmiles: z.string().trim().max(10_000).nullable().optional(),
    smilesSortCategory: z.enum(SMILES_SORT_CATEGORIES).nullable().optional(),
    /** Similarity window of a SMILES sort (0–1); rows outside it are left out. */
    minValue: z.number().min(0).max(1).nullable().optional(),
    maxValue: z.number().min(0).max(1).nullable().optional(),
    /** Only the rows of these structures (spec `strIdList`: "go to" from another tab). */
    strIdList: Ids.optional(),
  })
  .refine((r) => r.minValue == null || r.maxValue == null || r.minValue <= r.maxValue, {
    message: 'The minimum similarity is above the maximum',
    path: ['minValue'],
  });
export type TabRequest = z.infer<typeof TabRequestSchema>;

export const CellValueSchema = z.union([z.number(), z.string(), z.boolean(), z.null()]);
export type CellValue = z.infer<typeof CellValueSchema>;
export const ResultRowSchema = z.record(z.string(), CellValueSchema);
export type ResultRow = z.infer<typeof ResultRowSchema>;

export const TabPageSchema = z.object({
  tab: ResultTabKeySchema,
  data: z.array(ResultRowSchema),
  rowCount: z.number().int(),
  pageNumber: z.number().int(),
  pageSize: z.number().int(),
  /** The sort applied (the tab's default when none was asked). */
  sortOrder: SortOrderSchema,
  /** The SMILES sort applied (canonical SMILES), or null. */
  similaritySort: z.object({ smiles: z.string(), minValue: z.number(), maxValue: z.number() }).nullable(),
  /** The filters of this tab (applyfilters) that the rows obey. */
  filters: z.array(AppliedFilterSchema),
  /** True when structures were added to the knowledge base after the search ran: running it again may find more. */
  strIdNewlyAddedStatus: z.boolean(),
});
export type TabPage = z.infer<typeof TabPageSchema>;

/**
 * Spec §3: activity and assay rows carry `innerGrids`, a JSON string of these grids (an activity's
 * assay and conditions; an assay's activities in this search). Clients parse it with this schema.
 */
export const InnerGridSchema = z.object({
  title: z.string(),
  columns: z.array(z.object({ key: z.string(), label: z.string() })),
  rows: z.array(ResultRowSchema),
  /** More rows exist than the grid carries. */
  more: z.boolean(),
});
export type InnerGrid = z.infer<typeof InnerGridSchema>;
export const InnerGridsSchema = z.array(InnerGridSchema);

// ---------------------------------------------------------------- session, filters, selection, navigation

export const ResultsSessionSchema = z.object({
  sessionid: z.string(),
  kind: z.enum(['search', 'selection']),
  status: z.string(),
  summary: z.string().nullable(),
  createdAt: z.string(),
  counts: SixCountsSchema.nullable(),
  searchcriteria: SearchCriteriaSchema.nullable(),
  /** Applied filters per tab key. */
  filters: z.record(z.string(), z.array(AppliedFilterSchema)),
  /** Rows per tab with its filters applied. */
  tabCounts: z.record(z.string(), z.number().int()),
  strIdNewlyAddedStatus: z.boolean(),
  /**
   * What the search's structure rows mean for the grids (docs/results.md "Similarity and
   * substructure searches"): `similarity` — a similarity row scored the structures, so the tabs
   * show the score and sort by it by default; `highlight` — the query of a substructure row, drawn
   * highlighted in the Structures grid and the compound leaflet.
   */
  structureQuery: z
    .object({
      similarity: z.boolean(),
      highlight: z.object({ kind: z.enum(['smiles', 'smarts']), text: z.string() }).nullable(),
    })
    .default({ similarity: false, highlight: null }),
});
export type ResultsSession = z.infer<typeof ResultsSessionSchema>;
export type StructureHighlight = NonNullable<ResultsSession['structureQuery']['highlight']>;

export const ApplyFiltersRequestSchema = z.object({ sessionid: SessionIdSchema, filters: z.array(AppliedFilterSchema).max(50) });
export const ApplyFiltersResponseSchema = z.object({
  tab: ResultTabKeySchema,
  /** The filters kept (values that no longer exist in this search are dropped and listed in `ignored`). */
  filters: z.array(AppliedFilterSchema),
  ignored: z.array(z.object({ chartKey: z.string(), values: z.array(z.union([z.string(), z.number()])) })),
  rowCount: z.number().int(),
  message: z.string().nullable(),
});
export const ResetFiltersRequestSchema = z.object({ sessionid: SessionIdSchema });
export const ResetFiltersResponseSchema = z.object({ tabCounts: z.record(z.string(), z.number().int()) });

/** Spec §4 tab state: rows picked one by one, or "select all" minus the unselected ones. */
export const SelectionSchema = z.object({
  selectAll: z.boolean().default(false),
  selectedIds: Ids.default([]),
  unselectedIds: Ids.default([]),
});
export type Selection = z.infer<typeof SelectionSchema>;
export const NewSearchByRequestSchema = z.object({
  sessionid: SessionIdSchema,
  selection: SelectionSchema,
  /** What narrows the tab the user selected in (select all takes exactly the rows shown): a "go to", a similarity window. */
  strIdList: Ids.optional(),
  sortSmiles: z.string().trim().max(10_000).nullable().optional(),
  minValue: z.number().min(0).max(1).nullable().optional(),
  maxValue: z.number().min(0).max(1).nullable().optional(),
});
export const NewSearchByResponseSchema = z.object({
  /** The new search: one selection row; run it with the newsearchbyselection calls in a new session. */
  searchcriteria: SearchCriteriaSchema,
  entity: z.enum(RESULT_ENTITIES),
  selected: z.number().int(),
  summary: z.string(),
});
/** Most rows a new search by selection may start from. */
export const MAX_SELECTION = 100_000;

export const GotoRequestSchema = z.object({
  sessionid: SessionIdSchema,
  fromTab: ResultTabKeySchema,
  toTab: ResultTabKeySchema,
  ids: Ids.min(1, 'Choose at least one row to go to'),
});
export const GotoResponseSchema = z.object({ tab: ResultTabKeySchema, strIdList: z.array(z.number().int()), rowCount: z.number().int() });
export const ViewAllRequestSchema = z.object({ sessionid: SessionIdSchema, tab: ResultTabKeySchema });
export const ViewAllResponseSchema = z.object({ tab: ResultTabKeySchema, rowCount: z.number().int() });

export const TabularViewSchema = z.object({ strId: z.number().int(), columns: z.array(ResultColumnSchema), row: ResultRowSchema });

// ---------------------------------------------------------------- endpoints

const TabParams = z.object({ tab: ResultTabPathSchema });

export const resultsEndpoints = {
  tabColumns: defineEndpoint({
    method: 'GET',
    path: '/api/results/metadata/getalltabcolumns/:resetAllFlag',
    access: SEARCH_ROLES,
    summary:
      'Columns of every results tab: key, label, type, order, hidden by default, sortable (resetAllFlag=true: the client drops its own column choices).',
    params: z.object({ resetAllFlag: z.enum(['true', 'false']).transform((v) => v === 'true') }),
    response: AllTabColumnsSchema,
  }),
  session: defineEndpoint({
    method: 'GET',
    path: '/api/results/session/:sessionid',
    access: SEARCH_ROLES,
    summary: 'A search session as the results page opens it: counts, criteria, filters and filtered row count per tab.',
    params: z.object({ sessionid: SessionIdSchema }),
    response: ResultsSessionSchema,
  }),
  tabRows: defineEndpoint({
    method: 'POST',
    path: '/api/results/:tab',
    access: SEARCH_ROLES,
    summary:
      'One page of a results tab (structuretab, activitiestab, assaytab, developmentcompounds, documentstab): data, rowCount, strIdNewlyAddedStatus; 204 when the tab has no rows.',
    params: TabParams,
    body: TabRequestSchema,
    response: TabPageSchema,
  }),
  applyFilters: defineEndpoint({
    method: 'POST',
    path: '/api/results/applyfilters/:tab',
    access: SEARCH_ROLES,
    summary: 'Sets the chart filters of one tab (include / exclude values, min / max) and answers its new row count.',
    params: TabParams,
    body: ApplyFiltersRequestSchema,
    response: ApplyFiltersResponseSchema,
  }),
  resetAllFilters: defineEndpoint({
    method: 'POST',
    path: '/api/results/applyfilters/resetall',
    access: SEARCH_ROLES,
    summary: 'Clears the filters of every tab of a session.',
    body: ResetFiltersRequestSchema,
    response: ResetFiltersResponseSchema,
  }),
  newSearchBy: defineEndpoint({
    method: 'POST',
    path: '/api/results/newsearchby/:tab',
    access: SEARCH_ROLES,
    summary: 'Turns the selected rows of a tab (or all minus the unselected) into a new search (a selection row) to run in a new session.',
    params: TabParams,
    body: NewSearchByRequestSchema,
    response: NewSearchByResponseSchema,
  }),
  gotoTab: defineEndpoint({
    method: 'POST',
    path: '/api/security/navigation/goto',
    access: SEARCH_ROLES,
    summary: 'From rows of one tab to the related rows of another (answers the strIdList to open that tab with).',
    body: GotoRequestSchema,
    response: GotoResponseSchema,
  }),
  viewAll: defineEndpoint({
    method: 'POST',
    path: '/api/security/navigation/viewall',
    access: SEARCH_ROLES,
    summary: 'Back from a "go to" to every row of a tab (its filters still apply).',
    body: ViewAllRequestSchema,
    response: ViewAllResponseSchema,
  }),
  tabularView: defineEndpoint({
    method: 'GET',
    path: '/api/results/tabularview/strid/:id',
    access: SEARCH_ROLES,
    summary: 'One structure as a row of the Structures tab (every column).',
    params: z.object({ id: z.coerce.number().int().positive() }),
    response: TabularViewSchema,
  }),
} as const;
