import { Center, Loader } from '@mantine/core';
import { useEffect } from 'react';
import { Outlet, useLocation, useMatches } from 'react-router';
import { useIdleLogout } from '../idle-timer.ts';
import { usePendo } from '../../app/pendo.ts';
import { useTokenRefresh } from '../token-refresh.ts';

export interface RouteHandle {
  title: string;
}

function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && typeof (handle as { title?: unknown }).title === 'string';
}

/** Root of every page: idle logout, token regeneration, product analytics when configured, scroll to top and the page title. */
export function RootLayout() {
  const location = useLocation();
  const matches = useMatches();
  useIdleLogout();
  useTokenRefresh();
  usePendo();

  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location.pathname]);

  const title = [...matches].reverse().find((match) => isRouteHandle(match.handle))?.handle;
  useEffect(() => {
    document.title = isRouteHandle(title) ? `${title.title} · KB Search` : 'KB Search';
  }, [title]);

  return <Outlet />;
}

export function AppLoading() {
  return (
    <Center h="100dvh">
      <Loader aria-label="Loading" />
    </Center>
  );
}
