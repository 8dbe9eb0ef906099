import type { ResultTabKey } from '@kb/contracts/result-tabs';
import type { Selection } from '@kb/contracts/results';
import { resultsEndpoints } from '@kb/contracts/results';
import type { SearchCounts, SearchCriteria } from '@kb/contracts/search';
import { searchEndpoints } from '@kb/contracts/search-api';
import type { CallFn } from '../../search/run/search-flow.ts';

export interface SelectionSearchRequest {
  tab: ResultTabKey;
  /** The session the rows were selected in. */
  sessionid: string;
  selection: Selection;
  /** The tab's "go to" restriction: "select all" means all of these rows only. */
  strIdList?: number[];
  /** The tab's similarity window, which narrows "select all" as it narrows the rows shown. */
  similarityWindow?: { sortSmiles: string; minValue: number | null; maxValue: number | null };
}

export interface SelectionSearchResult {
  /** The new session the search ran in. */
  sessionId: string;
  criteria: SearchCriteria;
  summary: string;
  /** Null when the count call answered no rows (spec §4: no data at all). */
  counts: SearchCounts | null;
}

export interface SelectionSearchDeps {
  call: CallFn;
  newSessionId: () => string;
  signal?: AbortSignal;
}

/**
 * Runs a selection search in a new session, as the search flow runs any search: the activity and
 * assay sets, then the counts. Also what "Run the search again" does for an expired selection session.
 */
export async function runSelectionSession(
  criteria: SearchCriteria,
  deps: SelectionSearchDeps,
): Promise<{ sessionId: string; counts: SearchCounts | null }> {
  const { call, signal } = deps;
  const sessionId = deps.newSessionId();
  const logBody = { body: { searchpostobject: criteria, sessionid: sessionId } };
  await Promise.all([
    call(searchEndpoints.selectionActivityLogs, logBody, { signal }),
    call(searchEndpoints.selectionAssayLogs, logBody, { signal }),
  ]);
  const answer = await call(
    searchEndpoints.newSearchBySelectionCount,
    { body: { searchcriteria: criteria, sessionid: sessionId } },
    { signal },
  );
  return { sessionId, counts: answer?.rows[0] ?? null };
}

/**
 * Spec "new search by selection": the server turns the selection into a search (one selection
 * row), which then runs in a NEW session. Failures (nothing selected, a cap) reject with the
 * server's message.
 */
export async function runNewSearchBySelection(request: SelectionSearchRequest, deps: SelectionSearchDeps): Promise<SelectionSearchResult> {
  const body = {
    sessionid: request.sessionid,
    selection: request.selection,
    ...(request.strIdList ? { strIdList: request.strIdList } : {}),
    ...(request.similarityWindow ?? {}),
  };
  const built = await deps.call(resultsEndpoints.newSearchBy, { params: { tab: request.tab }, body }, { signal: deps.signal });
  const { sessionId, counts } = await runSelectionSession(built.searchcriteria, deps);
  return { sessionId, criteria: built.searchcriteria, summary: built.summary, counts };
}
