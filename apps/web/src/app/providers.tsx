import { Badge, MantineProvider, createTheme } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { NavigationProgress } from '@mantine/nprogress';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient } from './query.ts';

const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'sm',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  components: {
    // Badges read "Yes", "Active", role names: shown as written, not upper-cased.
    Badge: Badge.extend({ styles: { root: { textTransform: 'none' } } }),
  },
});

/** Spec §9: notifications at the bottom, closing after 5000 ms. */
const NOTIFICATION_AUTO_CLOSE_MS = 5000;

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <NavigationProgress />
      <Notifications position="bottom-center" autoClose={NOTIFICATION_AUTO_CLOSE_MS} />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
