import { useEffect } from 'react';
import { usageEndpoints } from '@kb/contracts/api';
import type { PendoDetails } from '@kb/contracts/admin-usage';
import { callApi } from './api-client.ts';
import { isLoggedIn, useSessionStore } from './stores/session-store.ts';

/** The part of the Pendo agent the app calls (the standard snippet queues these until the agent loads). */
interface PendoAgent {
  initialize(options: { visitor: { id: string }; account?: { id: string } }): void;
  identify(options: { visitor: { id: string }; account?: { id: string } }): void;
  _q?: unknown[][];
}

declare global {
  interface Window {
    pendo?: PendoAgent;
  }
}

type Enabled = Extract<PendoDetails, { enabled: true }>;

const identity = (details: Enabled) => ({
  visitor: { id: details.visitorId },
  ...(details.accountId === null ? {} : { account: { id: details.accountId } }),
});

/**
 * Pendo's install snippet, written out: a stub that queues calls, then the agent script from the
 * configured host (the server's Content-Security-Policy allows that host only when analytics is
 * on). Loaded once; a later login only names the new visitor.
 */
export function loadPendo(details: Enabled, doc: Document = document, win: Window = window): void {
  if (win.pendo && !win.pendo._q) {
    win.pendo.identify(identity(details));
    return;
  }
  if (!win.pendo) {
    const queue: unknown[][] = [];
    const stub = { _q: queue } as unknown as PendoAgent & Record<string, unknown>;
    for (const method of ['initialize', 'identify', 'updateOptions', 'pageLoad', 'track']) {
      stub[method] = (...args: unknown[]) => {
        if (method === 'initialize') queue.unshift([method, ...args]);
        else queue.push([method, ...args]);
      };
    }
    win.pendo = stub;
    const script = doc.createElement('script');
    script.async = true;
    script.src = details.agentUrl;
    doc.head.appendChild(script);
    win.pendo.initialize(identity(details));
    return;
  }
  win.pendo.identify(identity(details));
}

/**
 * After login, reads the product-analytics settings (spec §7 pendodetails) and loads the agent when
 * they are on; when off (the default) nothing is loaded. A failure to read them is ignored: analytics
 * must never get in the way of the app.
 */
export function usePendo(): void {
  const username = useSessionStore((state) => (isLoggedIn(state) ? state.username : null));
  useEffect(() => {
    if (!username) return undefined;
    const abort = new AbortController();
    callApi(usageEndpoints.pendoDetails, {}, { signal: abort.signal })
      .then((details) => {
        if (details.enabled) loadPendo(details);
      })
      .catch(() => undefined);
    return () => abort.abort();
  }, [username]);
}
