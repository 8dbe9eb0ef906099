import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { SearchCriteria } from '@kb/contracts/search';
import { callApi, errorMessage } from '../../app/api-client.ts';
import { startPageLoader, stopPageLoader } from '../../app/page-loader.ts';
import type { ResultsScope } from './results-store.ts';
import { useResultsStore } from './results-store.ts';
import { useSearchBuilderStore } from '../search/builder/search-builder-store.ts';
import { useSearchSessionStore } from '../../app/stores/search-session-store.ts';
import { criteriaToDrafts } from '../search/builder/row-restore.ts';
import { describeSearch } from '../search/saved/search-summary.ts';
import { newSearchSessionId } from '../../app/session-id.ts';
import { runSearch } from '../search/run/use-search-runner.ts';
import { runSelectionSession } from './selection/new-search-by-selection.ts';
import { RESULTS_BASE } from './selection/use-selection-actions.ts';

/** The criteria a results session can be run again from: the session's own, else what this browser kept. */
export function rerunCriteria(scope: ResultsScope, sessionCriteria: SearchCriteria | null | undefined): SearchCriteria | null {
  if (sessionCriteria) return sessionCriteria;
  if (scope === 'selection') return useResultsStore.getState().selectionSearch?.criteria ?? null;
  return useSearchBuilderStore.getState().lastRun?.criteria ?? null;
}

/**
 * "Run the search again" (an expired session, or structures added since it ran): the search goes
 * through the search flow in a new session. A search is put back into the builder first, so a
 * failure leaves it ready to edit on the search page; a selection search runs its own flow.
 */
export function useRerunSearch(
  scope: ResultsScope,
  sessionCriteria: SearchCriteria | null | undefined,
  summary: string | null | undefined,
) {
  const navigate = useNavigate();
  const [running, setRunning] = useState(false);

  const rerunSearch = async (criteria: SearchCriteria) => {
    useSearchBuilderStore.getState().replaceRows(criteriaToDrafts(criteria));
    const outcome = await runSearch(criteria, summary ?? describeSearch(criteria));
    if (outcome.kind === 'counts' || outcome.kind === 'no-data') navigate(`${RESULTS_BASE.search}/structuretab`);
    // The search page shows why it failed, next to the rows.
    else if (outcome.kind === 'failed') navigate('/search');
  };

  const rerunSelection = async (criteria: SearchCriteria) => {
    startPageLoader();
    try {
      const { sessionId } = await runSelectionSession(criteria, { call: callApi, newSessionId: newSearchSessionId });
      useResultsStore.getState().resetScope('selection', sessionId);
      useSearchSessionStore.getState().setSelectionSessionId(sessionId);
      navigate(`${RESULTS_BASE.selection}/structuretab`);
    } finally {
      stopPageLoader();
    }
  };

  const rerun = async () => {
    const criteria = rerunCriteria(scope, sessionCriteria);
    if (!criteria) {
      navigate('/search');
      return;
    }
    setRunning(true);
    try {
      await (scope === 'search' ? rerunSearch(criteria) : rerunSelection(criteria));
    } catch (error) {
      notifications.show({ color: 'red', title: 'The search could not run again', message: errorMessage(error) });
    } finally {
      setRunning(false);
    }
  };

  return { rerun, running };
}
