import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { resultsEndpoints } from '@kb/contracts/results';
import type { ResultsSession } from '@kb/contracts/results';
import { callApi, errorMessage } from '../../../app/api-client.ts';
import { useSearchChartsStore } from '../../search/saved/search-charts-store.ts';
import { describeIgnored, savedFiltersByTab } from './chart-filters.ts';
import { refreshAfterFilters } from './chart-queries.ts';

/**
 * Spec §4: the filters of an opened saved query apply to the first results session opened after
 * it, if that session has no filters of its own yet; once, then they leave the store. Filters
 * without a tab apply to Activities.
 */
export function useSavedFilters(session: ResultsSession | undefined, onChanged: () => void): void {
  const client = useQueryClient();
  const hasPending = useSearchChartsStore((state) => state.pendingFilters.length > 0);
  const started = useRef(false);
  const changed = useRef(onChanged);
  useEffect(() => {
    changed.current = onChanged;
  }, [onChanged]);

  useEffect(() => {
    if (!session || !hasPending || started.current) return;
    // Filters on the server win: this is an older search the user came back to.
    if (Object.values(session.filters).some((list) => list.length > 0)) return;
    started.current = true;
    const byTab = savedFiltersByTab(useSearchChartsStore.getState().takePendingFilters());
    if (byTab.size === 0) return;
    const sessionid = session.sessionid;
    void (async () => {
      try {
        const ignored: string[] = [];
        // One tab after the other: each call replaces that tab's list and recounts it.
        for (const [tab, filters] of byTab) {
          const answer = await callApi(resultsEndpoints.applyFilters, { params: { tab }, body: { sessionid, filters } });
          const text = describeIgnored(answer.ignored);
          if (text) ignored.push(text);
        }
        if (ignored.length > 0)
          notifications.show({
            color: 'yellow',
            autoClose: false,
            title: 'Some saved filter values are not in these results',
            message: `Left out: ${ignored.join('; ')}`,
          });
      } catch (error) {
        notifications.show({ color: 'red', title: 'The saved query’s filters were not applied', message: errorMessage(error) });
      } finally {
        changed.current();
        await refreshAfterFilters(client, sessionid);
      }
    })();
  }, [session, hasPending, client]);
}
