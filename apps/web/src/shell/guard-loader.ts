import { redirect } from 'react-router';
import type { WebRoute } from '@kb/contracts/routes';
import { rebuildRestoredSession } from '../features/auth/auth-service.ts';
import { readBrowserSession, setBrowserLoginFlag } from '../app/browser-session.ts';
import { decideRoute } from '../app/route-guard.ts';
import { useSessionStore } from '../app/stores/session-store.ts';
import { resetAllStores } from '../app/stores/store-registry.ts';

/**
 * Applies the pure guard before a route renders: redirects, or restores the session from
 * browser storage, re-fetches the profile to rebuild roles, and decides again.
 */
async function runGuard(route: WebRoute | null, url: URL): Promise<Response | null> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const decision = decideRoute({
      pathname: url.pathname,
      search: url.search,
      route,
      session: useSessionStore.getState(),
      browser: readBrowserSession(),
    });
    if (decision.kind === 'allow') return null;
    if (decision.kind === 'redirect') {
      if (decision.signOut) {
        resetAllStores();
        setBrowserLoginFlag(false);
      }
      return redirect(decision.to);
    }
    useSessionStore.getState().restoreFromBrowser(decision.restore);
    try {
      await rebuildRestoredSession();
    } catch {
      // The stored session is no longer valid: forget it and decide as a logged-out visitor.
      resetAllStores();
      setBrowserLoginFlag(false);
    }
  }
  return null;
}

/** A route loader running the guard for one WEB_ROUTES entry (null: the not-found route). */
export function guardLoader(route: WebRoute | null) {
  return async ({ request }: { request: Request }) => {
    const response = await runGuard(route, new URL(request.url));
    if (response) throw response;
    return null;
  };
}
