import { deriveProfileAccess } from '@kb/contracts/access';
import { authEndpoints, dashboardEndpoints } from '@kb/contracts/api';
import type { LoginRequest } from '@kb/contracts/auth';
import { PRODUCT_SLUG } from '@kb/contracts/auth';
import { ERROR_CODES } from '@kb/contracts/errors';
import { ApiRequestError, callApi, endSessionLocally, secondFactorNeedOf } from '../../app/api-client.ts';
import { secondFactorPending } from '../../app/route-guard.ts';
import { writeBrowserLogin, writeBrowserTokens } from '../../app/browser-session.ts';
import { useSessionStore } from '../../app/stores/session-store.ts';
import { resetAllStores } from '../../app/stores/store-registry.ts';
import { readTokenRoles } from '../../app/token-claims.ts';
import { countNoun } from '../../app/format/plural.ts';

/** Spec §4/§8 login errors: 403 returns the server message, 429 a rate-limit text with the wait. */
export function loginErrorMessage(error: unknown): string {
  if (error instanceof ApiRequestError) {
    if (error.status === 429) {
      const wait = error.retryAfterSeconds;
      if (wait === undefined) return 'Too many login attempts. Please wait a moment and try again.';
      return `Too many login attempts. Try again in ${formatWait(wait)}.`;
    }
    if (error.status === 403) return error.message;
    if (error.status === 0 && error.code === 'NETWORK') return 'The server cannot be reached. Check your connection and try again.';
    return error.message;
  }
  return 'Login failed. Please try again.';
}

/** "45 seconds", "1 minute", "3 minutes". */
export function formatWait(seconds: number): string {
  if (seconds < 60) return countNoun(seconds, 'second');
  const minutes = Math.ceil(seconds / 60);
  return countNoun(minutes, 'minute');
}

/** Whether an error is the server's "give the second factor first" (MFA_REQUIRED / MFA_ENROLMENT_REQUIRED). */
function secondFactorRefusal(error: unknown): boolean {
  return error instanceof ApiRequestError && secondFactorNeedOf(error.status, error.code) !== null;
}

/**
 * Loads the profile and confirms the login, filling the session store. Used by the login flow
 * (after the second step for an admin) and after a restore from browser storage (which carries
 * tokens but no roles). A restored admin session that still owes the second step reads no profile
 * (the server refuses it): it is kept as a pending login, which the route guard sends to the code page.
 */
async function loadSession(tokenRolesFrom: string, fallbackUsername: string): Promise<void> {
  const tokenRoles = readTokenRoles(tokenRolesFrom);
  let profile;
  try {
    profile = await callApi(authEndpoints.profile, {});
  } catch (error) {
    // Spec §8: a profile load failing with 500 keeps the user mail from the given id.
    if (error instanceof ApiRequestError && error.status === 500) useSessionStore.getState().setUsername(fallbackUsername);
    if (secondFactorRefusal(error)) {
      const result = await callApi(authEndpoints.webApiLogin, {});
      useSessionStore.getState().completePendingLogin({ result, tokenRoles });
      writeBrowserLogin({ token: result.token, email: result.username, nodeToken: result.nodeToken });
      return;
    }
    throw error;
  }
  const access = deriveProfileAccess(profile);
  if (access.currentRole === null && tokenRoles.length === 0) {
    throw new ApiRequestError({ status: 403, code: ERROR_CODES.subscriptionInactive, message: 'Your account has no active subscription.' });
  }
  const result = await callApi(authEndpoints.webApiLogin, {});
  useSessionStore.getState().completeLogin({ result, profile, access, tokenRoles });
  writeBrowserLogin({ token: result.token, email: result.username, nodeToken: result.nodeToken });
}

/**
 * Spec §4 login: generate token → roles from the token → profile → webapilogin → store and browser.
 * An account with an admin role answers `code_required` or `enrolment_required`: its session reaches
 * nothing else until the second step, so the login stops here and the login page asks for the code
 * (or sets up the authenticator), then calls `finishLogin`.
 */
export async function logIn(credentials: LoginRequest): Promise<void> {
  const result = await callApi(authEndpoints.generateToken, { params: { product: PRODUCT_SLUG }, body: credentials });
  useSessionStore.getState().acceptTokens(result);
  if (secondFactorPending(result)) return;
  await finishLogin();
}

/** The rest of the login once the password (and, for an admin, the second step) is accepted. */
export async function finishLogin(): Promise<void> {
  const { token, username } = useSessionStore.getState();
  try {
    if (!token) throw new Error('No token to finish the login with.');
    await loadSession(token, username ?? '');
  } catch (error) {
    // Spec §4: any failure after the token was issued logs out.
    resetAllStores();
    throw error;
  }
}

/** After a restore from browser storage: re-fetch the profile to rebuild roles. */
export async function rebuildRestoredSession(): Promise<void> {
  const { token, username } = useSessionStore.getState();
  if (!token) throw new Error('No token to restore.');
  await loadSession(token, username ?? '');
}

/** Spec §4: fresh tokens for the current session before the old ones expire. */
export async function regenerateTokens(): Promise<void> {
  const result = await callApi(authEndpoints.regenerateToken, { params: { product: PRODUCT_SLUG } });
  useSessionStore.getState().acceptTokens(result);
  writeBrowserTokens({ token: result.token, nodeToken: result.nodeToken });
}

/** Spec §4 logout: close the session on the server, then clear storage and cookies, reset stores, go to /login. */
export async function logOut(): Promise<void> {
  const { userId, sessionId } = useSessionStore.getState();
  if (userId !== null && sessionId !== null) {
    try {
      await callApi(dashboardEndpoints.logout, { body: { user_id: userId, sessionid: sessionId } });
    } catch {
      // The local logout must happen even when the server cannot be reached.
    }
  }
  endSessionLocally();
}

/** Spec §4 idle: close the session (failure ignored), reset everything, go to /login with a notice. */
export async function logOutIdle(): Promise<void> {
  try {
    await callApi(authEndpoints.closeSession, { body: { reason: 'idle' } });
  } catch {
    // The session may already be closed on the server; the local logout still happens.
  }
  endSessionLocally('You were logged out after 30 minutes without activity.');
}
