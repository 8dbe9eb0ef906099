import { describe, expect, it } from 'vitest';
import type { Role } from '@kb/contracts/roles';
import { LANDING_BY_ROLE, WEB_ROUTES } from '@kb/contracts/routes';
import type { BrowserSession } from './browser-session.ts';
import type { GuardInput, GuardSession } from './route-guard.ts';
import { decideRoute, postLoginTarget, turnedAwayFrom } from './route-guard.ts';
import { findWebRoute } from './route-match.ts';

const noBrowser: BrowserSession = { token: null, email: null, nodeToken: null, isLoginInThisBrowser: false };

function session(role: Role | null, extra: Partial<GuardSession> = {}): GuardSession {
  return { isLogin: true, token: 'main', nodeToken: 'node', currentUserRole: role, userRoles: role ? [role] : [], ...extra };
}

const loggedOut: GuardSession = { isLogin: false, token: null, nodeToken: null, currentUserRole: null, userRoles: [] };

function decide(pathname: string, sessionValues: GuardSession, browser: BrowserSession = noBrowser, search = '') {
  const input: GuardInput = { pathname, search, route: findWebRoute(pathname), session: sessionValues, browser };
  return decideRoute(input);
}

describe('route guard (spec §4)', () => {
  it('sends an admin whose session has not passed the second factor from every page to /account/mfa, keeping the page', () => {
    expect(decide('/admin/dashboard', session('GOSTAR_ADMIN', { secondFactor: 'enrolment_required' }), noBrowser, '?x=1')).toEqual({
      kind: 'redirect',
      to: `/account/mfa?redirect=${encodeURIComponent('/admin/dashboard?x=1')}`,
      reason: 'second-factor',
    });
    expect(decide('/superadmin', session('SUPER_ADMIN', { secondFactor: 'code_required' }))).toMatchObject({
      kind: 'redirect',
      reason: 'second-factor',
    });
    expect(decide('/admin/trackers', session('FLAT_FILE_ADMIN', { secondFactor: 'passed' }))).toEqual({ kind: 'allow' });
    // Pages other roles share too (the server answers them nothing before the code); only the code page itself stays open.
    expect(decide('/dashboard', session('GOSTAR_ADMIN', { secondFactor: 'enrolment_required' }))).toMatchObject({
      kind: 'redirect',
      reason: 'second-factor',
    });
    expect(decide('/search', session('FULL_USER', { secondFactor: 'code_required' }))).toMatchObject({
      kind: 'redirect',
      reason: 'second-factor',
    });
    expect(decide('/account/mfa', session('GOSTAR_ADMIN', { secondFactor: 'enrolment_required' }))).toEqual({ kind: 'allow' });
    expect(decide('/usermanual', session('GOSTAR_ADMIN', { secondFactor: 'enrolment_required' }))).toEqual({ kind: 'allow' });
  });

  it('allows a logged-in full user on the search page', () => {
    expect(decide('/search', session('FULL_USER'))).toEqual({ kind: 'allow' });
  });

  it('does not count isLogin without a token as logged in', () => {
    expect(decide('/dashboard', session('FULL_USER', { token: null }))).toMatchObject({ kind: 'redirect', reason: 'login-required' });
  });

  it('restores token, email and node token from browser storage when the store is empty and the flag says logged in', () => {
    const browser: BrowserSession = { token: 't', email: 'a@b.c', nodeToken: 'n', isLoginInThisBrowser: true };
    expect(decide('/dashboard', loggedOut, browser)).toEqual({
      kind: 'restore',
      restore: { token: 't', username: 'a@b.c', nodeToken: 'n' },
    });
  });

  it('restores from storage on unprotected routes too', () => {
    const browser: BrowserSession = { token: 't', email: 'a@b.c', nodeToken: 'n', isLoginInThisBrowser: true };
    expect(decide('/usermanual', loggedOut, browser)).toMatchObject({ kind: 'restore' });
    expect(decide('/login', loggedOut, browser)).toMatchObject({ kind: 'restore' });
  });

  it('does not restore when the flag is "false" even if a token is stored', () => {
    const browser: BrowserSession = { token: 't', email: 'a@b.c', nodeToken: 'n', isLoginInThisBrowser: false };
    expect(decide('/dashboard', loggedOut, browser)).toMatchObject({ kind: 'redirect', to: '/login?redirect=%2Fdashboard' });
  });

  it('sends a logged-out visitor of a protected route to /login keeping the wanted path', () => {
    expect(decide('/leaflet/structure/42', loggedOut, noBrowser, '?x=1')).toEqual({
      kind: 'redirect',
      to: `/login?redirect=${encodeURIComponent('/leaflet/structure/42?x=1')}`,
      reason: 'login-required',
    });
  });

  it('lets logged-out visitors open public pages', () => {
    for (const path of [
      '/login',
      '/register',
      '/forgot-password',
      '/pub/account/verify/abc',
      '/usermanual',
      '/keywords',
      '/policies',
      '/accessdenied',
    ]) {
      expect(decide(path, loggedOut)).toEqual({ kind: 'allow' });
    }
  });

  it('allows unknown paths (the not-found page) for everyone', () => {
    expect(decide('/no/such/page', loggedOut)).toEqual({ kind: 'allow' });
  });

  it.each(['/search', '/', '/admin/dashboard', '/admin/subscriptions', '/admin/trackers'])(
    'signs out and goes to /login when %s is opened without a node token',
    (path) => {
      const role: Role = path.startsWith('/admin') ? 'GOSTAR_ADMIN' : 'FULL_USER';
      expect(decide(path, session(role, { nodeToken: null }))).toEqual({
        kind: 'redirect',
        to: '/login',
        reason: 'node-token-missing',
        signOut: true,
      });
    },
  );

  it('does not require the node token on other protected pages', () => {
    expect(decide('/dashboard', session('FULL_USER', { nodeToken: null }))).toEqual({ kind: 'allow' });
  });

  it('sends a role that is not in the route roles to /accessdenied', () => {
    expect(decide('/export', session('EVALUATE_USER'))).toEqual({
      kind: 'redirect',
      to: '/accessdenied?from=%2Fexport',
      reason: 'role-mismatch',
    });
    expect(decide('/sarview', session('EVALUATE_USER'))).toMatchObject({ to: '/accessdenied?from=%2Fsarview' });
    expect(decide('/sarview/structuretab', session('EVALUATE_USER'))).toEqual({ kind: 'allow' });
    expect(decide('/search', session('FLAT_FILE_ONLY'))).toMatchObject({ to: '/accessdenied?from=%2Fsearch' });
  });

  it('lets any logged-in role open authentication-only routes', () => {
    for (const path of ['/', '/dynamicquery', '/admin/client-dashboard'])
      expect(decide(path, session('PARTIAL_USER'))).toEqual({ kind: 'allow' });
  });

  it('sends a logged-in user opening /login to the landing page of the role', () => {
    expect(decide('/login', session('FULL_USER'))).toEqual({ kind: 'redirect', to: '/search', reason: 'already-logged-in' });
    expect(decide('/login', session('GOSTAR_ADMIN'))).toMatchObject({ to: LANDING_BY_ROLE.GOSTAR_ADMIN });
    expect(decide('/login', session(null))).toMatchObject({ to: '/' });
  });

  describe('admin pages', () => {
    it('lets GOSTAR_ADMIN open the admin dashboard, subscriptions and trackers', () => {
      for (const path of ['/admin/dashboard', '/admin/subscriptions', '/admin/trackers'])
        expect(decide(path, session('GOSTAR_ADMIN'))).toEqual({ kind: 'allow' });
    });

    it('lets FLAT_FILE_ADMIN open trackers and sends it to /dashboard from the other admin pages', () => {
      expect(decide('/admin/trackers', session('FLAT_FILE_ADMIN'))).toEqual({ kind: 'allow' });
      expect(decide('/admin/dashboard', session('FLAT_FILE_ADMIN'))).toEqual({
        kind: 'redirect',
        to: '/dashboard?from=%2Fadmin%2Fdashboard',
        reason: 'admin-to-dashboard',
      });
      expect(decide('/admin/subscriptions', session('FLAT_FILE_ADMIN'))).toMatchObject({ to: '/dashboard?from=%2Fadmin%2Fsubscriptions' });
    });

    it('sends GOSTAR_ADMIN from /superadmin to /dashboard', () => {
      expect(decide('/superadmin', session('GOSTAR_ADMIN'))).toMatchObject({
        to: '/dashboard?from=%2Fsuperadmin',
        reason: 'admin-to-dashboard',
      });
    });

    it('sends SUPER_ADMIN, who may not open /dashboard, from other admin pages to /accessdenied', () => {
      expect(decide('/superadmin', session('SUPER_ADMIN'))).toEqual({ kind: 'allow' });
      expect(decide('/admin/trackers', session('SUPER_ADMIN'))).toEqual({
        kind: 'redirect',
        to: '/accessdenied?from=%2Fadmin%2Ftrackers',
        reason: 'role-mismatch',
      });
    });

    it('sends a user holding an admin role but working in another role to /dashboard', () => {
      const mixed = session('FULL_USER', { userRoles: ['FULL_USER', 'GOSTAR_ADMIN'] });
      expect(decide('/admin/subscriptions', mixed)).toMatchObject({
        to: '/dashboard?from=%2Fadmin%2Fsubscriptions',
        reason: 'admin-to-dashboard',
      });
    });

    it('sends an admin-role holder whose current role may not open /dashboard to /accessdenied', () => {
      const mixed = session('PARTIAL_USER', { userRoles: ['PARTIAL_USER', 'GOSTAR_ADMIN'] });
      expect(decide('/admin/dashboard', mixed)).toMatchObject({ to: '/accessdenied?from=%2Fadmin%2Fdashboard' });
    });

    it('sends a non-admin to /accessdenied', () => {
      for (const path of ['/admin/dashboard', '/admin/subscriptions', '/admin/trackers', '/superadmin']) {
        expect(decide(path, session('FULL_USER'))).toEqual({
          kind: 'redirect',
          to: `/accessdenied?from=${encodeURIComponent(path)}`,
          reason: 'role-mismatch',
        });
      }
    });
  });

  it('names back only protected pages of this app from a `from` parameter', () => {
    expect(turnedAwayFrom('/sarview')?.path).toBe('/sarview');
    expect(turnedAwayFrom('/results/structuretab')?.path).toBe('/results/:tabid');
    expect(turnedAwayFrom('//evil.example/sarview')).toBeNull();
    expect(turnedAwayFrom('https://evil.example/')).toBeNull();
    expect(turnedAwayFrom('/no-such-page')).toBeNull();
    expect(turnedAwayFrom('/login')).toBeNull();
    expect(turnedAwayFrom(null)).toBeNull();
  });

  it('gives every route of WEB_ROUTES a decision for every role without throwing', () => {
    const roles: (Role | null)[] = [
      null,
      'FULL_USER',
      'PARTIAL_USER',
      'EVALUATE_USER',
      'DOWNLOAD_EVALUATOR',
      'FLAT_FILE_ONLY',
      'FLAT_FILE_ADMIN',
      'GOSTAR_ADMIN',
      'SUPER_ADMIN',
    ];
    for (const route of WEB_ROUTES) {
      const pathname = route.path.replace(/:[A-Za-z]+/g, 'x');
      for (const role of roles) expect(['allow', 'redirect']).toContain(decide(pathname, session(role)).kind);
    }
  });
});

describe('post-login target', () => {
  it('follows ?redirect= when the role may open it', () => {
    expect(postLoginTarget('/leaflet/structure/7?tab=1', 'FULL_USER')).toBe('/leaflet/structure/7?tab=1');
    expect(postLoginTarget('/dashboard', 'FLAT_FILE_ONLY')).toBe('/dashboard');
  });

  it('falls back to the landing page when the role may not open the target', () => {
    expect(postLoginTarget('/export', 'EVALUATE_USER')).toBe('/search');
    expect(postLoginTarget('/admin/subscriptions', 'FLAT_FILE_ADMIN')).toBe('/admin/trackers');
  });

  it('never follows another origin, an unknown path or /login', () => {
    expect(postLoginTarget('//evil.example/x', 'FULL_USER')).toBe('/search');
    expect(postLoginTarget('https://evil.example', 'FULL_USER')).toBe('/search');
    expect(postLoginTarget('/nope', 'FULL_USER')).toBe('/search');
    expect(postLoginTarget('/login', 'GOSTAR_ADMIN')).toBe('/admin/dashboard');
    expect(postLoginTarget(null, 'SUPER_ADMIN')).toBe('/superadmin');
  });
});
