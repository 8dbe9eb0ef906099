import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { errorMessage } from '../../../app/api-client.ts';
import { queryClient } from '../../../app/query.ts';
import { useResultsStore } from '../results-store.ts';
import { columnsQuery } from '../results-queries.ts';
import type { ShownColumn } from './result-columns.ts';
import { shownColumns } from './result-columns.ts';

/**
 * The columns of a tab as shown now: the server's metadata (`resetAllFlag` false), the user's
 * choices of this tab, and the similarity column while a similarity sort is on or the search scored
 * its structures (a similarity search).
 */
export function useTabColumns(tab: ResultTabKey, similarityOn: boolean, searchScored: boolean) {
  const query = useQuery(columnsQuery(false));
  const choices = useResultsStore((state) => state.columnChoices[tab]);
  const setColumnVisible = useResultsStore((state) => state.setColumnVisible);
  const [resetting, setResetting] = useState(false);

  const metadata = query.data?.tabs.find((entry) => entry.tab === tab)?.columns;
  const columns: ShownColumn[] = useMemo(
    () => (metadata ? shownColumns(metadata, choices, similarityOn, searchScored) : []),
    [metadata, choices, similarityOn, searchScored],
  );

  /** "Reset columns": the server's defaults again (`resetAllFlag` true), the user's choices dropped. */
  const reset = async () => {
    setResetting(true);
    try {
      const fresh = await queryClient.fetchQuery({ ...columnsQuery(true), staleTime: 0 });
      queryClient.setQueryData(columnsQuery(false).queryKey, fresh);
      useResultsStore.getState().resetColumnChoices();
    } catch (error) {
      notifications.show({ color: 'red', title: 'Columns could not be reset', message: errorMessage(error) });
    } finally {
      setResetting(false);
    }
  };

  return {
    columns,
    pending: query.isPending,
    error: query.isError ? query.error : null,
    retry: () => void query.refetch(),
    toggle: (key: string, visible: boolean) => setColumnVisible(tab, key, visible),
    reset,
    resetting,
  };
}
