import type { Role } from '@kb/contracts/roles';
import { ADMIN_ROLES } from '@kb/contracts/roles';
import type { PageLook, WebRoute } from '@kb/contracts/routes';
import { ADMIN_GUARD_PATHS, LANDING_BY_ROLE, WEB_ROUTES, roleMayOpen } from '@kb/contracts/routes';

/** Values for the parameters of WEB_ROUTES patterns, so that every route can be opened. */
const PARAM_VALUES: Readonly<Record<string, string>> = {
  tabid: 'structuretab',
  idType: 'structure',
  id: '1',
  sid: '1',
  rid: '1',
  code: 'abc',
};

/** `data-page` of the not-found page (unknown paths). */
export const NOT_FOUND_PAGE = 'not-found';

/** `data-page` of the access-denied page (/accessdenied: a page the role may not open). */
export const ACCESS_DENIED_PAGE = 'access-denied';

/** A route with its parameters filled in. */
export interface ConcreteRoute {
  route: WebRoute;
  /** The URL path to open, e.g. `/leaflet/structure/1`. */
  url: string;
}

/** What a test expects to see after opening a URL. */
export interface Landing {
  pathname: string;
  /** `data-page` of the page root. */
  dataPage: string;
  /** `data-look` of the layout root; null when the contract does not fix it (unknown paths). */
  look: PageLook | null;
  /** Expected `?redirect=` of the login page; undefined when not checked, null when absent. */
  redirect?: string | null;
  /** How the rules got here, for test names and failure messages. */
  reason: string;
}

export function fillParams(pattern: string): string {
  return pattern.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = PARAM_VALUES[name];
    if (value === undefined) throw new Error(`No test value for the route parameter :${name} of ${pattern}.`);
    return value;
  });
}

/** Every route of WEB_ROUTES, opened with the test parameter values. */
export function concreteRoutes(): ConcreteRoute[] {
  return WEB_ROUTES.map((route) => ({ route, url: fillParams(route.path) }));
}

function routeAt(pattern: string): WebRoute {
  const route = WEB_ROUTES.find((r) => r.path === pattern);
  if (!route) throw new Error(`WEB_ROUTES has no route ${pattern}.`);
  return route;
}

/** Showing a route as it is: its pattern as `data-page` (the access-denied page's own for /accessdenied) and its look. */
export function landingOn(route: WebRoute, url: string, reason: string): Landing {
  return {
    pathname: url,
    dataPage: route.path === '/accessdenied' ? ACCESS_DENIED_PAGE : route.path,
    look: route.look,
    reason,
  };
}

/** The landing page of a role after login, or when it opens /login while logged in. */
export function roleLanding(role: Role, reason = `the landing page of ${role}`): Landing {
  const pattern = LANDING_BY_ROLE[role];
  return landingOn(routeAt(pattern), fillParams(pattern), reason);
}

const ACCESS_DENIED = (): Landing => landingOn(routeAt('/accessdenied'), '/accessdenied', 'access denied');

/**
 * Where a user lands when opening `target`, by the rules of spec §2 and §4 as the contracts state
 * them. `role` null means logged out.
 */
export function expectedLanding(target: ConcreteRoute, role: Role | null): Landing {
  const { route, url } = target;
  if (role === null) {
    if (route.access === 'public') return landingOn(route, url, 'public page');
    // The login URL carries the wanted path back, except for the root where the landing page is the same thing.
    return { ...landingOn(routeAt('/login'), '/login', 'login required'), redirect: url === '/' ? null : url };
  }
  if (route.access === 'public') {
    if (route.path === '/login') return roleLanding(role, 'already logged in');
    return landingOn(route, url, 'public page');
  }
  if (roleMayOpen(route.access, role)) {
    return landingOn(route, url, route.access === 'authenticated' ? 'any logged-in user' : 'role allowed');
  }
  if (ADMIN_GUARD_PATHS.includes(route.path) && ADMIN_ROLES.includes(role)) {
    const dashboard = routeAt('/dashboard');
    if (roleMayOpen(dashboard.access, role)) return landingOn(dashboard, '/dashboard', 'admin guard sends admins to the dashboard');
    return { ...ACCESS_DENIED(), reason: 'admin guard, no dashboard for this role' };
  }
  return { ...ACCESS_DENIED(), reason: 'role not allowed' };
}

/** Short description of the outcome for a test name: "stays", "goes to /accessdenied", ... */
export function describeLanding(target: ConcreteRoute, landing: Landing): string {
  if (landing.pathname === target.url) return `stays on ${target.url} (${landing.reason})`;
  return `is sent to ${landing.pathname} (${landing.reason})`;
}
