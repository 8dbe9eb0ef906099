import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import type { SortOrder, TabPage } from '@kb/contracts/results';
import type { ResultsScope } from './results-store.ts';
import { selectTabState, useResultsStore } from './results-store.ts';
import { lastPageOf, tabRowsQuery } from './results-queries.ts';
import type { TabState } from './tab-state.ts';
import { applyHeaderSort, clampPage, effectiveSort, tabRequestBody } from './tab-state.ts';

export interface TabView {
  state: TabState;
  update: (change: (state: TabState) => TabState) => void;
  /** The page on screen: the current answer, else the last good one of this tab (spec §8). */
  page: TabPage | null;
  rowCount: number;
  sort: SortOrder | null;
  /** The first answer of this tab has not come yet. */
  pending: boolean;
  /** A page is being fetched (a new page, sort or refresh). */
  fetching: boolean;
  /** The last call failed: the rows shown are the previous ones. */
  refreshFailed: boolean;
  /** The server answered 204: the tab has no rows. */
  empty: boolean;
  setPage: (pageNumber: number) => void;
  setPageSize: (pageSize: number) => void;
  setSort: (sort: SortOrder | null) => void;
}

/**
 * One tab of a results session: its state from the results store and its page from the server.
 * Spec §8: a tab call that fails is swallowed; the last rows stay on screen with a note.
 */
export function useTabView(scope: ResultsScope, sessionId: string, tab: ResultTabKey): TabView {
  const state = useResultsStore((store) => selectTabState(store, scope, sessionId, tab));
  const updateTab = useResultsStore((store) => store.updateTab);
  const update = useCallback(
    (change: (current: TabState) => TabState) => updateTab(scope, sessionId, tab, change),
    [updateTab, scope, sessionId, tab],
  );

  const body = useMemo(() => tabRequestBody(sessionId, state), [sessionId, state]);
  const query = useQuery({
    ...tabRowsQuery(tab, body),
    // While the next page or sort loads, the rows of the same tab stay (the grid shows its loading overlay).
    placeholderData: (previous, previousQuery) =>
      (previousQuery?.queryKey[2] as { params?: { tab?: string } } | undefined)?.params?.tab === tab ? previous : undefined,
    retry: false,
  });

  const viewKey = `${scope}:${sessionId}:${tab}`;
  const [lastGood, setLastGood] = useState<{ key: string; page: TabPage | null } | null>(null);
  useEffect(() => {
    if (query.isSuccess && !query.isPlaceholderData) setLastGood({ key: viewKey, page: query.data });
  }, [query.isSuccess, query.isPlaceholderData, query.data, viewKey]);

  const fallback = lastGood?.key === viewKey ? lastGood.page : null;
  const page = query.data !== undefined ? query.data : query.isError ? fallback : null;
  const rowCount = page?.rowCount ?? 0;

  // Filters may shrink the tab under the current page: move back to its last page (the server
  // refuses a page beyond it with a 400 naming the last page).
  const beyond = lastPageOf(query.error);
  useEffect(() => {
    if (beyond !== null && beyond < state.pageNumber) update((current) => ({ ...current, pageNumber: beyond }));
    else if (page && query.isSuccess && !query.isPlaceholderData) {
      const last = clampPage(state.pageNumber, state.pageSize, page.rowCount);
      if (last !== state.pageNumber) update((current) => ({ ...current, pageNumber: last }));
    }
  }, [beyond, page, query.isSuccess, query.isPlaceholderData, state.pageNumber, state.pageSize, update]);

  return {
    state,
    update,
    page,
    rowCount,
    // The server names the default sort it applied when the user chose none.
    sort: effectiveSort(state) ?? page?.sortOrder ?? null,
    pending: query.isPending && page === null,
    fetching: query.isFetching,
    refreshFailed: query.isError,
    empty: query.isSuccess && !query.isPlaceholderData && query.data === null,
    setPage: (pageNumber) => update((current) => ({ ...current, pageNumber })),
    setPageSize: (pageSize) => update((current) => ({ ...current, pageSize, pageNumber: 0 })),
    setSort: (sort) => update((current) => applyHeaderSort(current, sort)),
  };
}
