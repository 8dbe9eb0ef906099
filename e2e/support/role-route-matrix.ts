import type { BrowserContext } from 'playwright-core';
import type { Role } from '@kb/contracts/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAppContext, useBrowser } from './browser.ts';
import { AppPage } from './pages/app-page.ts';
import { LoginPage } from './pages/login-page.ts';
import type { ConcreteRoute } from './route-expectations.ts';
import { NOT_FOUND_PAGE, concreteRoutes, describeLanding, expectedLanding } from './route-expectations.ts';

/*
 * Every role against every route of WEB_ROUTES (the walk of role-route-matrix*.spec.ts, split in
 * two files by role so that they run side by side). Expectations come from the contracts (access,
 * look, LANDING_BY_ROLE, ADMIN_GUARD_PATHS), so a route or role added there is tested here too.
 * Most visits are full page loads, which exercise the guard's restore-from-localStorage path; one
 * test per role repeats the whole walk with client-side navigation.
 */

function routeAt(routes: ConcreteRoute[], url: string): ConcreteRoute {
  const found = routes.find((r) => r.url === url);
  if (!found) throw new Error(`${url} is not among the routes of WEB_ROUTES`);
  return found;
}

/** Each route with where `role` (null: logged out) should land on it. */
function casesOf(routes: ConcreteRoute[], role: Role | null) {
  return routes.map((target) => {
    const landing = expectedLanding(target, role);
    return { target, landing, name: describeLanding(target, landing) };
  });
}

/** One test per route: a full page load of it, landing where `who` should. */
function itOpensEveryRoute(cases: ReturnType<typeof casesOf>, who: string, app: () => AppPage): void {
  for (const { target, landing, name } of cases) {
    it(`opening ${target.url} ${name}`, async () => {
      await app().open(target.url);
      await app().expectLanding(landing, `${who}, ${target.url}: ${landing.reason}`);
    });
  }
}

/**
 * Registers the walk: the logged-out visitor's (when asked) and each of `roles`' (a demo login per
 * role), with one browser for the spec file.
 */
export function describeRouteMatrix(roles: readonly Role[], options: { loggedOut: boolean }): void {
  const browser = useBrowser();
  const routes = concreteRoutes();

  if (options.loggedOut) {
    describe('a logged-out visitor', () => {
      let context: BrowserContext;
      let app: AppPage;
      beforeAll(async () => {
        context = await newAppContext(browser());
        app = new AppPage(await context.newPage());
      });
      afterAll(async () => {
        await context.close();
      });

      itOpensEveryRoute(casesOf(routes, null), 'logged out', () => app);

      it('sees the not-found page on an unknown path', async () => {
        await app.open('/no-such-page/at-all');
        await app.expectLanding({ pathname: '/no-such-page/at-all', dataPage: NOT_FOUND_PAGE, look: null, reason: 'unknown path' });
      });
    });
  }

  for (const role of roles) {
    describe(`the demo ${role}`, () => {
      let context: BrowserContext;
      let app: AppPage;
      beforeAll(async () => {
        context = await newAppContext(browser());
        const login = new LoginPage(await context.newPage());
        await login.logInAs(role);
        app = login;
      });
      afterAll(async () => {
        await context.close();
      });

      const cases = casesOf(routes, role);
      itOpensEveryRoute(cases, role, () => app);

      it('fits its header at 1280 × 800: every menu link, the account and Log out inside the window, none over another', async () => {
        await app.open('/accessdenied');
        const header = await app.page.locator('nav[aria-label="Main"]').evaluate((nav) => {
          const shown = [...nav.querySelectorAll<HTMLElement>('a, button, input, [data-testid="header-username"]')].filter(
            (el) => el.getClientRects().length > 0 && !el.closest('[aria-hidden="true"]'),
          );
          return {
            width: window.innerWidth,
            boxes: shown.map((el) => {
              const r = el.getBoundingClientRect();
              return {
                name: (el.textContent ?? '').trim() || el.getAttribute('aria-label') || el.tagName,
                left: r.left,
                right: r.right,
                clipped: el.scrollWidth > el.clientWidth + 1,
              };
            }),
          };
        });
        expect(header.boxes.map((b) => b.name)).toContain('Log out');
        const outside = header.boxes.filter((b) => b.left < 0 || b.right > header.width + 0.5).map((b) => b.name);
        expect(outside, 'header items outside the window').toEqual([]);
        const clipped = header.boxes.filter((b) => b.clipped).map((b) => b.name);
        expect(clipped, 'header items cut short').toEqual([]);
        const sorted = [...header.boxes].sort((x, y) => x.left - y.left);
        const overlapping = sorted
          .slice(1)
          .filter((b, i) => b.left < sorted[i]!.right - 0.5)
          .map((b) => b.name);
        expect(overlapping, 'header items over their left neighbour').toEqual([]);
      });

      it('sees the not-found page on an unknown path', async () => {
        await app.open('/no-such-page');
        await app.expectLanding({ pathname: '/no-such-page', dataPage: NOT_FOUND_PAGE, look: null, reason: 'unknown path' });
      });

      it('is routed by the same rules when navigating inside the app', async () => {
        // Start from a page every role may open, loaded once; everything after is client-side.
        await app.open('/accessdenied');
        await app.expectLanding(expectedLanding(routeAt(routes, '/accessdenied'), role));
        const mismatches: { url: string; expected: string; seen: unknown }[] = [];
        for (const { target, landing } of cases) {
          const stillSameDocument = await app.navigateInApp(target.url);
          const seen = await app.landingMismatch(landing);
          if (seen !== null)
            mismatches.push({ url: target.url, expected: `${landing.pathname} (${landing.dataPage}, ${landing.reason})`, seen });
          else if (!(await stillSameDocument()))
            mismatches.push({ url: target.url, expected: 'no page reload', seen: 'the document was reloaded' });
        }
        expect(mismatches).toEqual([]);
      });
    });
  }
}
