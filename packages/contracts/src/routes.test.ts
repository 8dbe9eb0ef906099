import { describe, expect, it } from 'vitest';
import { LANDING_BY_ROLE, WEB_ROUTES, roleMayOpen } from './routes.ts';
import { ROLES } from './roles.ts';

const route = (path: string) => {
  const found = WEB_ROUTES.find((r) => r.path === path);
  if (!found) throw new Error(`no route ${path}`);
  return found;
};

describe('route table (spec §2)', () => {
  it('gives the search-page look to exactly /search, /, /admin/dashboard, /admin/subscriptions and /admin/trackers', () => {
    expect(
      WEB_ROUTES.filter((r) => r.look === 'search')
        .map((r) => r.path)
        .sort(),
    ).toEqual(['/', '/admin/dashboard', '/admin/subscriptions', '/admin/trackers', '/search'].sort());
  });

  it('keeps EVALUATE_USER out of the SAR view home, analyzers home, export and downloads but lets it into their tabs', () => {
    for (const path of ['/sarview', '/analyzers', '/export', '/export/:tabid', '/downloads', '/downloads/:tabid']) {
      expect(roleMayOpen(route(path).access, 'EVALUATE_USER')).toBe(false);
      expect(roleMayOpen(route(path).access, 'FULL_USER')).toBe(true);
      expect(roleMayOpen(route(path).access, 'DOWNLOAD_EVALUATOR')).toBe(true);
    }
    expect(roleMayOpen(route('/sarview/:tabid').access, 'EVALUATE_USER')).toBe(true);
    expect(roleMayOpen(route('/analyzers/:tabid').access, 'EVALUATE_USER')).toBe(true);
  });

  it('shows the admin dashboard and subscriptions only to GOSTAR_ADMIN, trackers also to FLAT_FILE_ADMIN, superadmin only to SUPER_ADMIN', () => {
    const openers = (path: string) => ROLES.filter((r) => roleMayOpen(route(path).access, r));
    expect(openers('/admin/dashboard')).toEqual(['GOSTAR_ADMIN']);
    expect(openers('/admin/subscriptions')).toEqual(['GOSTAR_ADMIN']);
    expect(openers('/admin/trackers').sort()).toEqual(['FLAT_FILE_ADMIN', 'GOSTAR_ADMIN']);
    expect(openers('/superadmin')).toEqual(['SUPER_ADMIN']);
  });

  it('lets nobody open a role route when logged out, and everybody open a public one', () => {
    expect(roleMayOpen(route('/dashboard').access, null)).toBe(false);
    expect(roleMayOpen(route('/').access, null)).toBe(false);
    expect(roleMayOpen(route('/policies').access, null)).toBe(true);
  });

  it('lands every role on a page that role may open', () => {
    for (const role of ROLES) {
      const landing = route(LANDING_BY_ROLE[role]);
      expect(roleMayOpen(landing.access, role), role).toBe(true);
    }
  });
});
