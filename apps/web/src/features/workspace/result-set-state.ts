import { z } from 'zod';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { RESULT_TABS, START_PAGE, tabInfo } from '@kb/contracts/result-tabs';
import type { ResultsSession } from '@kb/contracts/results';
import { SelectionSchema } from '@kb/contracts/results';
import type { SearchCounts } from '@kb/contracts/search';
import type { ResultSetState } from '@kb/contracts/workspace';
import { RESULT_SET_STATE_MAX_BYTES } from '@kb/contracts/workspace';
import { flattenTabFilters } from '../results/charts/chart-filters.ts';
import type { ColumnChoices, GridDensity, ResultsScope } from '../results/results-store.ts';
import type { TabState } from '../results/tab-state.ts';
import { EMPTY_SELECTION, INITIAL_TAB_STATE } from '../results/tab-state.ts';

/**
 * A results page as data (what "Save result set" keeps, and what opening its link puts back). The
 * server re-runs `criteria` and `filters`; `view` is the grid's part, kept as this file writes it:
 * per tab the page size, sort, similarity sort and ticked rows; the user's columns; the row
 * density; the charts shown. A "go to" restriction is not kept: it is a step between tabs, not a
 * state of the page. Reading a view back accepts what an older version wrote and drops what it
 * cannot read, field by field, so an old link still opens.
 */

const SortSchema = z.object({ column: z.string().max(200), direction: z.enum(['asc', 'desc']) });
const SimilaritySchema = z.object({
  status: z.boolean(),
  category: z.literal('similarity'),
  smiles: z.string().max(10_000),
  order: z.enum(['asc', 'desc']),
  min: z.number().nullable(),
  max: z.number().nullable(),
});
const SavedTabSchema = z.object({
  pageSize: z.number().int().min(1).max(500).catch(INITIAL_TAB_STATE.pageSize),
  sortOrder: SortSchema.nullable().catch(null),
  similarity: SimilaritySchema.nullable().catch(null),
  selection: SelectionSchema.catch(EMPTY_SELECTION),
});
type SavedTab = z.infer<typeof SavedTabSchema>;

const TAB_KEYS = RESULT_TABS.map((tab) => tab.key) as [ResultTabKey, ...ResultTabKey[]];

/** Each known tab read on its own: one unreadable tab (or a tab that no longer exists) spoils no other. */
function readTabs(tabs: Record<string, unknown>): Partial<Record<ResultTabKey, SavedTab>> {
  const read: Partial<Record<ResultTabKey, SavedTab>> = {};
  for (const key of TAB_KEYS) {
    if (tabs[key] === undefined) continue;
    const parsed = SavedTabSchema.safeParse(tabs[key]);
    if (parsed.success) read[key] = parsed.data;
  }
  return read;
}
const SavedViewSchema = z.object({
  tabs: z.record(z.string(), z.unknown()).catch({}).transform(readTabs),
  columns: z.partialRecord(z.enum(TAB_KEYS), z.record(z.string(), z.boolean())).catch({}),
  density: z.enum(['compact', 'comfortable']).catch('compact'),
  charts: z.array(z.string().max(100)).max(50).catch([]),
});
export type SavedView = z.infer<typeof SavedViewSchema>;

/** Reads a saved view; what is missing or unreadable takes the page's defaults. */
export function readSavedView(view: Record<string, unknown>): SavedView {
  return SavedViewSchema.parse(view);
}

/** What the results page holds when "Save result set" is pressed. */
export interface ResultsPageSnapshot {
  scope: ResultsScope;
  tab: ResultTabKey;
  session: ResultsSession;
  tabs: Partial<Record<ResultTabKey, TabState>>;
  columnChoices: Partial<Record<ResultTabKey, ColumnChoices>>;
  density: GridDensity;
  charts: readonly string[];
}

const SUMMARY_MAX = 2000;

function savedTab(state: TabState, keepSelection: boolean): SavedTab {
  return {
    pageSize: state.pageSize,
    sortOrder: state.sortOrder,
    similarity: state.similarity,
    selection: keepSelection ? state.selection : EMPTY_SELECTION,
  };
}

