import type { ExportJob, ExportScope } from '@kb/contracts/exports';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { tabInfo } from '@kb/contracts/result-tabs';
import type { ResultColumn } from '@kb/contracts/results';
import { SIMILARITY_COLUMN } from '@kb/contracts/results';
import type { ColumnChoices, ResultsScope } from '../../app/stores/results-store.ts';
import { formatCount } from '../search/counts/count-format.ts';
import { shownColumns } from '../results/grid/result-columns.ts';
import type { TabSelection, TabState } from '../results/tab-state.ts';

/**
 * What an export takes, as plain functions of the results state (spec §2 /export, §4 results tab
 * state): the page, the cost call and the tests read the scope the same way the grid does.
 */

/** The selected rows of the tab, or every row of the tab as filtered. */
export type RowsChoice = 'selected' | 'all';

/** Spec §2: the tab of /export/{tabid} (key or call path), else the first tab. */
export function exportTabOf(tabid: string | undefined): ResultTabKey {
  return tabInfo(tabid)?.key ?? 'structuretab';
}

/** `?from=selection` opens the export of a new search by selection (/new-search-results); anything else the search's. */
export function exportSourceOf(from: string | null): ResultsScope {
  return from === 'selection' ? 'selection' : 'search';
}

/** True when any row is ticked, or "select all" is on (even with every row unticked the user chose a selection). */
export function hasSelection(selection: TabSelection): boolean {
  return selection.selectAll || selection.selectedIds.length > 0;
}

/** The rows an export starts with: the selection when there is one, else the whole tab. */
export function defaultRowsChoice(selection: TabSelection): RowsChoice {
  return hasSelection(selection) ? 'selected' : 'all';
}

/**
 * The scope the server prices and writes: the tab's selection (or null for the whole tab) and the
 * "go to" narrowing the grid shows, so the file holds exactly the rows on screen.
 */
export function exportScopeOf(sessionid: string, tab: ResultTabKey, rows: RowsChoice, state: Pick<TabState, 'selection' | 'goto'>): ExportScope {
  const scope: ExportScope = { sessionid, tab, selection: rows === 'selected' ? state.selection : null };
  if (state.goto) scope.strIdList = state.goto.strIdList;
  return scope;
}

/** "Selected rows (12)", or for "select all" without a known row count, "all but 3". */
export function selectedRowsLabel(selection: TabSelection, rowCount: number | null): string {
  if (!selection.selectAll) return `Selected rows (${formatCount(selection.selectedIds.length)})`;
  if (rowCount !== null) return `Selected rows (${formatCount(Math.max(0, rowCount - selection.unselectedIds.length))})`;
  return selection.unselectedIds.length === 0 ? 'Selected rows (all)' : `Selected rows (all but ${formatCount(selection.unselectedIds.length)})`;
}

/**
 * The columns an export offers, in the grid's order. The similarity column only has values while
 * the grid sorts by similarity, which an export does not carry, so it is never offered.
 */
export function exportableColumns(columns: readonly ResultColumn[]): ResultColumn[] {
  return [...columns].filter((column) => column.key !== SIMILARITY_COLUMN).sort((a, b) => a.order - b.order);
}

/** The columns ticked at first: those the grid shows now, by the user's choices or the defaults. */
export function defaultExportColumns(columns: readonly ResultColumn[], choices: ColumnChoices | undefined): string[] {
  return shownColumns(exportableColumns(columns), choices, false)
    .filter((column) => column.visible)
    .map((column) => column.key);
}

/** Ticks or unticks one column, keeping the tab's column order (the file's column order). */
export function toggleColumn(columns: readonly ResultColumn[], chosen: readonly string[], key: string, on: boolean): string[] {
  const next = new Set(chosen);
  if (on) next.add(key);
  else next.delete(key);
  return exportableColumns(columns)
    .map((column) => column.key)
    .filter((candidate) => next.has(candidate));
}

/** A queued or running export: its progress is still moving. */
export function isActiveJob(job: Pick<ExportJob, 'status'>): boolean {
  return job.status === 'queued' || job.status === 'running';
}

/** "12,000 of 200,000 rows (6%)"; "Waiting to start" before the first row. */
export function jobProgressLabel(job: Pick<ExportJob, 'status' | 'rows' | 'rowsWritten' | 'progress'>): string {
  if (job.status === 'queued' && job.rowsWritten === 0) return 'Waiting to start…';
  return `${formatCount(job.rowsWritten)} of ${formatCount(job.rows)} rows (${Math.floor(clampPercent(job.progress))}%)`;
}

export function clampPercent(value: number): number {
  return Number.isFinite(value) ? Math.min(100, Math.max(0, value)) : 0;
}
