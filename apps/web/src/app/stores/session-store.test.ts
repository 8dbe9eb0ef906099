import { beforeEach, describe, expect, it } from 'vitest';
import { deriveProfileAccess } from '@kb/contracts/access';
import type { LoginResult, UserProfile } from '@kb/contracts/auth';
import { useSearchSessionStore } from './search-session-store.ts';
import { INITIAL_SESSION, isLoggedIn, sessionRoles, useSessionStore } from './session-store.ts';
import { registerStoreReset, resetAllStores } from './store-registry.ts';

const future = new Date(Date.now() + 90 * 86_400_000).toISOString();
const past = new Date(Date.now() - 86_400_000).toISOString();

const profile: UserProfile = {
  userId: 7,
  userName: 'multi@demo.test',
  firstName: 'Multi',
  lastName: 'Role',
  isNewUser: false,
  notificationsCount: 0,
  subscriptionDetailsList: [
    { roleName: 'FULL_USER', endDate: future, contractId: 'C1', havingFlatFileAccess: false },
    { roleName: 'GOSTAR_ADMIN', endDate: future, contractId: 'C2', havingFlatFileAccess: false },
    { roleName: 'SUPER_ADMIN', endDate: past, contractId: 'C3', havingFlatFileAccess: false },
  ],
};

const result: LoginResult = {
  id: 7,
  username: 'multi@demo.test',
  token: 'main',
  userHashId: 'hash',
  applicationDiff: 'kb-1',
  nodeToken: 'node',
  sessionId: 'sess',
  tokenExpiresAt: future,
  secondFactor: 'not_required',
};

describe('session store', () => {
  beforeEach(() => resetAllStores());

  it('starts logged out', () => {
    expect(useSessionStore.getState()).toMatchObject(INITIAL_SESSION);
    expect(isLoggedIn(useSessionStore.getState())).toBe(false);
  });

  it('completes a login with the roles of the profile, the last recognised one current', () => {
    const access = deriveProfileAccess(profile);
    useSessionStore.getState().completeLogin({ result, profile, access, tokenRoles: ['FULL_USER', 'GOSTAR_ADMIN'] });
    const state = useSessionStore.getState();
    expect(state).toMatchObject({
      isLogin: true,
      token: 'main',
      nodeToken: 'node',
      jwtokenForNodeAPI: 'node',
      username: 'multi@demo.test',
      userId: 7,
      sessionId: 'sess',
    });
    expect(state.userRoles).toEqual(['FULL_USER', 'GOSTAR_ADMIN']);
    expect(state.currentUserRole).toBe('GOSTAR_ADMIN');
    expect(isLoggedIn(state)).toBe(true);
  });

  it('switches only to a role the user holds', () => {
    useSessionStore.getState().completeLogin({ result, profile, access: deriveProfileAccess(profile), tokenRoles: [] });
    useSessionStore.getState().setCurrentRole('FULL_USER');
    expect(useSessionStore.getState().currentUserRole).toBe('FULL_USER');
    useSessionStore.getState().setCurrentRole('SUPER_ADMIN');
    expect(useSessionStore.getState().currentUserRole).toBe('FULL_USER');
  });

  it('restores tokens and e-mail from the browser as logged in without roles', () => {
    useSessionStore.getState().restoreFromBrowser({ token: 't', username: 'u@demo.test', nodeToken: 'n' });
    expect(useSessionStore.getState()).toMatchObject({
      isLogin: true,
      token: 't',
      username: 'u@demo.test',
      nodeToken: 'n',
      userRoles: [],
      currentUserRole: null,
    });
  });

  it('resets every registered store at once', () => {
    let custom = 'dirty';
    registerStoreReset(() => {
      custom = 'clean';
    });
    useSessionStore.getState().acceptTokens(result);
    useSearchSessionStore.getState().setSearchSessionId('search-1');
    resetAllStores();
    expect(useSessionStore.getState()).toMatchObject(INITIAL_SESSION);
    expect(useSearchSessionStore.getState().searchSessionId).toBeNull();
    expect(custom).toBe('clean');
  });
});

describe('session roles', () => {
  it('narrows the profile roles to those the token grants', () => {
    const access = deriveProfileAccess(profile);
    expect(sessionRoles(access, ['FULL_USER'])).toEqual({ roles: ['FULL_USER'], current: 'FULL_USER' });
  });

  it('uses the token roles when the profile has none recognised', () => {
    const access = deriveProfileAccess({ subscriptionDetailsList: [] });
    expect(sessionRoles(access, ['SUPER_ADMIN'])).toEqual({ roles: ['SUPER_ADMIN'], current: 'SUPER_ADMIN' });
  });
});
