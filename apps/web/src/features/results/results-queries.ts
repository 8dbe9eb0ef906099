import type { ResultTabKey } from '@kb/contracts/result-tabs';
import type { TabPage, TabRequest } from '@kb/contracts/results';
import { resultsEndpoints } from '@kb/contracts/results';
import { callApi, isApiRequestError } from '../../app/api-client.ts';
import { endpointKey, endpointQuery, queryClient, refetchAfterChange } from '../../app/query.ts';

/** Query options and cache keys of the results calls, in one place so invalidation matches them. */

/** One page of a tab; null when the server answers 204 (the tab has no rows, spec §4). */
export function tabRowsQuery(tab: ResultTabKey, body: TabRequest) {
  const input = { params: { tab }, body };
  return {
    queryKey: endpointKey(resultsEndpoints.tabRows, input),
    // TanStack Query refuses undefined data: the 204 is kept as null.
    queryFn: async ({ signal }: { signal: AbortSignal }): Promise<TabPage | null> =>
      (await callApi(resultsEndpoints.tabRows, input, { signal })) ?? null,
  };
}

export function sessionQuery(sessionid: string) {
  return endpointQuery(resultsEndpoints.session, { params: { sessionid } });
}

/** The columns of every tab; `reset` asks the server for the defaults again ("Reset columns"). */
export function columnsQuery(reset = false) {
  return { ...endpointQuery(resultsEndpoints.tabColumns, { params: { resetAllFlag: reset } }), staleTime: 10 * 60_000 };
}

/** After filters, a "go to" or "view all": every tab page and the session's per-tab counts are stale. */
export async function invalidateResults(sessionid: string): Promise<void> {
  await Promise.all([
    refetchAfterChange(queryClient, { queryKey: endpointKey(resultsEndpoints.tabRows) }),
    refetchAfterChange(queryClient, { queryKey: endpointKey(resultsEndpoints.session, { params: { sessionid } }) }),
  ]);
}

/** Why a results session cannot be shown, from the error of its session call. */
export type SessionProblem = 'expired' | 'forbidden' | 'missing' | 'unfinished' | 'failed';

export function sessionProblem(error: unknown): SessionProblem {
  if (!isApiRequestError(error)) return 'failed';
  if (error.status === 410) return 'expired';
  if (error.status === 403) return 'forbidden';
  if (error.status === 404) return 'missing';
  // Still running elsewhere, cancelled or failed: the server's message says which.
  if (error.status === 409) return 'unfinished';
  return 'failed';
}

/** The last page the server named when a page was beyond it (a 400 after filters shrank the tab), or null. */
export function lastPageOf(error: unknown): number | null {
  if (!isApiRequestError(error) || error.status !== 400) return null;
  const details = error.details as { field?: unknown; lastPage?: unknown } | undefined;
  return details?.field === 'pageNumber' && typeof details.lastPage === 'number' ? details.lastPage : null;
}
