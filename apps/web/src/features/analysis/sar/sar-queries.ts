import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { SarEndpoint } from '@kb/contracts/sar';
import type { SarRun } from './sar-store.ts';
import { sarEndpoints } from '@kb/contracts/sar';
import { callApi, isApiRequestError } from '../../../app/api-client.ts';
import { endpointQuery } from '../../../app/query.ts';

/** How often the progress of a running table or pairs computation is asked. */
const SAR_PROGRESS_POLL_MS = 500;

/** The SAR data of a session; 404 means setSarData was never called for it (not an error to retry). */
export function useSarData(sessionId: string) {
  return useQuery({ ...endpointQuery(sarEndpoints.sarData, { params: { sessionid: sessionId } }), retry: false });
}

export function isNotFound(error: unknown): boolean {
  return isApiRequestError(error) && error.status === 404;
}

export function useSarCores(sessionId: string, endpoint: SarEndpoint | null) {
  return useQuery({
    ...endpointQuery(sarEndpoints.sarCores, { body: { sessionid: sessionId, endpoint } }),
    enabled: endpoint !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * For each pair of the chosen endpoints, how many compounds of the first are measured on both: a
 * difference column needs at least one (the server refuses an empty one).
 */
export function useSarOverlap(sessionId: string, endpoint: SarEndpoint | null, more: readonly SarEndpoint[]) {
  const body = { sessionid: sessionId, endpoint: endpoint ?? { targetId: 1, activityType: '' }, moreEndpoints: [...more] };
  return useQuery({
    ...endpointQuery(sarEndpoints.sarOverlap, { body }),
    enabled: endpoint !== null && more.length > 0,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

/** The SAR table of the run the user asked for (kept in the SAR store, so a reload asks again). */
export function useSarTable(sessionId: string, run: SarRun | null) {
  const body = { sessionid: sessionId, ...runBody(run ?? { endpoint: { targetId: 1, activityType: '' }, cores: [] }) };
  return useQuery({
    ...endpointQuery(sarEndpoints.sarTable, { body }),
    enabled: run !== null,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

/** What a table request carries of a run (a run stored before several endpoints existed has none more). */
export function runBody(run: SarRun) {
  return { endpoint: run.endpoint, moreEndpoints: run.moreEndpoints ?? [], differences: run.differences ?? [], cores: run.cores };
}

/** Progress of the session's SAR work, polled while `active`. */
export function useSarProgress(sessionId: string, active: boolean) {
  return useQuery({
    ...endpointQuery(sarEndpoints.sarProgress, { params: { sessionid: sessionId } }),
    enabled: active,
    refetchInterval: active ? SAR_PROGRESS_POLL_MS : false,
    staleTime: 0,
    gcTime: 0,
  });
}

/**
 * Stops the session's SAR work: the server ends it (its call answers 409) and the query here is
 * dropped, so the view returns to where it was before the run.
 */
export function useCancelSar(sessionId: string) {
  const client = useQueryClient();
  return useCallback(
    async (queryPath: string) => {
      await callApi(sarEndpoints.sarCancel, { params: { sessionid: sessionId } }).catch(() => undefined);
      await client.cancelQueries({ queryKey: ['POST', queryPath] });
    },
    [client, sessionId],
  );
}

/** A virtual compound (the core with these R-groups joined on), asked only when shown. */
export function useVirtualCompound(core: string, rgroups: Record<string, string | null>, enabled: boolean) {
  return useQuery({
    ...endpointQuery(sarEndpoints.sarVirtual, { body: { core, rgroups } }),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}
