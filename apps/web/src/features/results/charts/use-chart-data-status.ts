import { useQuery } from '@tanstack/react-query';
import { searchEndpoints } from '@kb/contracts/search-api';
import { endpointQuery } from '../../../app/query.ts';
import { statusInput } from './chart-queries.ts';

/** How often a pending chart-data status is asked again. */
const STATUS_POLL_MS = 1_000;

export type ChartDataState = 'checking' | 'pending' | 'ready' | 'none';

/**
 * Spec §4: the chart data of a session is asked for before any chart. While it is pending the
 * status is polled every second, one request at a time; the query's AbortSignal reaches callApi,
 * so moving to another session (a new key) cancels the request still in flight.
 */
export function useChartDataStatus(sessionid: string): ChartDataState {
  const status = useQuery({
    ...endpointQuery(searchEndpoints.chartDataStatus, statusInput(sessionid)),
    staleTime: 0,
    retry: false,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? STATUS_POLL_MS : false),
  });
  // Spec §8: a failed chart call is swallowed; the charts are still tried (each fails quietly if need be).
  if (status.isError) return 'ready';
  return status.data?.status ?? 'checking';
}
