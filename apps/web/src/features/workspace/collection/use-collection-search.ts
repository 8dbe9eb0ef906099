import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { SearchCriteria } from '@kb/contracts/search';
import { errorMessage } from '../../../app/api-client.ts';
import { useConfirm } from '../../../app/ui/confirm-dialog.tsx';
import { setSarRows } from '../../results/toolbar/use-open-sar-view.ts';
import { mayReplaceRows, replaceAndRun } from '../../search/run/replace-and-run.ts';
import { describeSearch } from '../../search/saved/search-summary.ts';

/** Where a collection's search lands: its results, the SAR view or the analyzers of its Structures tab. */
export type CollectionDestination = 'results' | 'sar' | 'analyzers';

const LANDING: Record<CollectionDestination, string> = {
  results: '/results/structuretab',
  sar: '/sarview/structuretab',
  analyzers: '/analyzers/structuretab',
};

/** The search `[In collection X]`, as the builder sends it. */
function collectionCriteria(collection: { id: number; name: string }): SearchCriteria {
  return {
    rows: [
      { selectedOption: 'collection', operator: null, fileName: null, collectionId: collection.id, label: collection.name.slice(0, 500) },
    ],
  };
}

/**
 * Search, SAR view and Analyzers of a collection's page: the search `[In collection X]` runs as any
 * search does (the builder gets its row, the run is the search page's own, so the results, the
 * history and "Run again" know it), then lands on the results, the SAR view of its Structures tab
 * (every row: the SAR view's own limit applies and is told) or the analyzers. Rows the user has not
 * searched or saved are asked about first; a failure is shown where the button is.
 */
export function useCollectionSearch(collection: { id: number; name: string }) {
  const navigate = useNavigate();
  const [running, setRunning] = useState<CollectionDestination | null>(null);
  const [confirm, confirmDialog] = useConfirm();

  const open = async (destination: CollectionDestination) => {
    if (!(await mayReplaceRows(confirm, `Search “${collection.name}”?`))) return;
    const criteria = collectionCriteria(collection);
    setRunning(destination);
    try {
      const outcome = await replaceAndRun(criteria, describeSearch(criteria));
      if (outcome.kind === 'cancelled') return;
      if (outcome.kind === 'failed') {
        notifications.show({ color: 'red', title: 'The collection could not be searched', message: outcome.message, autoClose: false });
        return;
      }
      if (destination === 'sar') await setSarRows(outcome.sessionId, 'structuretab', { selection: null });
      navigate(LANDING[destination]);
    } catch (error) {
      const title = destination === 'sar' ? 'The SAR view could not open this collection' : 'The collection could not be searched';
      notifications.show({ color: 'red', title, message: errorMessage(error), autoClose: false });
    } finally {
      setRunning(null);
    }
  };

  return { open, running, confirmDialog };
}
