import { matchPath } from 'react-router';
import type { WebRoute } from '@kb/contracts/routes';
import { WEB_ROUTES } from '@kb/contracts/routes';

/** The WEB_ROUTES entry matching a pathname, or null for an unknown path. */
export function findWebRoute(pathname: string, routes: readonly WebRoute[] = WEB_ROUTES): WebRoute | null {
  return routes.find((route) => matchPath({ path: route.path, end: true }, pathname) !== null) ?? null;
}
