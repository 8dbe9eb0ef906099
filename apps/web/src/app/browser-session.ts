import { localStore, sessionStore } from './stores/memory-storage.ts';

/** Spec §3 "Session values in browser storage": the exact localStorage keys. */
export const BROWSER_KEYS = {
  token: 'token',
  email: 'email',
  nodeToken: 'ntoken',
  loggedIn: 'isLoginInThisBrowser',
} as const;

export interface BrowserSession {
  token: string | null;
  email: string | null;
  nodeToken: string | null;
  /** The `isLoginInThisBrowser` flag ("true"/"false"). */
  isLoginInThisBrowser: boolean;
}

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function readBrowserSession(storage: KeyValueStorage = localStore()): BrowserSession {
  return {
    token: storage.getItem(BROWSER_KEYS.token),
    email: storage.getItem(BROWSER_KEYS.email),
    nodeToken: storage.getItem(BROWSER_KEYS.nodeToken),
    isLoginInThisBrowser: storage.getItem(BROWSER_KEYS.loggedIn) === 'true',
  };
}

/** Records a login in this browser so that other tabs (fresh sessionStorage) can restore it. */
export function writeBrowserLogin(
  values: { token: string; email: string; nodeToken: string },
  storage: KeyValueStorage = localStore(),
): void {
  storage.setItem(BROWSER_KEYS.token, values.token);
  storage.setItem(BROWSER_KEYS.email, values.email);
  storage.setItem(BROWSER_KEYS.nodeToken, values.nodeToken);
  storage.setItem(BROWSER_KEYS.loggedIn, 'true');
}

/** Updates the stored tokens after a regeneration, keeping the flag. */
export function writeBrowserTokens(values: { token: string; nodeToken: string }, storage: KeyValueStorage = localStore()): void {
  storage.setItem(BROWSER_KEYS.token, values.token);
  storage.setItem(BROWSER_KEYS.nodeToken, values.nodeToken);
}

export function setBrowserLoginFlag(loggedIn: boolean, storage: KeyValueStorage = localStore()): void {
  storage.setItem(BROWSER_KEYS.loggedIn, loggedIn ? 'true' : 'false');
}

/** Expires every cookie visible to the page (spec §4: logout clears cookies). */
export function expireAllCookies(doc: { cookie: string }): string[] {
  const names = doc.cookie
    .split(';')
    .map((part) => part.split('=')[0]?.trim() ?? '')
    .filter((name) => name.length > 0);
  for (const name of names) {
    doc.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
  return names;
}

/** Clears localStorage, sessionStorage and cookies; the login flag is left at "false". */
export function clearBrowserState(): void {
  localStore().clear();
  sessionStore().clear();
  if (typeof document !== 'undefined') expireAllCookies(document);
  setBrowserLoginFlag(false);
}
