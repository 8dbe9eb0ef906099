import type { Selection, SortOrder, TabRequest } from '@kb/contracts/results';
import { SIMILARITY_COLUMN } from '@kb/contracts/results';
import { START_PAGE } from '@kb/contracts/result-tabs';

/**
 * Spec §4 "Results tab state" as plain data and pure functions: what one tab of one results
 * session shows (page, sort, similarity sort, a "go to" restriction) and which of its rows the
 * user selected. The results store keeps one of these per tab; the grid and the calls read it.
 */

export type SortDirection = SortOrder['direction'];

/** Spec §4: a similarity sort is held per tab with status, category, order, min and max. */
export interface SimilaritySort {
  status: boolean;
  category: 'similarity';
  smiles: string;
  order: SortDirection;
  min: number | null;
  max: number | null;
}

/** Rows picked one by one, or "select all" (every page) minus the ones unticked again. */
export type TabSelection = Selection;

/** Spec §4 "go to": only the rows of these structures, reached from another tab. */
export interface GotoRestriction {
  strIdList: number[];
  fromTab: string;
  /** Rows of the tab with those structures (navigation/goto answers it): the tab's label shows it. */
  rowCount?: number;
}

export interface TabState {
  pageNumber: number;
  pageSize: number;
  /** The user's column sort; null leaves the server's default. */
  sortOrder: SortOrder | null;
  similarity: SimilaritySort | null;
  goto: GotoRestriction | null;
  selection: TabSelection;
}

export const EMPTY_SELECTION: TabSelection = { selectAll: false, selectedIds: [], unselectedIds: [] };

/**
 * Rows a tab asks for at first. The API's default page (10, spec §3) is less than a compact grid
 * shows on one screen; 25 fills it (issue 14: at least 15 activity rows per screen).
 */
const GRID_PAGE_SIZE = 25;

export const INITIAL_TAB_STATE: TabState = {
  pageNumber: START_PAGE,
  pageSize: GRID_PAGE_SIZE,
  sortOrder: null,
  similarity: null,
  goto: null,
  selection: EMPTY_SELECTION,
};

// ---------------------------------------------------------------- selection

export function isRowSelected(selection: TabSelection, id: number): boolean {
  return selection.selectAll ? !selection.unselectedIds.includes(id) : selection.selectedIds.includes(id);
}

/** Ticks or unticks one row; under "select all" an untick is remembered as an exception. */
export function toggleRow(selection: TabSelection, id: number, selected: boolean): TabSelection {
  const without = (ids: number[]) => ids.filter((other) => other !== id);
  if (selection.selectAll) {
    return { ...selection, unselectedIds: selected ? without(selection.unselectedIds) : [...without(selection.unselectedIds), id] };
  }
  return { ...selection, selectedIds: selected ? [...without(selection.selectedIds), id] : without(selection.selectedIds) };
}

/** "Select all (all pages)" on or off: either way the one-by-one picks no longer apply. */
export function setSelectAll(on: boolean): TabSelection {
  return { selectAll: on, selectedIds: [], unselectedIds: [] };
}

/** How many rows are selected, out of the tab's `rowCount`. */
export function selectedCount(selection: TabSelection, rowCount: number): number {
  if (selection.selectAll) return Math.max(0, rowCount - selection.unselectedIds.length);
  return selection.selectedIds.length;
}

/** The state of the "select all" box: ticked, partly (some rows picked or some unticked), or not. */
export function selectAllState(selection: TabSelection, rowCount: number): 'all' | 'some' | 'none' {
  const count = selectedCount(selection, rowCount);
  if (count === 0) return 'none';
  return selection.selectAll && selection.unselectedIds.length === 0 ? 'all' : 'some';
}

// ---------------------------------------------------------------- sorting

/** The sort the grid shows and the server is asked for: the similarity sort wins while it is on. */
export function effectiveSort(state: Pick<TabState, 'sortOrder' | 'similarity'>): SortOrder | null {
  if (state.similarity?.status) return { column: SIMILARITY_COLUMN, direction: state.similarity.order };
  return state.sortOrder;
}

/**
 * A header click: sorting by the similarity column changes the similarity order; sorting by any
 * other column ends the similarity sort (its rows would no longer be in similarity order).
 * Back to page 0, as a new order starts from the top.
 */
export function applyHeaderSort(state: TabState, sort: SortOrder | null): TabState {
  if (state.similarity?.status && sort?.column === SIMILARITY_COLUMN) {
    return { ...state, pageNumber: START_PAGE, similarity: { ...state.similarity, order: sort.direction } };
  }
  // Sorting by the similarity column without a SMILES sorts by the search's own score (a
  // similarity search): the server refuses it for other searches, whose column is not sortable.
  const similarity = state.similarity ? { ...state.similarity, status: false } : null;
  return { ...state, pageNumber: START_PAGE, sortOrder: sort, similarity };
}

// ---------------------------------------------------------------- the tab call

/** The body of a tab-page call (spec §3 "Tab params") for a session and a tab state. */
export function tabRequestBody(sessionid: string, state: TabState): TabRequest {
  const body: TabRequest = {
    sessionid,
    pageNumber: state.pageNumber,
    pageSize: state.pageSize,
    sortOrder: effectiveSort(state),
  };
  const similarity = state.similarity;
  if (similarity?.status) {
    body.sortSmiles = similarity.smiles;
    body.smilesSortCategory = similarity.category;
    body.minValue = similarity.min;
    body.maxValue = similarity.max;
  }
  if (state.goto) body.strIdList = state.goto.strIdList;
  return body;
}

/** The last page that still has rows when `rowCount` shrank under the current page. */
export function clampPage(pageNumber: number, pageSize: number, rowCount: number): number {
  const lastPage = Math.max(0, Math.ceil(rowCount / pageSize) - 1);
  return Math.min(pageNumber, lastPage);
}

/** Why a similarity window cannot be sent, or null (the contract allows 0–1 with min ≤ max). */
export function similarityWindowError(min: number | null, max: number | null): string | null {
  const outside = (value: number | null) => value !== null && (!Number.isFinite(value) || value < 0 || value > 1);
  if (outside(min) || outside(max)) return 'Similarity limits are between 0 and 1';
  if (min !== null && max !== null && min > max) return 'The minimum similarity is above the maximum';
  return null;
}
