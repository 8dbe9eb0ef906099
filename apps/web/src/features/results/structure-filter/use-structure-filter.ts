import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import type { ResultsSession } from '@kb/contracts/results';
import type { SearchCriteria } from '@kb/contracts/search';
import { callApi, errorMessage } from '../../../app/api-client.ts';
import { startPageLoader, stopPageLoader } from '../../../app/page-loader.ts';
import { useSearchSessionStore } from '../../../app/stores/search-session-store.ts';
import { useSearchBuilderStore } from '../../search/builder/search-builder-store.ts';
import { criteriaToDrafts } from '../../search/builder/row-restore.ts';
import { describeSearch } from '../../search/saved/search-summary.ts';
import { useSearchChartsStore } from '../../search/saved/search-charts-store.ts';
import { newSearchSessionId } from '../../../app/session-id.ts';
import { runSearch } from '../../search/run/use-search-runner.ts';
import { flattenTabFilters } from '../charts/chart-filters.ts';
import type { ResultsScope } from '../results-store.ts';
import { useResultsStore } from '../results-store.ts';
import { runSelectionSession } from '../selection/new-search-by-selection.ts';
import { RESULTS_BASE } from '../selection/use-selection-actions.ts';
import { rerunCriteria } from '../use-rerun-search.ts';
import type { StructureFilterMode, StructureFilterRow } from './structure-filter.ts';
import { splitStructureFilter, withStructureFilter } from './structure-filter.ts';

/**
 * The structure filter of a results page (docs/results.md "Structure filter"): the search with a
 * last structure row, run in a new session of the same scope. The server searches that row among
 * the results' own structures only. The chart filters of every tab carry over; the tab stays open.
 * A failure leaves the results as they were, with the server's message.
 */
export function useStructureFilter(scope: ResultsScope, session: ResultsSession, tab: ResultTabKey) {
  const navigate = useNavigate();
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const criteria = rerunCriteria(scope, session.searchcriteria);
  const split = criteria ? splitStructureFilter(criteria) : null;

  const runSearchScope = async (next: SearchCriteria): Promise<boolean> => {
    const builder = useSearchBuilderStore.getState();
    const before = { rows: builder.rows, lastRun: builder.lastRun };
    builder.replaceRows(criteriaToDrafts(next));
    const outcome = await runSearch(next, describeSearch(next), { keepOpenSession: true });
    if (outcome.kind === 'counts' || outcome.kind === 'no-data') return true;
    // Nothing is lost: the builder goes back to the search that is still open in the results.
    useSearchBuilderStore.setState({
      rows: before.rows,
      lastRun: before.lastRun,
      counts: before.lastRun?.counts ?? null,
      status: 'idle',
      error: null,
    });
    if (outcome.kind === 'failed') setError(outcome.message);
    return false;
  };

  const runSelectionScope = async (next: SearchCriteria): Promise<boolean> => {
    startPageLoader();
    try {
      const { sessionId } = await runSelectionSession(next, { call: callApi, newSessionId: newSearchSessionId });
      useResultsStore.getState().resetScope('selection', sessionId);
      useResultsStore.getState().setSelectionSearch({ criteria: next, summary: describeSearch(next) });
      useSearchSessionStore.getState().setSelectionSessionId(sessionId);
      return true;
    } finally {
      stopPageLoader();
    }
  };

  const run = async (next: SearchCriteria) => {
    setRunning(true);
    setError(null);
    try {
      // The next results session opened without filters of its own gets these (use-saved-filters.ts).
      useSearchChartsStore.setState({ pendingFilters: flattenTabFilters(session.filters) });
      const ran = scope === 'search' ? await runSearchScope(next) : await runSelectionScope(next);
      if (ran) navigate(`${RESULTS_BASE[scope]}/${tab}`);
      else useSearchChartsStore.setState({ pendingFilters: [] });
      return ran;
    } catch (caught) {
      useSearchChartsStore.setState({ pendingFilters: [] });
      setError(errorMessage(caught));
      return false;
    } finally {
      setRunning(false);
    }
  };

  return {
    /** The filter the open results have, with how it joins. */
    active: split?.filter ?? null,
    running,
    error,
    clearError: () => setError(null),
    /** False when this browser no longer knows the search (the filter cannot be built). */
    available: criteria !== null,
    apply: (row: StructureFilterRow, mode: StructureFilterMode) =>
      criteria ? run(withStructureFilter(criteria, row, mode)) : Promise.resolve(false),
    remove: () => (split?.filter ? run(split.base) : Promise.resolve(false)),
  };
}
