import { AppShell, NavLink as MantineNavLink, ScrollArea, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, Outlet, useLocation, useSearchParams } from 'react-router';
import { SEARCH_GROUPS } from '../../features/search/search-options.ts';
import { useMayOpen } from '../../app/use-route-access.ts';
import { AppHeader } from './app-header.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SubscriptionWarning } from './subscription-warning.tsx';

// The SAR view and analyzers homes are EXPORT_ROLES pages (evaluators reach them only from a
// results tab). The client dashboard is open to every logged-in role.
const QUICK_LINKS: readonly { label: string; path: string }[] = [
  { label: 'Results', path: '/results' },
  { label: 'Workspace', path: '/workspace' },
  { label: 'SAR view', path: '/sarview' },
  { label: 'Analyzers', path: '/analyzers' },
  { label: 'Dynamic query', path: '/dynamicquery' },
  { label: 'Export', path: '/export' },
  { label: 'Downloads', path: '/downloads' },
  { label: 'Dashboard', path: '/dashboard' },
  { label: 'Client dashboard', path: '/admin/client-dashboard' },
  { label: 'User manual', path: '/usermanual' },
];

const ADMIN_LINKS: readonly { label: string; path: string }[] = [
  { label: 'Admin dashboard', path: '/admin/dashboard' },
  { label: 'Subscriptions', path: '/admin/subscriptions' },
  { label: 'Trackers', path: '/admin/trackers' },
  { label: 'Super admin', path: '/superadmin' },
];

/** The administration section shows only for roles that may open one of the admin pages proper. */
const ADMIN_PAGES: readonly string[] = ['/admin/dashboard', '/admin/subscriptions', '/admin/trackers', '/superadmin'];

function SearchNavbar() {
  const mayOpen = useMayOpen();
  const location = useLocation();
  const [params] = useSearchParams();
  const canSearch = mayOpen('/search');
  const quick = QUICK_LINKS.filter((link) => mayOpen(link.path));
  const admin = ADMIN_PAGES.some((path) => mayOpen(path)) ? ADMIN_LINKS.filter((link) => mayOpen(link.path)) : [];

  return (
    <ScrollArea type="auto" h="100%">
      {canSearch &&
        SEARCH_GROUPS.map((group) => (
          <MantineNavLink key={group.key} label={group.label} defaultOpened={group.key !== 'treeview'} childrenOffset={12} fw={600}>
            {group.options.map((option) => (
              <MantineNavLink
                key={option.key}
                component={Link}
                to={`/search?group=${group.key}&option=${option.key}`}
                label={option.label}
                title={option.hint}
                active={location.pathname === '/search' && params.get('group') === group.key && params.get('option') === option.key}
              />
            ))}
          </MantineNavLink>
        ))}
      {admin.length > 0 && (
        <>
          <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="md" pb={4}>
            Administration
          </Text>
          {admin.map((link) => (
            <MantineNavLink key={link.path} component={Link} to={link.path} label={link.label} active={location.pathname === link.path} />
          ))}
        </>
      )}
      {quick.length > 0 && (
        <>
          <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="md" pb={4}>
            Quick links
          </Text>
          {quick.map((link) => (
            <MantineNavLink key={link.path} component={Link} to={link.path} label={link.label} active={location.pathname === link.path} />
          ))}
        </>
      )}
    </ScrollArea>
  );
}

/** Spec §2 "search-page look": header and a left navbar with the search groupings and quick links. */
export function SearchLookLayout() {
  const [opened, { toggle }] = useDisclosure(false);
  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
      data-look="search"
    >
      <AppShell.Header>
        <AppHeader navbarOpened={opened} onToggleNavbar={toggle} />
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Search navigation">
        <SearchNavbar />
      </AppShell.Navbar>
      <AppShell.Main>
        <SubscriptionWarning />
        <Outlet />
        <SiteFooter />
      </AppShell.Main>
    </AppShell>
  );
}
