import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DEFAULT_CHART_MAX_COUNT, DEFAULT_CHART_SORT, chartEndpoints } from '@kb/contracts/charts';
import type { ChartResponse, ChartSortKey } from '@kb/contracts/charts';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { endpointQuery } from '../../../app/query.ts';
import { sortParams } from './chart-options.ts';
import { chartRequest } from './chart-queries.ts';
import { relatedStructures, useResultsStore } from '../results-store.ts';

/**
 * One chart of a tab with its own sort and length. A new sort, length, tab or filter list makes a
 * new request and cancels the one in flight (TanStack Query aborts the signal callApi was given
 * when a query loses its last observer or is refetched). Spec §8: a failed chart is swallowed: the
 * last data stays on screen and `failed` only offers a retry.
 */
export function useChartData(sessionid: string, tab: ResultTabKey, chartKey: string, ready: boolean) {
  const [sort, setSort] = useState<ChartSortKey>(DEFAULT_CHART_SORT);
  const [maxCount, setMaxCount] = useState(DEFAULT_CHART_MAX_COUNT);
  // A tab narrowed to related rows ("go to") charts those rows, as its grid shows them.
  const related = useResultsStore((store) => relatedStructures(store, sessionid, tab));
  const query = useQuery({
    ...endpointQuery(chartEndpoints.chart, { body: chartRequest(sessionid, tab, chartKey, sortParams(sort), maxCount, related) }),
    enabled: ready,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const [lastGood, setLastGood] = useState<ChartResponse | undefined>(undefined);
  if (query.data && query.data !== lastGood) setLastGood(query.data);
  const data = query.data ?? lastGood;

  return {
    data,
    /** True until the first answer: the card shows a skeleton. */
    loading: data === undefined && !query.isError,
    /** A newer answer is on its way while the last one stays on screen. */
    refreshing: query.isFetching && data !== undefined,
    failed: query.isError,
    retry: () => void query.refetch(),
    sort,
    setSort,
    maxCount,
    setMaxCount,
  };
}
