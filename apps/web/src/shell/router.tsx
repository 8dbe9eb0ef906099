import { createBrowserRouter } from 'react-router';
import type { RouteObject } from 'react-router';
import type { WebRoute } from '@kb/contracts/routes';
import { WEB_ROUTES } from '@kb/contracts/routes';
import { NotFoundPage } from '../features/errors/not-found-page.tsx';
import { RouteErrorPage } from '../features/errors/route-error-page.tsx';
import { guardLoader } from './guard-loader.ts';
import { OtherLookLayout } from './layouts/other-look-layout.tsx';
import { AppLoading, RootLayout } from './layouts/root-layout.tsx';
import type { RouteHandle } from './layouts/root-layout.tsx';
import { registerNavigator } from '../app/navigation.ts';
import { startPageLoader, stopPageLoader } from '../app/page-loader.ts';
import { scopeNotificationsToPages } from '../app/page-notifications.ts';
import { PAGE_BY_PATH, SELF_MARKED_PATHS } from './pages.tsx';

function toRouteObject(route: WebRoute): RouteObject {
  const loadPage = PAGE_BY_PATH[route.path];
  const handle: RouteHandle = { title: route.title };
  const selfMarked = SELF_MARKED_PATHS.includes(route.path);
  return {
    path: route.path,
    loader: guardLoader(route),
    handle,
    // The page's chunk downloads beside the guard (React Router runs both at once); until both are
    // done the loading bar runs, or the first visit shows AppLoading (hydrateFallbackElement).
    lazy: async () => {
      const Page = loadPage ? await loadPage() : NotFoundPage;
      return {
        element: selfMarked ? (
          <Page />
        ) : (
          <div data-page={route.path}>
            <Page />
          </div>
        ),
      };
    },
  };
}

const notFound: RouteObject = {
  path: '*',
  loader: guardLoader(null),
  handle: { title: 'Page not found' } satisfies RouteHandle,
  element: <NotFoundPage />,
};

/** Every route of spec §2 in its look, plus the not-found page. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: <AppLoading />,
    children: [
      {
        // The search look's side menu pulls in the search options: not needed by the login page.
        lazy: () => import('./layouts/search-look-layout.tsx').then((module) => ({ Component: module.SearchLookLayout })),
        children: WEB_ROUTES.filter((route) => route.look === 'search').map(toRouteObject),
      },
      { element: <OtherLookLayout />, children: [...WEB_ROUTES.filter((route) => route.look === 'other').map(toRouteObject), notFound] },
    ],
  },
];

export function createAppRouter() {
  const router = createBrowserRouter(routes, { basename: '/' });
  registerNavigator((to, options) => router.navigate(to, options));
  // A toast belongs to the page it was shown on: leaving the page ends it.
  scopeNotificationsToPages(router);

  // Spec §2/§9: the loading bar starts before each navigation and stops 100 ms after it.
  let navigating = false;
  router.subscribe((state) => {
    const busy = state.navigation.state !== 'idle';
    if (busy && !navigating) startPageLoader();
    if (!busy && navigating) stopPageLoader();
    navigating = busy;
  });
  return router;
}
