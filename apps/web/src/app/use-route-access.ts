import { useCallback } from 'react';
import { WEB_ROUTES, roleMayOpen } from '@kb/contracts/routes';
import { isLoggedIn, useSessionStore } from './stores/session-store.ts';

/** Whether the current user may open a WEB_ROUTES path pattern (public pages always). */
export function useMayOpen(): (path: string) => boolean {
  const role = useSessionStore((state) => state.currentUserRole);
  const loggedIn = useSessionStore(isLoggedIn);
  return useCallback(
    (path: string) => {
      const route = WEB_ROUTES.find((candidate) => candidate.path === path);
      if (!route) return false;
      if (route.access === 'public') return true;
      return loggedIn && roleMayOpen(route.access, role);
    },
    [role, loggedIn],
  );
}
