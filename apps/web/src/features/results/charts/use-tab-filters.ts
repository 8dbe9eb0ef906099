import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { resultsEndpoints } from '@kb/contracts/results';
import type { ResultsSession } from '@kb/contracts/results';
import type { AppliedFilter } from '@kb/contracts/search';
import { callApi, errorMessage } from '../../../app/api-client.ts';
import { endpointKey, endpointQuery } from '../../../app/query.ts';
import { useSearchChartsStore } from '../../search/saved/search-charts-store.ts';
import { describeIgnored, flattenTabFilters } from './chart-filters.ts';
import { refreshAfterFilters, sessionInput } from './chart-queries.ts';

const NO_FILTERS: AppliedFilter[] = [];

/**
 * The filters of one tab as the server holds them (`resultsEndpoints.session`, so a reload shows
 * them), and the calls that change them: apply the tab's whole list, or reset every tab.
 * `onChanged` runs after the server took the change (the page refetches its rows and counts).
 */
export function useTabFilters(sessionid: string, tab: ResultTabKey, onChanged: () => void) {
  const client = useQueryClient();
  const session = useQuery(endpointQuery(resultsEndpoints.session, sessionInput(sessionid)));
  const filtersByTab = session.data?.filters;
  const filters = filtersByTab?.[tab] ?? NO_FILTERS;
  const anyFilters = useMemo(() => Object.values(filtersByTab ?? {}).some((list) => list.length > 0), [filtersByTab]);

  // "Save query" keeps the filters of the results the user looked at last.
  const setAppliedFilters = useSearchChartsStore((state) => state.setAppliedFilters);
  useEffect(() => {
    if (filtersByTab) setAppliedFilters(flattenTabFilters(filtersByTab));
  }, [filtersByTab, setAppliedFilters]);

  const apply = useMutation({
    mutationFn: (next: AppliedFilter[]) => callApi(resultsEndpoints.applyFilters, { params: { tab }, body: { sessionid, filters: next } }),
    onSuccess: (answer) => {
      const ignored = describeIgnored(answer.ignored);
      if (ignored)
        notifications.show({
          color: 'yellow',
          autoClose: false,
          title: 'Some values are no longer in these results',
          message: `Left out: ${ignored}`,
        });
      // The answer is the new truth for this tab: show it at once, then refetch what depends on it.
      client.setQueryData<ResultsSession>(endpointKey(resultsEndpoints.session, sessionInput(sessionid)), (old) =>
        old ? { ...old, filters: { ...old.filters, [tab]: answer.filters }, tabCounts: { ...old.tabCounts, [tab]: answer.rowCount } } : old,
      );
      onChanged();
      // Not awaited: the buttons are free again as soon as the server took the filters.
      void refreshAfterFilters(client, sessionid, tab);
    },
    onError: (error) => notifications.show({ color: 'red', title: 'The filters were not applied', message: errorMessage(error) }),
  });

  const resetAll = useMutation({
    mutationFn: () => callApi(resultsEndpoints.resetAllFilters, { body: { sessionid } }),
    onSuccess: (answer) => {
      client.setQueryData<ResultsSession>(endpointKey(resultsEndpoints.session, sessionInput(sessionid)), (old) =>
        old ? { ...old, filters: {}, tabCounts: { ...old.tabCounts, ...answer.tabCounts } } : old,
      );
      onChanged();
      void refreshAfterFilters(client, sessionid);
    },
    onError: (error) => notifications.show({ color: 'red', title: 'The filters were not reset', message: errorMessage(error) }),
  });

  return {
    session,
    filters,
    anyFilters,
    busy: apply.isPending || resetAll.isPending,
    /** Sends the tab's whole filter list (the server replaces it). */
    applyFilters: (next: AppliedFilter[]) =>
      apply.mutateAsync(next).then(
        () => true,
        () => false,
      ),
    resetAll: () =>
      resetAll.mutateAsync().then(
        () => true,
        () => false,
      ),
  };
}
