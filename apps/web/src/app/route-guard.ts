import type { Role } from '@kb/contracts/roles';
import type { SecondFactorState } from '@kb/contracts/mfa';
import { ADMIN_ROLES } from '@kb/contracts/roles';
import type { WebRoute } from '@kb/contracts/routes';
import { ADMIN_GUARD_PATHS, LANDING_BY_ROLE, NODE_TOKEN_PATHS, WEB_ROUTES, roleMayOpen } from '@kb/contracts/routes';
import type { BrowserSession } from './browser-session.ts';
import { loginUrl } from './navigation.ts';
import { findWebRoute } from './route-match.ts';

/** What the guard reads from the session store. */
export interface GuardSession {
  isLogin: boolean;
  token: string | null;
  nodeToken: string | null;
  currentUserRole: Role | null;
  userRoles: readonly Role[];
  /** Where the session stands on the admin second factor (null or absent: not known, treated as not needed). */
  secondFactor?: SecondFactorState | null;
}

export interface GuardInput {
  /** Pathname of the target, e.g. `/leaflet/structure/42`. */
  pathname: string;
  /** Search part of the target including `?`, kept in the login redirect. */
  search?: string;
  /** The matched WEB_ROUTES entry; null for an unknown path (the not-found page). */
  route: WebRoute | null;
  session: GuardSession;
  browser: BrowserSession;
}

type RedirectReason =
  | 'login-required'
  | 'node-token-missing'
  | 'role-mismatch'
  | 'admin-to-dashboard'
  | 'already-logged-in'
  | 'second-factor';

/** The page where an admin enrols an authenticator or gives the code of the second login step. */
export const SECOND_FACTOR_PATH = '/account/mfa';

/** `/account/mfa?redirect=/admin/dashboard`: after the second step the admin goes on to the page they opened. */
export function secondFactorUrl(target: string): string {
  return `${SECOND_FACTOR_PATH}?${new URLSearchParams({ redirect: target })}`;
}

/** Whether the session still owes the second step (an account with an admin role that has not given its code). */
export function secondFactorPending(session: Pick<GuardSession, 'secondFactor'>): boolean {
  return session.secondFactor === 'code_required' || session.secondFactor === 'enrolment_required';
}

export type GuardDecision =
  | { kind: 'allow' }
  /** Spec §4: the store is empty but the browser flag says logged in; restore, then decide again. */
  | { kind: 'restore'; restore: { token: string; username: string; nodeToken: string | null } }
  /** `signOut`: reset the session and set `isLoginInThisBrowser` to "false" before redirecting. */
  | { kind: 'redirect'; to: string; reason: RedirectReason; signOut?: true };

const DASHBOARD_ACCESS = WEB_ROUTES.find((route) => route.path === '/dashboard')?.access ?? [];

/** The query parameter naming the page a user was turned away from (the denied page and the dashboard say which). */
export const FROM_PARAM = 'from';

/** `/accessdenied?from=/sarview`: the denied page names the page that is not part of the subscription. */
function accessDeniedUrl(pathname: string): string {
  return `/accessdenied?${new URLSearchParams({ [FROM_PARAM]: pathname })}`;
}

/** `/dashboard?from=/admin/subscriptions`: the dashboard says why an administrator landed there. */
function adminDashboardUrl(pathname: string): string {
  return `/dashboard?${new URLSearchParams({ [FROM_PARAM]: pathname })}`;
}

/**
 * The WEB_ROUTES entry a `from` parameter names, or null. Only known pages of this app are named
 * back to the user: the parameter is part of a URL anyone can craft.
 */
export function turnedAwayFrom(from: string | null): WebRoute | null {
  if (!from || !from.startsWith('/') || from.startsWith('//')) return null;
  const route = findWebRoute(from);
  return route && route.access !== 'public' ? route : null;
}

/** Where a role lands after login (and when opening /login while logged in). */
export function landingFor(role: Role | null): string {
  return role === null ? '/' : LANDING_BY_ROLE[role];
}

/** Spec §4: logged in means the store has isLogin and a token. */
function sessionIsLoggedIn(session: Pick<GuardSession, 'isLogin' | 'token'>): boolean {
  return session.isLogin && Boolean(session.token);
}

/**
 * The route guard of spec §4 as a pure decision. The router applies it before every navigation:
 * restore from browser storage, login required, node token required, admin pages, role check.
 */
export function decideRoute(input: GuardInput): GuardDecision {
  const { route, session, browser } = input;
  const loggedIn = sessionIsLoggedIn(session);

  // Protected and unprotected routes alike restore an empty store from the browser flag.
  if (!loggedIn && browser.isLoginInThisBrowser && browser.token) {
    return { kind: 'restore', restore: { token: browser.token, username: browser.email ?? '', nodeToken: browser.nodeToken } };
  }

  if (route === null) return { kind: 'allow' };

  if (route.access === 'public') {
    if (loggedIn && route.path === '/login')
      return { kind: 'redirect', to: landingFor(session.currentUserRole), reason: 'already-logged-in' };
    return { kind: 'allow' };
  }

  if (!loggedIn) return { kind: 'redirect', to: loginUrl(input.pathname + (input.search ?? '')), reason: 'login-required' };

  if (NODE_TOKEN_PATHS.includes(route.path) && !session.nodeToken) {
    return { kind: 'redirect', to: '/login', reason: 'node-token-missing', signOut: true };
  }

  // An admin's session reaches no server call until it passes the second factor (ASVS V2.8):
  // every protected page waits on the page that asks for the code (or sets up the authenticator).
  if (secondFactorPending(session) && route.path !== SECOND_FACTOR_PATH) {
    return { kind: 'redirect', to: secondFactorUrl(input.pathname + (input.search ?? '')), reason: 'second-factor' };
  }

  const role = session.currentUserRole;
  if (ADMIN_GUARD_PATHS.includes(route.path) && !roleMayOpen(route.access, role)) {
    const holdsAdminRole = session.userRoles.some((held) => ADMIN_ROLES.includes(held));
    if (holdsAdminRole && roleMayOpen(DASHBOARD_ACCESS, role))
      return { kind: 'redirect', to: adminDashboardUrl(input.pathname), reason: 'admin-to-dashboard' };
    return { kind: 'redirect', to: accessDeniedUrl(input.pathname), reason: 'role-mismatch' };
  }

  if (!roleMayOpen(route.access, role)) return { kind: 'redirect', to: accessDeniedUrl(input.pathname), reason: 'role-mismatch' };

  return { kind: 'allow' };
}

/**
 * Where to go after login: the `?redirect=` target when it is a path of this app the role may
 * open (never another origin), else the role's landing page.
 */
export function postLoginTarget(redirect: string | null, role: Role | null): string {
  const landing = landingFor(role);
  if (!redirect || !redirect.startsWith('/') || redirect.startsWith('//') || redirect.startsWith('/\\')) return landing;
  const pathname = redirect.split(/[?#]/)[0] ?? '';
  const route = findWebRoute(pathname);
  if (route === null || route.path === '/login' || route.path === '/accessdenied') return landing;
  return roleMayOpen(route.access, role) ? redirect : landing;
}
