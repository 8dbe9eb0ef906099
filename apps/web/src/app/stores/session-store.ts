import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { ProfileAccess } from '@kb/contracts/access';
import type { LoginResult, UserProfile } from '@kb/contracts/auth';
import type { Role } from '@kb/contracts/roles';
import type { SecondFactorState } from '@kb/contracts/mfa';
import { sessionStore } from './memory-storage.ts';
import { registerStoreReset } from './store-registry.ts';

/** Spec §3 "The session store holds userRoles, currentUserRole, isLogin, token, nodeToken, jwtokenForNodeAPI, username". */
export interface SessionValues {
  userRoles: Role[];
  currentUserRole: Role | null;
  isLogin: boolean;
  /** Main-API token (sent as JavaAuthorization). */
  token: string | null;
  /** Node-API token (sent as Authorization). */
  nodeToken: string | null;
  /** The node token as the Node API reads it; kept under the spec's name. */
  jwtokenForNodeAPI: string | null;
  username: string | null;
  userId: number | null;
  userHashId: string | null;
  /** Server-side login session id. */
  sessionId: string | null;
  profile: UserProfile | null;
  access: ProfileAccess | null;
  tokenExpiresAt: string | null;
  /** Admin roles: where this session stands on the second factor (null until the login answers). */
  secondFactor: SecondFactorState | null;
}

interface SessionActions {
  /** Holds the tokens of a fresh login so that the next calls of the login flow carry them. */
  acceptTokens: (result: LoginResult) => void;
  /** Completes the login: profile, roles and the confirmed login result. */
  completeLogin: (input: { result: LoginResult; profile: UserProfile; access: ProfileAccess; tokenRoles: Role[] }) => void;
  /**
   * A restored admin session that still owes the second step: logged in with the token's roles and
   * no profile (the server answers none before the code); `finishLogin` completes it after the step.
   */
  completePendingLogin: (input: { result: LoginResult; tokenRoles: Role[] }) => void;
  /** Spec §4: an empty store restored from the browser flag; roles follow once the profile is fetched. */
  restoreFromBrowser: (values: { token: string; username: string; nodeToken: string | null }) => void;
  setUsername: (username: string) => void;
  setCurrentRole: (role: Role) => void;
  /** The session passed the second factor (enrolment confirmed or a code accepted). */
  passSecondFactor: () => void;
  reset: () => void;
}

export type SessionState = SessionValues & SessionActions;

export const INITIAL_SESSION: SessionValues = {
  userRoles: [],
  currentUserRole: null,
  isLogin: false,
  token: null,
  nodeToken: null,
  jwtokenForNodeAPI: null,
  username: null,
  userId: null,
  userHashId: null,
  sessionId: null,
  profile: null,
  access: null,
  tokenExpiresAt: null,
  secondFactor: null,
};

/**
 * Roles of the session: the profile's recognised roles (spec §6), narrowed to those the token
 * grants when the token names any, so the client never offers a role the server will refuse.
 */
export function sessionRoles(access: ProfileAccess, tokenRoles: Role[]): { roles: Role[]; current: Role | null } {
  const granted = tokenRoles.length > 0 ? access.roles.filter((role) => tokenRoles.includes(role)) : access.roles;
  const roles = granted.length > 0 ? granted : tokenRoles;
  const current = access.currentRole !== null && roles.includes(access.currentRole) ? access.currentRole : (roles.at(-1) ?? null);
  return { roles, current };
}

/** What a login answer puts in the store: the tokens, who and which session, the second-factor state. */
function tokenValues(result: LoginResult): Partial<SessionValues> {
  return {
    token: result.token,
    nodeToken: result.nodeToken,
    jwtokenForNodeAPI: result.nodeToken,
    username: result.username,
    userId: result.id,
    userHashId: result.userHashId,
    sessionId: result.sessionId,
    tokenExpiresAt: result.tokenExpiresAt,
    secondFactor: result.secondFactor,
  };
}

export const useSessionStore = create<SessionState>()(
  persist(
    (set, get) => ({
      ...INITIAL_SESSION,
      acceptTokens: (result) => set(tokenValues(result)),
      completeLogin: ({ result, profile, access, tokenRoles }) => {
        const { roles, current } = sessionRoles(access, tokenRoles);
        set({ ...INITIAL_SESSION, ...tokenValues(result), isLogin: true, profile, access, userRoles: roles, currentUserRole: current });
      },
      completePendingLogin: ({ result, tokenRoles }) =>
        set({
          ...INITIAL_SESSION,
          ...tokenValues(result),
          isLogin: true,
          userRoles: tokenRoles,
          currentUserRole: tokenRoles.at(-1) ?? null,
        }),
      restoreFromBrowser: ({ token, username, nodeToken }) =>
        set({ ...INITIAL_SESSION, isLogin: true, token, username, nodeToken, jwtokenForNodeAPI: nodeToken }),
      setUsername: (username) => set({ username }),
      setCurrentRole: (role) => {
        if (get().userRoles.includes(role)) set({ currentUserRole: role });
      },
      passSecondFactor: () => set({ secondFactor: 'passed' }),
      reset: () => set({ ...INITIAL_SESSION }),
    }),
    {
      name: 'kb-session',
      storage: createJSONStorage(() => sessionStore()),
      partialize: (state): SessionValues => {
        const {
          acceptTokens: _a,
          completeLogin: _c,
          completePendingLogin: _cp,
          restoreFromBrowser: _r,
          setUsername: _u,
          setCurrentRole: _s,
          passSecondFactor: _p,
          reset: _x,
          ...values
        } = state;
        return values;
      },
    },
  ),
);

registerStoreReset(() => useSessionStore.getState().reset());

/** True when the store says logged in (spec §4: isLogin and a token). */
export function isLoggedIn(state: Pick<SessionValues, 'isLogin' | 'token'>): boolean {
  return state.isLogin && Boolean(state.token);
}
