import { describe, expect, it } from 'vitest';
import type { Endpoint } from '@kb/contracts/endpoint';
import { resultsEndpoints } from '@kb/contracts/results';
import type { SearchCriteria } from '@kb/contracts/search';
import { searchEndpoints } from '@kb/contracts/search-api';
import type { CallFn } from '../../search/run/search-flow.ts';
import { runNewSearchBySelection } from './new-search-by-selection.ts';

const OLD = '11111111-1111-4111-8111-111111111111';
const NEW = '22222222-2222-4222-8222-222222222222';
const criteria: SearchCriteria = {
  rows: [{ selectedOption: 'selection', operator: null, fileName: null, entity: 'activity', ids: [3, 4], label: '2 activities' }],
};
const counts = { stridscount: 2, gvkidscount: 2, actidscount: 2, assayidscount: 1, refidscount: 1, clinicalcompoundidscount: 0 };

class FakeError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** A fake API answering per path and recording each call's path, params and body. */
function fakeApi(handlers: Record<string, (input: { params?: unknown; body?: unknown }) => unknown>) {
  const calls: { path: string; params?: unknown; body?: unknown }[] = [];
  const call = (async (endpoint: Endpoint, input: { params?: unknown; body?: unknown }) => {
    calls.push({ path: endpoint.path, params: input.params, body: input.body });
    const handler = handlers[endpoint.path];
    if (!handler) throw new FakeError(`no handler for ${endpoint.path}`, 404);
    return handler(input);
  }) as unknown as CallFn;
  return { call, calls };
}

const happy = {
  [resultsEndpoints.newSearchBy.path]: () => ({
    searchcriteria: criteria,
    entity: 'activity',
    selected: 2,
    summary: '2 activities of a search',
  }),
  [searchEndpoints.selectionActivityLogs.path]: () => ({ sessionid: NEW, table: 'activities', rows: 2 }),
  [searchEndpoints.selectionAssayLogs.path]: () => ({ sessionid: NEW, table: 'assays', rows: 1 }),
  [searchEndpoints.newSearchBySelectionCount.path]: () => ({ rows: [counts], sessionid: NEW }),
};

describe('new search by selection', () => {
  it('builds the search from the selection, then runs it in a new session: logs, then counts', async () => {
    const api = fakeApi(happy);
    const selection = { selectAll: true, selectedIds: [], unselectedIds: [9] };
    const result = await runNewSearchBySelection(
      { tab: 'activitiestab', sessionid: OLD, selection, strIdList: [100, 101] },
      { call: api.call, newSessionId: () => NEW },
    );

    expect(result).toEqual({ sessionId: NEW, criteria, summary: '2 activities of a search', counts });
    expect(api.calls[0]).toEqual({
      path: resultsEndpoints.newSearchBy.path,
      params: { tab: 'activitiestab' },
      body: { sessionid: OLD, selection, strIdList: [100, 101] },
    });
    expect(
      api.calls
        .slice(1, 3)
        .map((c) => c.path)
        .sort(),
    ).toEqual([searchEndpoints.selectionActivityLogs.path, searchEndpoints.selectionAssayLogs.path].sort());
    for (const log of api.calls.slice(1, 3)) expect(log.body).toEqual({ searchpostobject: criteria, sessionid: NEW });
    expect(api.calls[3]).toMatchObject({
      path: searchEndpoints.newSearchBySelectionCount.path,
      body: { searchcriteria: criteria, sessionid: NEW },
    });
  });

  it('sends no strIdList when the tab is not restricted', async () => {
    const api = fakeApi(happy);
    await runNewSearchBySelection(
      { tab: 'structuretab', sessionid: OLD, selection: { selectAll: false, selectedIds: [1], unselectedIds: [] } },
      { call: api.call, newSessionId: () => NEW },
    );
    expect(api.calls[0]?.body).not.toHaveProperty('strIdList');
  });

  it("fails with the server's message and runs nothing when the selection is refused", async () => {
    const api = fakeApi({
      ...happy,
      [resultsEndpoints.newSearchBy.path]: () => {
        throw new FakeError('Select at least one row', 400);
      },
    });
    let asked = false;
    const run = runNewSearchBySelection(
      { tab: 'structuretab', sessionid: OLD, selection: { selectAll: false, selectedIds: [], unselectedIds: [] } },
      { call: api.call, newSessionId: () => ((asked = true), NEW) },
    );
    await expect(run).rejects.toThrow('Select at least one row');
    expect(asked).toBe(false);
    expect(api.calls).toHaveLength(1);
  });

  it('answers no counts when the count call has no rows (the old counts are not invented)', async () => {
    const api = fakeApi({ ...happy, [searchEndpoints.newSearchBySelectionCount.path]: () => ({ rows: [], sessionid: NEW }) });
    const result = await runNewSearchBySelection(
      { tab: 'structuretab', sessionid: OLD, selection: { selectAll: false, selectedIds: [1], unselectedIds: [] } },
      { call: api.call, newSessionId: () => NEW },
    );
    expect(result.counts).toBeNull();
  });
});
