import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { errorMessage } from '../../../app/api-client.ts';
import { RESULTS_BASE } from '../../results/selection/use-selection-actions.ts';
import type { RestoreRequest, RestoreStep, RestoredSearch } from './restore-search.ts';
import { restoreSearch } from './restore-search.ts';

/** What each step of a restore says while it runs. */
export const RESTORE_STEP_TEXT: Record<RestoreStep, string> = {
  search: 'Running the search again…',
  filters: 'Applying the saved chart filters…',
  view: 'Putting back the columns, sort and selection…',
};

/**
 * Runs a restore and opens the results on `tab`; `before` sees the outcome first (a saved set
 * compares its counts). Saved filter values no longer in the results are said, not dropped silently.
 */
export function useRestore() {
  const navigate = useNavigate();
  const [step, setStep] = useState<RestoreStep | null>(null);
  const [error, setError] = useState<string | null>(null);

  /** `to`: where to go once restored (default: the results on `tab`). */
  const restore = async (
    request: RestoreRequest,
    tab: ResultTabKey,
    before?: (restored: RestoredSearch) => void,
    to?: (restored: RestoredSearch) => string,
  ): Promise<boolean> => {
    setError(null);
    try {
      const restored = await restoreSearch(request, setStep);
      before?.(restored);
      if (restored.ignored)
        notifications.show({
          color: 'yellow',
          autoClose: false,
          title: 'Some saved filter values are not in these results',
          message: `Left out: ${restored.ignored}`,
        });
      navigate(to ? to(restored) : `${RESULTS_BASE[restored.scope]}/${tab}`);
      return true;
    } catch (failure) {
      setError(errorMessage(failure));
      return false;
    } finally {
      setStep(null);
    }
  };
  return { restore, step, error };
}
