import { Anchor, Card, List, Text } from '@mantine/core';
import { Link } from 'react-router';
import { WEB_ROUTES, roleMayOpen } from '@kb/contracts/routes';
import type { WebRoute } from '@kb/contracts/routes';
import { ROLE_LABELS } from '../app/role-labels.ts';
import { useSessionStore } from '../app/stores/session-store.ts';
import { PageHeader } from '../app/ui/page-header.tsx';
import { SearchPage } from './search-page.tsx';

/** Pages worth linking from the landing card (no parameterised or error routes). */
const LINKABLE = WEB_ROUTES.filter(
  (route) => !route.path.includes(':') && !['/', '/login', '/register', '/accessdenied', '/forgot-password'].includes(route.path),
);

/** `/`: the search page for the search roles, otherwise the pages the current role may open. */
export function LandingPage() {
  const role = useSessionStore((state) => state.currentUserRole);
  const searchRoute = WEB_ROUTES.find((route) => route.path === '/search');
  if (searchRoute && roleMayOpen(searchRoute.access, role)) return <SearchPage />;

  const pages = LINKABLE.filter((route) => route.access !== 'public' && roleMayOpen(route.access, role));
  const info = LINKABLE.filter((route) => route.access === 'public');
  return (
    <>
      <PageHeader title="Welcome to KB Search" description={role ? `You are signed in as ${ROLE_LABELS[role]}.` : undefined} />
      <Card withBorder radius="md" padding="lg" maw={640} data-testid="landing-card">
        <Text fw={600} mb="xs">
          Pages your role may open
        </Text>
        {pages.length === 0 ? (
          <Text size="sm" c="dimmed">
            Your role gives no access to the search pages. Contact your account manager to extend your subscription.
          </Text>
        ) : (
          <RouteLinks routes={pages} />
        )}
        <Text fw={600} mt="md" mb="xs">
          Information
        </Text>
        <RouteLinks routes={info} />
      </Card>
    </>
  );
}

function RouteLinks({ routes }: { routes: readonly WebRoute[] }) {
  return (
    <List spacing={4} size="sm">
      {routes.map((route) => (
        <List.Item key={route.path}>
          <Anchor component={Link} to={route.path}>
            {route.title}
          </Anchor>
        </List.Item>
      ))}
    </List>
  );
}
