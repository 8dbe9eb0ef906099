import { useQuery } from '@tanstack/react-query';
import type { AnalyzerChartConfig, AnalyzerTab, VisualizationResponse } from '@kb/contracts/analyzers';
import { analyzerEndpoints } from '@kb/contracts/analyzers';
import { callApi } from '../../../app/api-client.ts';
import { endpointKey, queryClient } from '../../../app/query.ts';

/** One analyzer chart of a session's tab; a new config is a new query (the previous one stays cached). */
export function useVisualization<K extends AnalyzerChartConfig['chart']>(
  sessionId: string,
  tab: AnalyzerTab,
  config: Extract<AnalyzerChartConfig, { chart: K }>,
) {
  const body = { sessionid: sessionId, tab, config };
  return useQuery({
    queryKey: endpointKey(analyzerEndpoints.visualization, { body }),
    queryFn: ({ signal }) =>
      callApi(analyzerEndpoints.visualization, { body }, { signal }) as Promise<Extract<VisualizationResponse, { chart: K }>>,
    retry: false,
    staleTime: 60_000,
  });
}

/** The endpoints a Structures-tab scatter can plot as pActivity (asked only when the tab has the choice). */
export function useEndpointOptions(sessionId: string, tab: AnalyzerTab, enabled: boolean) {
  const body = { sessionid: sessionId, tab };
  return useQuery({
    queryKey: endpointKey(analyzerEndpoints.endpointOptions, { body }),
    queryFn: ({ signal }) => callApi(analyzerEndpoints.endpointOptions, { body }, { signal }),
    enabled,
    retry: false,
    staleTime: 300_000,
  });
}

export function useSavedAnalyses() {
  return useQuery({
    queryKey: endpointKey(analyzerEndpoints.fetchRequest, { query: {} }),
    queryFn: ({ signal }) => callApi(analyzerEndpoints.fetchRequest, { query: {} }, { signal }),
  });
}

export function useSavedAnalysis(id: number | null) {
  return useQuery({
    queryKey: endpointKey(analyzerEndpoints.fetchRequest, { query: { id: id ?? 0 } }),
    queryFn: ({ signal }) => callApi(analyzerEndpoints.fetchRequest, { query: { id: id ?? 0 } }, { signal }),
    enabled: id !== null,
    retry: false,
  });
}

/** After a save, the home page's list is read again. */
export function invalidateSavedAnalyses(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: endpointKey(analyzerEndpoints.fetchRequest).slice(0, 1) });
}
