import type { ExportFormat, ExportJob, ExportScope } from '@kb/contracts/exports';
import { isExportableColumn } from '@kb/contracts/exports';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { tabInfo } from '@kb/contracts/result-tabs';
import type { ResultColumn } from '@kb/contracts/results';
import type { ColumnChoices, ResultsScope } from '../results/results-store.ts';
import { formatCount } from '../../app/format/count-format.ts';
import { shownColumns } from '../results/grid/result-columns.ts';
import type { TabSelection, TabState } from '../results/tab-state.ts';
import { countNoun } from '../../app/format/plural.ts';

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

/** The similarity window of a tab, as a tab call and a new search by selection send it. */
export type SimilarityWindow = Pick<ExportScope, 'sortSmiles' | 'minValue' | 'maxValue'>;

/**
 * The similarity window narrowing the tab's rows: only while the similarity sort is on and has a
 * minimum or a maximum (without either, the sort orders the rows but keeps them all). The same
 * rule the grid and "new search by selection" follow, so "select all" and the whole tab mean the
 * rows on screen.
 */
export function similarityWindowOf(state: Partial<Pick<TabState, 'similarity'>>): SimilarityWindow | null {
  const similarity = state.similarity;
  if (!similarity?.status || (similarity.min == null && similarity.max == null)) return null;
  return { sortSmiles: similarity.smiles, minValue: similarity.min, maxValue: similarity.max };
}

/**
 * The scope the server prices and writes: the tab's selection (or null for the whole tab), the
 * "go to" narrowing and the similarity window the grid shows, so the file holds exactly the rows on screen.
 */
export function exportScopeOf(
  sessionid: string,
  tab: ResultTabKey,
  rows: RowsChoice,
  state: Pick<TabState, 'selection' | 'goto'> & Partial<Pick<TabState, 'similarity'>>,
): ExportScope {
  const scope: ExportScope = { sessionid, tab, selection: rows === 'selected' ? state.selection : null };
  if (state.goto) scope.strIdList = state.goto.strIdList;
  const narrowing = similarityWindowOf(state);
  if (narrowing) Object.assign(scope, narrowing);
  return scope;
}

/** Tabs whose rows are structures (the server's tab model has a `strId` for them): only these can be written as SDF. */
const SDF_TABS: ReadonlySet<ResultTabKey> = new Set<ResultTabKey>(['structuretab', 'activitiestab', 'developmentcompoundstab']);

export const SDF_NEEDS_STRUCTURES = 'SDF needs structures: choose CSV or XLSX for this tab';

export function sdfAllowed(tab: ResultTabKey): boolean {
  return SDF_TABS.has(tab);
}

/** The format an export of `tab` can use: SDF falls back to CSV on a tab without structures. */
export function formatForTab(format: ExportFormat, tab: ResultTabKey): ExportFormat {
  return format === 'sdf' && !sdfAllowed(tab) ? 'csv' : format;
}

/** "Selected rows (12)", or for "select all" without a known row count, "all but 3". */
export function selectedRowsLabel(selection: TabSelection, rowCount: number | null): string {
  if (!selection.selectAll) return `Selected rows (${formatCount(selection.selectedIds.length)})`;
  if (rowCount !== null) return `Selected rows (${formatCount(Math.max(0, rowCount - selection.unselectedIds.length))})`;
  return selection.unselectedIds.length === 0
    ? 'Selected rows (all)'
    : `Selected rows (all but ${formatCount(selection.unselectedIds.length)})`;
}

/** The columns an export offers (never the similarity score or the inner grids), in the grid's order. */
export function exportableColumns(columns: readonly ResultColumn[]): ResultColumn[] {
  return [...columns].filter(isExportableColumn).sort((a, b) => a.order - b.order);
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

/** How often a queued or running export is asked for its progress. */
export const JOB_POLL_MS = 1000;

/**
 * The refetch interval of a polled export query: every second while its last answer has an active
 * job, and never once the query failed (a 403, 404 or 500 will not mend itself every second; the
 * page shows the error and a retry, which restarts the polling when it succeeds).
 */
export function jobPollInterval<T>(
  state: { status: 'pending' | 'error' | 'success'; data: T | undefined },
  active: (data: T) => boolean,
): number | false {
  if (state.status === 'error') return false;
  return state.data !== undefined && active(state.data) ? JOB_POLL_MS : false;
}

/** "12,000 of 200,000 rows (6%)"; "Waiting to start" before the first row. */
export function jobProgressLabel(job: Pick<ExportJob, 'status' | 'rows' | 'rowsWritten' | 'progress'>): string {
  if (job.status === 'queued' && job.rowsWritten === 0) return 'Waiting to start…';
  return `${formatCount(job.rowsWritten)} of ${countNoun(job.rows, 'row')} (${Math.floor(clampPercent(job.progress))}%)`;
}

/** The status a screen reader hears when it changes: "Queued", "Running", "Ready", "Failed: why". */
export function jobStatusText(job: Pick<ExportJob, 'status' | 'error'>): string {
  switch (job.status) {
    case 'queued':
      return 'Queued';
    case 'running':
      return 'Running';
    case 'done':
      return 'Ready';
    case 'failed':
      return `Failed: ${job.error ?? 'the export failed.'}`;
  }
}

export function clampPercent(value: number): number {
  return Number.isFinite(value) ? Math.min(100, Math.max(0, value)) : 0;
}
