import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { START_PAGE, resultTabLabel } from '@kb/contracts/result-tabs';
import { resultsEndpoints } from '@kb/contracts/results';
import { searchEndpoints } from '@kb/contracts/search-api';
import { callApi, errorMessage } from '../../../app/api-client.ts';
import { startPageLoader, stopPageLoader } from '../../../app/page-loader.ts';
import type { ResultsScope } from '../results-store.ts';
import { useResultsStore } from '../results-store.ts';
import { useSearchSessionStore } from '../../../app/stores/search-session-store.ts';
import { newSearchSessionId } from '../../../app/session-id.ts';
import { invalidateResults } from '../results-queries.ts';
import type { TabState } from '../tab-state.ts';
import { EMPTY_SELECTION } from '../tab-state.ts';
import { runNewSearchBySelection } from './new-search-by-selection.ts';
import { countNoun } from '../../../app/format/plural.ts';
import { ACTIVITY } from '../../../app/format/nouns.ts';

/** Where each scope's results live. */
export const RESULTS_BASE: Record<ResultsScope, '/results' | '/new-search-results'> = {
  search: '/results',
  selection: '/new-search-results',
};

interface TabRef {
  scope: ResultsScope;
  sessionId: string;
  tab: ResultTabKey;
  state: TabState;
  update: (change: (state: TabState) => TabState) => void;
}

/**
 * Spec "new search by selection": the selected rows of the tab become a search that runs in a new
 * session, opened at /new-search-results. The tab's selection is cleared (spec §4: the tab state
 * resets on a new search by selection); failures are notified with the server's message.
 */
export function useNewSearchBySelection({ sessionId, tab, state, update }: TabRef) {
  const navigate = useNavigate();
  const [running, setRunning] = useState(false);

  const start = async () => {
    setRunning(true);
    startPageLoader();
    try {
      const result = await runNewSearchBySelection(
        {
          tab,
          sessionid: sessionId,
          selection: state.selection,
          ...(state.goto ? { strIdList: state.goto.strIdList } : {}),
          ...(state.similarity?.status && (state.similarity.min != null || state.similarity.max != null)
            ? { similarityWindow: { sortSmiles: state.similarity.smiles, minValue: state.similarity.min, maxValue: state.similarity.max } }
            : {}),
        },
        { call: callApi, newSessionId: newSearchSessionId },
      );
      // The recent-searches list and the results header show this summary; losing it must not fail the search.
      void callApi(searchEndpoints.sessionSummarySave, { body: { sessionid: result.sessionId, summary: result.summary } }).catch(
        () => undefined,
      );
      useResultsStore.getState().resetScope('selection', result.sessionId);
      useResultsStore.getState().setSelectionSearch({ criteria: result.criteria, summary: result.summary });
      useSearchSessionStore.getState().setSelectionSessionId(result.sessionId);
      update((current) => ({ ...current, selection: EMPTY_SELECTION }));
      notifications.show({
        color: 'green',
        message: result.counts
          ? `${result.summary}: ${countNoun(result.counts.stridscount, 'structure')}, ${countNoun(result.counts.actidscount, ACTIVITY)}.`
          : result.summary,
      });
      navigate(`${RESULTS_BASE.selection}/structuretab`);
    } catch (error) {
      notifications.show({ color: 'red', title: 'The new search could not start', message: errorMessage(error) });
    } finally {
      stopPageLoader();
      setRunning(false);
    }
  };

  return { start, running };
}

/**
 * Spec "go to" (security/navigation/goto): from the rows picked in this tab to the related rows
 * of another tab, opened with the structure list the server answers.
 */
export function useGotoTab({ scope, sessionId, tab, state }: TabRef) {
  const navigate = useNavigate();
  const updateTab = useResultsStore((store) => store.updateTab);
  const [running, setRunning] = useState(false);

  const goto = async (toTab: ResultTabKey) => {
    setRunning(true);
    try {
      const answer = await callApi(resultsEndpoints.gotoTab, {
        body: { sessionid: sessionId, fromTab: tab, toTab, ids: state.selection.selectedIds },
      });
      updateTab(scope, sessionId, answer.tab, (current) => ({
        ...current,
        pageNumber: START_PAGE,
        goto: { strIdList: answer.strIdList, fromTab: tab, rowCount: answer.rowCount },
      }));
      navigate(`${RESULTS_BASE[scope]}/${answer.tab}`);
    } catch (error) {
      notifications.show({ color: 'red', title: `Could not open ${resultTabLabel(toTab) ?? toTab}`, message: errorMessage(error) });
    } finally {
      setRunning(false);
    }
  };

  return { goto, running };
}

/** Spec "view all" (security/navigation/viewall): back from a "go to" to every row of the tab. */
export function useViewAll({ sessionId, tab, update }: Omit<TabRef, 'state' | 'scope'>) {
  const [running, setRunning] = useState(false);
  const viewAll = async () => {
    setRunning(true);
    try {
      await callApi(resultsEndpoints.viewAll, { body: { sessionid: sessionId, tab } });
      update((current) => ({ ...current, pageNumber: START_PAGE, goto: null }));
      await invalidateResults(sessionId);
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not show all rows', message: errorMessage(error) });
    } finally {
      setRunning(false);
    }
  };
  return { viewAll, running };
}
