import { describe, expect, it } from 'vitest';
import {
  BROWSER_KEYS,
  expireAllCookies,
  readBrowserSession,
  setBrowserLoginFlag,
  writeBrowserLogin,
  writeBrowserTokens,
} from './browser-session.ts';
import { createMemoryStorage } from './stores/memory-storage.ts';

describe('browser session storage', () => {
  it('uses the exact keys token, email, ntoken and isLoginInThisBrowser', () => {
    expect(BROWSER_KEYS).toEqual({ token: 'token', email: 'email', nodeToken: 'ntoken', loggedIn: 'isLoginInThisBrowser' });
  });

  it('writes a login and reads it back with the flag "true"', () => {
    const storage = createMemoryStorage();
    writeBrowserLogin({ token: 'm', email: 'u@demo.test', nodeToken: 'n' }, storage);
    expect(storage.getItem('isLoginInThisBrowser')).toBe('true');
    expect(readBrowserSession(storage)).toEqual({ token: 'm', email: 'u@demo.test', nodeToken: 'n', isLoginInThisBrowser: true });
  });

  it('reads an empty storage as logged out', () => {
    expect(readBrowserSession(createMemoryStorage())).toEqual({ token: null, email: null, nodeToken: null, isLoginInThisBrowser: false });
  });

  it('stores the flag as the strings "true" and "false"', () => {
    const storage = createMemoryStorage();
    setBrowserLoginFlag(false, storage);
    expect(storage.getItem('isLoginInThisBrowser')).toBe('false');
    expect(readBrowserSession(storage).isLoginInThisBrowser).toBe(false);
  });

  it('replaces both tokens after a regeneration and keeps the flag', () => {
    const storage = createMemoryStorage();
    writeBrowserLogin({ token: 'm1', email: 'u@demo.test', nodeToken: 'n1' }, storage);
    writeBrowserTokens({ token: 'm2', nodeToken: 'n2' }, storage);
    expect(readBrowserSession(storage)).toEqual({ token: 'm2', email: 'u@demo.test', nodeToken: 'n2', isLoginInThisBrowser: true });
  });

  it('expires every cookie by name', () => {
    const writes: string[] = [];
    const doc = {
      get cookie() {
        return 'a=1; theme=dark;  sid=xyz';
      },
      set cookie(value: string) {
        writes.push(value);
      },
    };
    expect(expireAllCookies(doc)).toEqual(['a', 'theme', 'sid']);
    expect(writes).toEqual([
      'a=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/',
      'theme=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/',
      'sid=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/',
    ]);
  });
});
