import { describe, expect, it } from 'vitest';
import { searchEndpoints } from '@kb/contracts/search-api';
import type { Endpoint } from '@kb/contracts/endpoint';
import { CANCELLED_MESSAGES } from '@kb/contracts/errors';
import { ACTIVITY_CAP_MESSAGE } from '@kb/contracts/search';
import type { SearchCriteria } from '@kb/contracts/search';
import type { CallFn } from './search-flow.ts';
import { isCancellation, runSearchFlow } from './search-flow.ts';

const criteria: SearchCriteria = {
  rows: [{ selectedOption: 'activitymechanism', operator: null, fileName: null, mechanisms: ['Inhibitor'] }],
};
const counts = { stridscount: 10, gvkidscount: 12, actidscount: 300, assayidscount: 40, refidscount: 5, clinicalcompoundidscount: 1 };

class FakeError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code = 'X',
  ) {
    super(message);
  }
}

type Handler = (body: unknown, signal: AbortSignal | undefined) => unknown;

/** A fake API: answers per path, records the calls in order. */
function fakeApi(handlers: Record<string, Handler>) {
  const calls: { path: string; body: unknown }[] = [];
  const call = (async (endpoint: Endpoint, input: { body?: unknown }, options?: { signal?: AbortSignal }) => {
    calls.push({ path: endpoint.path, body: input.body });
    const handler = handlers[endpoint.path];
    if (!handler) throw new FakeError(`no handler for ${endpoint.path}`, 404);
    return handler(input.body, options?.signal);
  }) as unknown as CallFn;
  return { call, calls };
}

const logAnswer = (table: string) => () => ({ sessionid: 's', table, rows: 1 });
const happy: Record<string, Handler> = {
  [searchEndpoints.structureLogs.path]: logAnswer('structures'),
  [searchEndpoints.activityLogs.path]: logAnswer('activities'),
  [searchEndpoints.assayLogs.path]: logAnswer('assays'),
  [searchEndpoints.chartDataStatus.path]: () => ({ sessionid: 's', status: 'ready' }),
  [searchEndpoints.allResultsCount.path]: () => ({ rows: [counts], sessionid: 's' }),
};

function deps(call: CallFn, signal = new AbortController().signal) {
  const seen: string[] = [];
  return { seen, deps: { call, signal, newSessionId: () => 'session-1', onSessionId: (id: string) => seen.push(id) } };
}

describe('search flow (spec §4)', () => {
  it('stores the new session id, then logs, chart status and counts, all under that id', async () => {
    const api = fakeApi(happy);
    const { seen, deps: d } = deps(api.call);
    const outcome = await runSearchFlow(criteria, d);
    expect(outcome).toEqual({ kind: 'counts', sessionId: 'session-1', counts });
    expect(seen).toEqual(['session-1']);
    expect(api.calls.map((c) => c.path)).toEqual([
      searchEndpoints.structureLogs.path,
      searchEndpoints.activityLogs.path,
      searchEndpoints.assayLogs.path,
      searchEndpoints.chartDataStatus.path,
      searchEndpoints.allResultsCount.path,
    ]);
    expect(api.calls[0]?.body).toEqual({ searchpostobject: criteria, sessionid: 'session-1' });
    expect(api.calls[4]?.body).toEqual({ searchcriteria: criteria, sessionid: 'session-1' });
  });

  it('keeps the old counts when the count call answers no rows', async () => {
    const api = fakeApi({ ...happy, [searchEndpoints.allResultsCount.path]: () => ({ rows: [], sessionid: 's' }) });
    expect(await runSearchFlow(criteria, deps(api.call).deps)).toEqual({ kind: 'no-data', sessionId: 'session-1' });
  });

  it('reports the activity cap with its exact text', async () => {
    const api = fakeApi({
      ...happy,
      [searchEndpoints.activityLogs.path]: () => {
        throw new FakeError(ACTIVITY_CAP_MESSAGE, 400);
      },
    });
    expect(await runSearchFlow(criteria, deps(api.call).deps)).toEqual({
      kind: 'failed',
      sessionId: 'session-1',
      message: ACTIVITY_CAP_MESSAGE,
      capped: true,
    });
    expect(api.calls.map((c) => c.path)).not.toContain(searchEndpoints.allResultsCount.path);
  });

  it('fails with the server message when counting fails', async () => {
    const api = fakeApi({
      ...happy,
      [searchEndpoints.allResultsCount.path]: () => {
        throw new FakeError('Substructure search is not available yet.', 400);
      },
    });
    expect(await runSearchFlow(criteria, deps(api.call).deps)).toMatchObject({
      kind: 'failed',
      message: 'Substructure search is not available yet.',
      capped: false,
    });
  });

  it('swallows a chart-status failure and still counts (spec §8)', async () => {
    const api = fakeApi({
      ...happy,
      [searchEndpoints.chartDataStatus.path]: () => {
        throw new FakeError('chart status broke', 500);
      },
    });
    expect(await runSearchFlow(criteria, deps(api.call).deps)).toMatchObject({ kind: 'counts' });
  });

  it('ends quietly when a newer search aborts it during the log calls', async () => {
    const controller = new AbortController();
    const api = fakeApi({
      ...happy,
      [searchEndpoints.structureLogs.path]: (_, signal) =>
        new Promise((_resolve, reject) =>
          signal?.addEventListener('abort', () => reject(new FakeError(CANCELLED_MESSAGES.byNewRequest, 0, 'CANCELLED'))),
        ),
    });
    const pending = runSearchFlow(criteria, deps(api.call, controller.signal).deps);
    controller.abort();
    expect(await pending).toEqual({ kind: 'cancelled' });
    expect(api.calls.map((c) => c.path)).not.toContain(searchEndpoints.allResultsCount.path);
  });

  it('recognises both cancellation messages of spec §8 and nothing else', () => {
    expect(isCancellation(new Error(CANCELLED_MESSAGES.byUser))).toBe(true);
    expect(isCancellation(new Error(CANCELLED_MESSAGES.byNewRequest))).toBe(true);
    expect(isCancellation(new Error('Network Error'))).toBe(false);
  });
});
