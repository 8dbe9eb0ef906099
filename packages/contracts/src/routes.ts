import type { Role } from './roles.ts';
import { DASHBOARD_ROLES, EXPORT_ROLES, SEARCH_ROLES } from './roles.ts';

/**
 * Who may open a web route (spec §2):
 * - `public`: anyone, logged in or not;
 * - `authenticated`: any logged-in user ("authentication only");
 * - a list of roles: the current role must be in it.
 */
export type RouteAccess = 'public' | 'authenticated' | readonly Role[];

/** Spec §2: these pages load the search-page look; every other page the other-page look. */
export type PageLook = 'search' | 'other';

export interface WebRoute {
  /** React Router pattern. */
  path: string;
  access: RouteAccess;
  look: PageLook;
  title: string;
}

const GOSTAR_ADMIN: readonly Role[] = ['GOSTAR_ADMIN'];

/** Every route of spec §2, in the spec's order. */
export const WEB_ROUTES: readonly WebRoute[] = [
  { path: '/', access: 'authenticated', look: 'search', title: 'Home' },
  { path: '/search', access: SEARCH_ROLES, look: 'search', title: 'Search' },
  { path: '/login', access: 'public', look: 'other', title: 'Log in' },
  { path: '/register', access: 'public', look: 'other', title: 'Register' },
  { path: '/results', access: SEARCH_ROLES, look: 'other', title: 'Results' },
  { path: '/results/:tabid', access: SEARCH_ROLES, look: 'other', title: 'Results' },
  { path: '/new-search-results', access: SEARCH_ROLES, look: 'other', title: 'New search results' },
  { path: '/new-search-results/:tabid', access: SEARCH_ROLES, look: 'other', title: 'New search results' },
  { path: '/sarview', access: EXPORT_ROLES, look: 'other', title: 'SAR view' },
  { path: '/sarview/:tabid', access: SEARCH_ROLES, look: 'other', title: 'SAR view' },
  { path: '/analyzers', access: EXPORT_ROLES, look: 'other', title: 'Analyzers' },
  { path: '/analyzers/:tabid', access: SEARCH_ROLES, look: 'other', title: 'Analyzers' },
  { path: '/export', access: EXPORT_ROLES, look: 'other', title: 'Export' },
  { path: '/export/:tabid', access: EXPORT_ROLES, look: 'other', title: 'Export' },
  { path: '/downloads', access: EXPORT_ROLES, look: 'other', title: 'Downloads' },
  { path: '/downloads/:tabid', access: EXPORT_ROLES, look: 'other', title: 'Downloads' },
  // Before /leaflet/:idType/:id, so that a path is matched to its own entry first.
  { path: '/leaflet/reference/:rid', access: SEARCH_ROLES, look: 'other', title: 'Reference leaflet' },
  { path: '/leaflet/:idType/:id', access: SEARCH_ROLES, look: 'other', title: 'Compound leaflet' },
  { path: '/leafletreference/:sid/:rid', access: SEARCH_ROLES, look: 'other', title: 'Reference leaflet' },
  { path: '/home', access: SEARCH_ROLES, look: 'other', title: 'Home' },
  { path: '/dynamicquery', access: 'authenticated', look: 'other', title: 'Dynamic query' },
  { path: '/admin/trackers', access: ['GOSTAR_ADMIN', 'FLAT_FILE_ADMIN'], look: 'search', title: 'Trackers' },
  { path: '/admin/dashboard', access: GOSTAR_ADMIN, look: 'search', title: 'Admin dashboard' },
  { path: '/admin/client-dashboard', access: 'authenticated', look: 'other', title: 'Client dashboard' },
  { path: '/admin/subscriptions', access: GOSTAR_ADMIN, look: 'search', title: 'Subscriptions' },
  { path: '/dashboard', access: DASHBOARD_ROLES, look: 'other', title: 'Dashboard' },
  { path: '/change-password', access: DASHBOARD_ROLES, look: 'other', title: 'Change password' },
  { path: '/forgot-password', access: 'public', look: 'other', title: 'Forgot password' },
  { path: '/pub/account/verify/:code', access: 'public', look: 'other', title: 'Set your password' },
  // The first super administrator, with the set-up token from the console (setup.ts).
  { path: '/setup', access: 'public', look: 'other', title: 'Set up this server' },
  { path: '/usermanual', access: 'public', look: 'other', title: 'User manual' },
  { path: '/keywords', access: 'public', look: 'other', title: 'Keywords' },
  { path: '/policies', access: 'public', look: 'other', title: 'Policies' },
  { path: '/superadmin', access: ['SUPER_ADMIN'], look: 'other', title: 'Super admin' },
  { path: '/account/mfa', access: 'authenticated', look: 'other', title: 'Two-step login' },
  { path: '/notifications', access: 'authenticated', look: 'other', title: 'Notifications' },
  { path: '/notifications/:id', access: SEARCH_ROLES, look: 'other', title: 'Open an alert' },
  // The workspace (issue 59; docs/workspace.md): collections, saved result sets, history; the sheet.
  { path: '/workspace', access: SEARCH_ROLES, look: 'other', title: 'Workspace' },
  { path: '/workspace/collections/:id', access: SEARCH_ROLES, look: 'other', title: 'Collection' },
  { path: '/workspace/result-sets/:id', access: SEARCH_ROLES, look: 'other', title: 'Saved result set' },
  { path: '/sheet', access: SEARCH_ROLES, look: 'other', title: 'Compound sheet' },
  { path: '/accessdenied', access: 'public', look: 'other', title: 'Page not found' },
];

/** Spec §4: opening one of these without a node token logs the user out. */
export const NODE_TOKEN_PATHS: readonly string[] = ['/search', '/', '/admin/dashboard', '/admin/subscriptions', '/admin/trackers'];

/** Spec §4: the admin pages whose guard looks for an admin role and may redirect to /dashboard. */
export const ADMIN_GUARD_PATHS: readonly string[] = ['/admin/dashboard', '/admin/subscriptions', '/admin/trackers', '/superadmin'];

/**
 * Where a user lands after logging in, by current role. Search roles start searching; each admin
 * its own page; FLAT_FILE_ONLY its datasets; PARTIAL_USER (no search pages in §2) the landing page.
 */
export const LANDING_BY_ROLE: Readonly<Record<Role, string>> = {
  FULL_USER: '/search',
  EVALUATE_USER: '/search',
  DOWNLOAD_EVALUATOR: '/search',
  PARTIAL_USER: '/',
  FLAT_FILE_ONLY: '/dashboard',
  FLAT_FILE_ADMIN: '/admin/trackers',
  GOSTAR_ADMIN: '/admin/dashboard',
  SUPER_ADMIN: '/superadmin',
};

/** Whether a role may open a route of the given access. */
export function roleMayOpen(access: RouteAccess, role: Role | null): boolean {
  if (access === 'public') return true;
  if (role === null) return false;
  if (access === 'authenticated') return true;
  return access.includes(role);
}
