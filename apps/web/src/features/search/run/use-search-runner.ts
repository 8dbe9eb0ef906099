import { useCallback } from 'react';
import { searchEndpoints } from '@kb/contracts/search-api';
import type { SearchCriteria } from '@kb/contracts/search';
import { callApi } from '../../../app/api-client.ts';
import { startPageLoader, stopPageLoader } from '../../../app/page-loader.ts';
import { endpointKey, queryClient } from '../../../app/query.ts';
import { useSearchBuilderStore } from '../builder/search-builder-store.ts';
import { useSearchSessionStore } from '../../../app/stores/search-session-store.ts';
import { searchFigures } from '../counts/count-figures.ts';
import type { SearchOutcome } from './search-flow.ts';
import { runSearchFlow } from './search-flow.ts';
import { newSearchSessionId } from '../../../app/session-id.ts';

/** The summary column holds at most this much (contract: 20,000 characters). */
const SUMMARY_MAX = 20_000;

/** The search in flight, page-wide: the search page and the home page share it, so a new search cancels the old one. */
let inFlight: AbortController | null = null;

/** Spec §4 "Search flow" wired to the app: loader, stores, the session summary afterwards. */
export async function runSearch(
  criteria: SearchCriteria,
  summary: string,
  options: { keepOpenSession?: boolean } = {},
): Promise<SearchOutcome> {
  inFlight?.abort();
  const controller = new AbortController();
  inFlight = controller;
  const store = useSearchBuilderStore.getState();
  // keepOpenSession: the open results stay on screen while it runs (no "running" state for them).
  if (!options.keepOpenSession) store.startRun();
  startPageLoader();
  try {
    const outcome = await runSearchFlow(criteria, {
      call: callApi,
      signal: controller.signal,
      newSessionId: newSearchSessionId,
      // keepOpenSession: the results page stays on the open session until the new one has its counts
      // (a results filter that fails leaves the results as they were).
      onSessionId: (id) => (options.keepOpenSession ? undefined : useSearchSessionStore.getState().setSearchSessionId(id)),
    });
    if (options.keepOpenSession && (outcome.kind === 'counts' || outcome.kind === 'no-data'))
      useSearchSessionStore.getState().setSearchSessionId(outcome.sessionId);
    if (outcome.kind === 'counts') {
      const text = summary.length > SUMMARY_MAX ? `${summary.slice(0, SUMMARY_MAX - 1)}…` : summary;
      store.finishRun({
        sessionId: outcome.sessionId,
        criteria,
        summary: text,
        counts: searchFigures(outcome.counts),
        ranAt: new Date().toISOString(),
      });
      // The recent-searches list shows this summary; losing it must not fail the search.
      void callApi(searchEndpoints.sessionSummarySave, { body: { sessionid: outcome.sessionId, summary: text } })
        .catch(() => undefined)
        .finally(() => void queryClient.invalidateQueries({ queryKey: endpointKey(searchEndpoints.home) }));
    } else if (outcome.kind === 'no-data') store.keepCounts();
    else if (outcome.kind === 'failed' && !options.keepOpenSession) store.failRun(outcome.message);
    return outcome;
  } finally {
    // A cancelled run leaves the loader to the run that replaced it.
    if (inFlight === controller) {
      inFlight = null;
      stopPageLoader();
    }
  }
}

/** Stops the search in flight (the user pressed Cancel), here and on the server. */
function cancelSearch(): void {
  if (!inFlight) return;
  const sessionid = useSearchSessionStore.getState().searchSessionId;
  // Aborting our requests does not stop the server's work; this does (a long structure search).
  if (sessionid) void callApi(searchEndpoints.searchCancel, { params: { sessionid } }).catch(() => undefined);
  inFlight.abort();
  inFlight = null;
  useSearchBuilderStore.getState().cancelRun();
  stopPageLoader();
}

export function useSearchRunner() {
  return { run: useCallback(runSearch, []), cancel: useCallback(cancelSearch, []) };
}
