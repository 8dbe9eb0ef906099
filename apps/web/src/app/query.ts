import { QueryClient } from '@tanstack/react-query';
import type { InvalidateQueryFilters } from '@tanstack/react-query';
import type { Endpoint, EndpointInput, EndpointResponse } from '@kb/contracts/endpoint';
import { callApi, isApiRequestError } from './api-client.ts';
import { registerStoreReset } from './stores/store-registry.ts';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      refetchOnWindowFocus: false,
      staleTime: 30_000,
      // Client errors (4xx) will not change on a retry; only network and server failures are retried once.
      retry: (failureCount, error) => failureCount < 1 && !(isApiRequestError(error) && error.status >= 400 && error.status < 500),
    },
  },
});

// A new user must never see the previous user's cached answers.
registerStoreReset(() => queryClient.clear());

/** The query key of an endpoint call: method, path and input (one key space per endpoint). */
export function endpointKey<E extends Endpoint>(endpoint: E, input?: EndpointInput<E>): readonly unknown[] {
  return input === undefined ? [endpoint.method, endpoint.path] : [endpoint.method, endpoint.path, input];
}

/** Query options for an endpoint call, passing TanStack Query's AbortSignal to the client. */
export function endpointQuery<E extends Endpoint>(endpoint: E, input: EndpointInput<E>) {
  return {
    queryKey: endpointKey(endpoint, input),
    queryFn: ({ signal }: { signal: AbortSignal }): Promise<EndpointResponse<E>> => callApi(endpoint, input, { signal }),
  };
}

/**
 * After the server changed what some queries answer (filters applied, say): refetch them, and
 * drop any answer still in flight first. `invalidateQueries` alone cancels an in-flight fetch only
 * when its query already has data: a first fetch sent before the change (a tab's first page while
 * a saved query's filters were being applied) would be kept, stale, with nothing fetching again.
 */
export async function refetchAfterChange(client: QueryClient, filters: InvalidateQueryFilters): Promise<void> {
  await client.cancelQueries(filters);
  await client.invalidateQueries(filters);
}
