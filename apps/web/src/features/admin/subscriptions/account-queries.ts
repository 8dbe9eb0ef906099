import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { AdminUser } from '@kb/contracts/admin-accounts';
import { adminAccountEndpoints } from '@kb/contracts/admin-accounts';
import { endpointKey } from '../../../app/query.ts';

/** The query of one user, as the drawer reads it. */
export const userInput = (userId: number) => ({ params: { userId } });

/**
 * After a change: the answer becomes the user's cached state at once, and every list that counts
 * users, credits or end dates (users, organisations, the user's ledger) is fetched again.
 */
export function useRefreshAccounts(): (user?: AdminUser) => void {
  const queryClient = useQueryClient();
  return useCallback(
    (user?: AdminUser) => {
      if (user) queryClient.setQueryData(endpointKey(adminAccountEndpoints.user, userInput(user.userId)), user);
      else void queryClient.invalidateQueries({ queryKey: endpointKey(adminAccountEndpoints.user) });
      void queryClient.invalidateQueries({ queryKey: endpointKey(adminAccountEndpoints.users) });
      void queryClient.invalidateQueries({ queryKey: endpointKey(adminAccountEndpoints.organisations) });
      void queryClient.invalidateQueries({ queryKey: endpointKey(adminAccountEndpoints.credits) });
    },
    [queryClient],
  );
}
