import type { Query, QueryClient } from '@tanstack/react-query';
import { chartEndpoints } from '@kb/contracts/charts';
import type { ChartRequest, ChartType } from '@kb/contracts/charts';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { resultsEndpoints } from '@kb/contracts/results';
import { endpointKey, refetchAfterChange } from '../../../app/query.ts';

/** The request of one chart card. */
export function chartRequest(
  sessionid: string,
  tab: ResultTabKey,
  chartKey: string,
  sort: Pick<ChartRequest, 'sortType' | 'sortOrder'>,
  maxCount: number,
  strIdList?: readonly number[] | null,
): ChartRequest {
  return {
    sessionid,
    type: tab,
    charttype: chartKey,
    resetFlg: false,
    sortType: sort.sortType,
    sortOrder: sort.sortOrder,
    maxCount,
    ...(strIdList?.length ? { strIdList: [...strIdList] } : {}),
  };
}

/** The left-hand filter search of one List chart. */
export function valueSearchInput(
  sessionid: string,
  tab: ResultTabKey,
  chartType: ChartType,
  chartKey: string,
  search: string,
  maxCount: number,
) {
  return {
    params: { chartType, chartKey },
    body: { sessionid, type: tab, search, sortType: 'count' as const, sortOrder: 'desc' as const, maxCount },
  };
}

export function sessionInput(sessionid: string) {
  return { params: { sessionid } };
}

export function statusInput(sessionid: string) {
  return { body: { sessionid } };
}

type BodyOf = { body?: { sessionid?: unknown; type?: unknown } } | undefined;

/** True for a query whose request body names this session (and tab, when given). */
function bodyMatches(query: Query, sessionid: string, tab?: ResultTabKey): boolean {
  const body = (query.queryKey[2] as BodyOf)?.body;
  return body?.sessionid === sessionid && (tab === undefined || body.type === tab);
}

/**
 * After the filters of a tab changed (or every tab's, without `tab`): its charts and value
 * searches count other rows now, and the session's filters and counts moved: the charts on screen
 * are fetched again, any of their requests still in flight dropped (it may predate the change).
 */
export async function refreshAfterFilters(client: QueryClient, sessionid: string, tab?: ResultTabKey): Promise<void> {
  await Promise.all([
    refetchAfterChange(client, { queryKey: endpointKey(chartEndpoints.chart), predicate: (query) => bodyMatches(query, sessionid, tab) }),
    refetchAfterChange(client, {
      queryKey: endpointKey(chartEndpoints.leftHandFilter),
      predicate: (query) => bodyMatches(query, sessionid, tab),
    }),
    refetchAfterChange(client, { queryKey: endpointKey(resultsEndpoints.session, sessionInput(sessionid)) }),
  ]);
}
