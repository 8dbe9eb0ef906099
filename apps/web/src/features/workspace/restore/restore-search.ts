import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { resultsEndpoints } from '@kb/contracts/results';
import type { AppliedFilter, SearchCounts, SearchCriteria } from '@kb/contracts/search';
import { callApi } from '../../../app/api-client.ts';
import { endpointKey, queryClient } from '../../../app/query.ts';
import { newSearchSessionId } from '../../../app/session-id.ts';
import { useSearchSessionStore } from '../../../app/stores/search-session-store.ts';
import { describeIgnored, savedFiltersByTab } from '../../results/charts/chart-filters.ts';
import type { ResultsScope } from '../../results/results-store.ts';
import { useResultsStore } from '../../results/results-store.ts';
import { runSelectionSession } from '../../results/selection/new-search-by-selection.ts';
import { criteriaToDrafts } from '../../search/builder/row-restore.ts';
import { useSearchBuilderStore } from '../../search/builder/search-builder-store.ts';
import { runSearch } from '../../search/run/use-search-runner.ts';
import { chartsForSavedQuery } from '../../search/saved/chart-selection.ts';
import { useSearchChartsStore } from '../../search/saved/search-charts-store.ts';
import { describeSearch } from '../../search/saved/search-summary.ts';
import type { SavedView } from '../result-set-state.ts';
import { restoredTabStates } from '../result-set-state.ts';

/**
 * Puts a search back on the results page as it was: runs it again (in a new session, through the
 * search page's own runner, so the search page, the history and "Run again" know it), applies its
 * chart filters tab by tab through the results API, then the saved grid view. Used by a saved
 * result set's link and by "Restore" in the history.
 */
export interface RestoreRequest {
  scope: ResultsScope;
  criteria: SearchCriteria;
  summary: string | null;
  filters: readonly AppliedFilter[];
  /** Absent: the page's defaults (a history entry keeps no view). */
  view?: SavedView;
}

export interface RestoredSearch {
  scope: ResultsScope;
  sessionId: string;
  /** The search's counts now (null: it found nothing). */
  counts: SearchCounts | null;
  /** Rows of each tab after the filters, now. */
  filteredCounts: Record<string, number>;
  /** Saved filter values that are no longer in the results (said to the user). */
  ignored: string;
}

export type RestoreStep = 'search' | 'filters' | 'view';

async function runAgain(request: RestoreRequest): Promise<{ sessionId: string; counts: SearchCounts | null }> {
  const summary = request.summary ?? describeSearch(request.criteria);
  if (request.scope === 'selection') {
    const ran = await runSelectionSession(request.criteria, { call: callApi, newSessionId: newSearchSessionId });
    useResultsStore.getState().setSelectionSearch({ criteria: request.criteria, summary });
    useSearchSessionStore.getState().setSelectionSessionId(ran.sessionId);
    return ran;
  }
  // The builder shows the search too: a failure leaves it ready to edit on the search page.
  useSearchBuilderStore.getState().replaceRows(criteriaToDrafts(request.criteria));
  const outcome = await runSearch(request.criteria, summary);
  if (outcome.kind === 'failed') throw new Error(outcome.message);
  if (outcome.kind === 'cancelled') throw new Error('The search was cancelled.');
  return { sessionId: outcome.sessionId, counts: outcome.kind === 'counts' ? outcome.counts : null };
}

async function applyFilters(sessionid: string, filters: readonly AppliedFilter[]): Promise<string> {
  const ignored: string[] = [];
  // One tab after the other: each call replaces that tab's list and recounts it.
  for (const [tab, list] of savedFiltersByTab(filters)) {
    const answer = await callApi(resultsEndpoints.applyFilters, { params: { tab }, body: { sessionid, filters: list } });
    const text = describeIgnored(answer.ignored);
    if (text) ignored.push(text);
  }
  return ignored.join('; ');
}

/** The grid's state per tab, columns, density and charts, for the new session. */
function applyView(scope: ResultsScope, sessionId: string, filters: readonly AppliedFilter[], view: SavedView | undefined): void {
  const results = useResultsStore.getState();
  results.resetScope(scope, sessionId);
  if (view) {
    for (const [tab, state] of Object.entries(restoredTabStates(view)) as [
      ResultTabKey,
      NonNullable<ReturnType<typeof restoredTabStates>[ResultTabKey]>,
    ][])
      results.updateTab(scope, sessionId, tab, () => state);
    results.resetColumnChoices();
    for (const [tab, choices] of Object.entries(view.columns) as [ResultTabKey, Record<string, boolean>][])
      for (const [key, visible] of Object.entries(choices)) results.setColumnVisible(tab, key, visible);
    results.setDensity(view.density);
  }
  const charts = useSearchChartsStore.getState();
  // A saved query's filters still waiting would otherwise land on this session too.
  charts.takePendingFilters();
  charts.setAppliedFilters([...filters]);
  charts.setEnabledCharts(view && view.charts.length > 0 ? view.charts : chartsForSavedQuery(filters));
}

export async function restoreSearch(
  request: RestoreRequest,
  onStep: (step: RestoreStep) => void = () => undefined,
): Promise<RestoredSearch> {
  onStep('search');
  const { sessionId, counts } = await runAgain(request);
  onStep('filters');
  const ignored = counts && request.filters.length > 0 ? await applyFilters(sessionId, request.filters) : '';
  onStep('view');
  applyView(request.scope, sessionId, request.filters, request.view);
  // The session as the results page will open it (filtered counts of every tab), fetched once here.
  const session = await queryClient
    .fetchQuery({
      queryKey: endpointKey(resultsEndpoints.session, { params: { sessionid: sessionId } }),
      queryFn: ({ signal }) => callApi(resultsEndpoints.session, { params: { sessionid: sessionId } }, { signal }),
      staleTime: 0,
    })
    // The results page says itself why a session cannot open; the counts are then unknown here.
    .catch(() => null);
  return { scope: request.scope, sessionId, counts: session?.counts ?? counts, filteredCounts: session?.tabCounts ?? {}, ignored };
}
