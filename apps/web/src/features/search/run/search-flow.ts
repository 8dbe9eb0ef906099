import { searchEndpoints } from '@kb/contracts/search-api';
import type { Endpoint, EndpointInput, EndpointResponse } from '@kb/contracts/endpoint';
import { CANCELLED_MESSAGES } from '@kb/contracts/errors';
import { ACTIVITY_CAP_MESSAGE } from '@kb/contracts/search';
import type { SearchCounts, SearchCriteria } from '@kb/contracts/search';

/** The API client's call signature (callApi in the app, a fake in tests). */
export type CallFn = <E extends Endpoint>(
  endpoint: E,
  input: EndpointInput<E>,
  options?: { signal?: AbortSignal },
) => Promise<EndpointResponse<E>>;

export type SearchOutcome =
  | { kind: 'counts'; sessionId: string; counts: SearchCounts }
  /** Spec §4: the count call answered no data at all: the old counts stay. */
  | { kind: 'no-data'; sessionId: string }
  /** Spec §8: counts become zero; `message` is the server's (e.g. the activity cap). */
  | { kind: 'failed'; sessionId: string; message: string; capped: boolean }
  /** A newer search took over (spec §8: not an error). */
  | { kind: 'cancelled' };

export interface SearchFlowDeps {
  call: CallFn;
  /** A new search session id (crypto.randomUUID in the app). */
  newSessionId: () => string;
  /** Called with the new id before any call, so every call carries it (x-custom-session). */
  onSessionId: (id: string) => void;
  signal: AbortSignal;
}

/** Spec §8: a request ended by a newer one, by either of its messages or by our own abort. */
export function isCancellation(error: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return true;
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'AbortError' ||
    (Object.values(CANCELLED_MESSAGES) as string[]).includes(error.message) ||
    (error as { code?: unknown }).code === 'CANCELLED'
  );
}

function failureMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'The search failed. Please try again.';
}

function failed(sessionId: string, error: unknown): SearchOutcome {
  const message = failureMessage(error);
  return { kind: 'failed', sessionId, message, capped: message === ACTIVITY_CAP_MESSAGE };
}

/**
 * Spec §4 "Search flow": a new session id; the structure, activity and assay log tables (in
 * parallel); the chart-data status; then the counts. The loader is the caller's business; every
 * call carries `signal`, so a newer search cancels this one wherever it is.
 */
export async function runSearchFlow(criteria: SearchCriteria, deps: SearchFlowDeps): Promise<SearchOutcome> {
  const { call, signal } = deps;
  const sessionId = deps.newSessionId();
  deps.onSessionId(sessionId);
  const logBody = { body: { searchpostobject: criteria, sessionid: sessionId } };

  const logs = await Promise.allSettled([
    call(searchEndpoints.structureLogs, logBody, { signal }),
    call(searchEndpoints.activityLogs, logBody, { signal }),
    call(searchEndpoints.assayLogs, logBody, { signal }),
  ]);
  if (signal.aborted) return { kind: 'cancelled' };
  const logFailure = logs.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (logFailure) return isCancellation(logFailure.reason, signal) ? { kind: 'cancelled' } : failed(sessionId, logFailure.reason);

  try {
    await call(searchEndpoints.chartDataStatus, { body: { sessionid: sessionId } }, { signal });
  } catch (error) {
    // Spec §8: a chart request failure is swallowed; only a cancellation stops the flow.
    if (isCancellation(error, signal)) return { kind: 'cancelled' };
  }

  try {
    const answer = await call(searchEndpoints.allResultsCount, { body: { searchcriteria: criteria, sessionid: sessionId } }, { signal });
    if (signal.aborted) return { kind: 'cancelled' };
    const counts = answer?.rows[0];
    return counts ? { kind: 'counts', sessionId, counts } : { kind: 'no-data', sessionId };
  } catch (error) {
    return isCancellation(error, signal) ? { kind: 'cancelled' } : failed(sessionId, error);
  }
}