function byteLength(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}

export type BuiltState = { ok: true; state: ResultSetState; droppedSelection: boolean } | { ok: false; message: string };

/**
 * The state to save for a results page. A selection of many single ticks can outgrow the size the
 * server keeps (RESULT_SET_STATE_MAX_BYTES): then the ticks are left out, and the caller says so.
 */
export function buildResultSetState(page: ResultsPageSnapshot): BuiltState {
  const criteria = page.session.searchcriteria;
  if (!criteria)
    return {
      ok: false,
      message: 'This results session does not say what was searched, so it cannot be saved. Run the search again first.',
    };
  const summary = page.session.summary;
  const build = (keepSelection: boolean): ResultSetState => ({
    scope: page.scope,
    tab: page.tab,
    criteria,
    summary: summary && summary.length > SUMMARY_MAX ? `${summary.slice(0, SUMMARY_MAX - 1)}…` : summary,
    filters: flattenTabFilters(page.session.filters),
    counts: page.session.counts,
    filteredCounts: { ...page.session.tabCounts },
    view: {
      tabs: Object.fromEntries(Object.entries(page.tabs).map(([key, state]) => [key, savedTab(state, keepSelection)])),
      columns: page.columnChoices,
      density: page.density,
      charts: [...page.charts],
    } satisfies SavedView,
  });
  const whole = build(true);
  if (byteLength(whole) <= RESULT_SET_STATE_MAX_BYTES) return { ok: true, state: whole, droppedSelection: false };
  const lean = build(false);
  if (byteLength(lean) <= RESULT_SET_STATE_MAX_BYTES) return { ok: true, state: lean, droppedSelection: true };
  return { ok: false, message: 'This search is too large to save as a result set (its criteria and filters exceed 256 KB).' };
}

/** The tab states a saved view puts back, each from its first page. */
export function restoredTabStates(view: SavedView): Partial<Record<ResultTabKey, TabState>> {
  const states: Partial<Record<ResultTabKey, TabState>> = {};
  for (const [key, saved] of Object.entries(view.tabs) as [ResultTabKey, SavedTab][]) {
    states[key] = { ...INITIAL_TAB_STATE, ...saved, pageNumber: START_PAGE, goto: null };
  }
  return states;
}

/** The counts a restored result set is compared by. */
export interface RestoredCounts {
  counts: SearchCounts | null;
  /** Rows of each tab after the saved filters, now. */
  filteredCounts: Partial<Record<string, number>>;
}

const plainCount = (value: number) => value.toLocaleString('en-US');

/**
 * What the page says when the knowledge base changed since the set was saved: the open tab's rows
 * after its filters (then and now), else the structures found; and when only the version moved,
 * that the counts held. Null when nothing changed.
 */
export function changeNotice(
  saved: Pick<ResultSetState, 'tab' | 'counts' | 'filteredCounts'>,
  now: RestoredCounts,
  versions: { saved: string | null; current: string | null },
): string | null {
  const head = 'The knowledge base has changed since this set was saved';
  const label = tabInfo(saved.tab)?.label ?? saved.tab;
  const thenRows = saved.filteredCounts?.[saved.tab];
  const nowRows = now.filteredCounts[saved.tab];
  if (thenRows !== undefined && nowRows !== undefined && thenRows !== nowRows)
    return `${head}: ${plainCount(thenRows)} rows of ${label} then, ${plainCount(nowRows)} now.`;
  const thenStructures = saved.counts?.stridscount;
  const nowStructures = now.counts?.stridscount;
  if (thenStructures !== undefined && nowStructures !== undefined && thenStructures !== nowStructures)
    return `${head}: ${plainCount(thenStructures)} structures then, ${plainCount(nowStructures)} now.`;
  if (versions.saved && versions.current && versions.saved !== versions.current) {
    const rows = nowRows ?? thenRows;
    return rows !== undefined
      ? `${head} (data were loaded since); the counts held: ${plainCount(rows)} rows of ${label} then, ${plainCount(rows)} now.`
      : `${head} (data were loaded since).`;
  }
  return null;
}
