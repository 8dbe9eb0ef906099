import { Anchor, Box, Burger, Button, Group, Select, Text, Title } from '@mantine/core';
import { IconFlask, IconLogout } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { isRole } from '@kb/contracts/roles';
import { logOut } from '../../features/auth/auth-service.ts';
import { NotificationBell } from '../../features/alerts/notification-bell.tsx';
import { landingFor } from '../../app/route-guard.ts';
import { ROLE_LABELS } from '../../app/role-labels.ts';
import { isLoggedIn, useSessionStore } from '../../app/stores/session-store.ts';
import { useMayOpen } from '../../app/use-route-access.ts';
import type { NavItem } from './fitting-nav.tsx';
import { FittingNav } from './fitting-nav.tsx';

/** Header links, shown only when the current role may open them. */
const NAV_ITEMS: readonly NavItem[] = [
  { label: 'Search', path: '/search' },
  { label: 'Results', path: '/results' },
  { label: 'Workspace', path: '/workspace' },
  { label: 'Dynamic query', path: '/dynamicquery' },
  { label: 'Downloads', path: '/downloads' },
  { label: 'Dashboard', path: '/dashboard' },
  { label: 'Client dashboard', path: '/admin/client-dashboard' },
  { label: 'Admin dashboard', path: '/admin/dashboard' },
  { label: 'Subscriptions', path: '/admin/subscriptions' },
  { label: 'Trackers', path: '/admin/trackers' },
  { label: 'Super admin', path: '/superadmin' },
  { label: 'User manual', path: '/usermanual' },
];

export function AppHeader({ navbarOpened, onToggleNavbar }: { navbarOpened?: boolean; onToggleNavbar?: () => void }) {
  const navigate = useNavigate();
  const loggedIn = useSessionStore(isLoggedIn);
  const username = useSessionStore((state) => state.username);
  const roles = useSessionStore((state) => state.userRoles);
  const currentRole = useSessionStore((state) => state.currentUserRole);
  const setCurrentRole = useSessionStore((state) => state.setCurrentRole);
  const mayOpen = useMayOpen();

  const showHome = loggedIn && !mayOpen('/search');
  const items = [...(showHome ? [{ label: 'Home', path: '/' }] : []), ...NAV_ITEMS.filter((item) => mayOpen(item.path))];

  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" component="nav" aria-label="Main">
      <Group gap="sm" wrap="nowrap" style={{ flex: 1, minWidth: 0 }}>
        {onToggleNavbar && (
          <Burger opened={navbarOpened ?? false} onClick={onToggleNavbar} hiddenFrom="sm" size="sm" aria-label="Toggle search navigation" />
        )}
        <Anchor component={Link} to={loggedIn ? landingFor(currentRole) : '/login'} underline="never" c="inherit">
          <Group gap={6} wrap="nowrap">
            <IconFlask size={24} aria-hidden />
            <Title order={1} size="h4" style={{ whiteSpace: 'nowrap' }}>
              KB Search
            </Title>
          </Group>
        </Anchor>
        <Box visibleFrom="md" style={{ flex: 1, minWidth: 0 }}>
          <FittingNav items={items} />
        </Box>
      </Group>
      <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
        {loggedIn ? (
          <>
            {roles.length > 1 && (
              <Select
                aria-label="Current role"
                size="xs"
                w={170}
                data={roles.map((role) => ({ value: role, label: ROLE_LABELS[role] }))}
                value={currentRole}
                allowDeselect={false}
                onChange={(value) => {
                  if (!isRole(value) || value === currentRole) return;
                  setCurrentRole(value);
                  void navigate(landingFor(value));
                }}
              />
            )}
            {roles.length === 1 && currentRole && (
              // The role label gives way first when the menu is long (the dashboard shows it too).
              <Text size="xs" c="dimmed" visibleFrom="lg" style={{ whiteSpace: 'nowrap' }}>
                {ROLE_LABELS[currentRole]}
              </Text>
            )}
            <NotificationBell />
            {/* A long address is cut with an ellipsis (whole on hover) rather than pushing Log out away. */}
            <Text size="sm" visibleFrom="sm" data-testid="header-username" truncate="end" maw={240} title={username ?? undefined}>
              {username}
            </Text>
            <Button size="xs" variant="light" leftSection={<IconLogout size={14} />} onClick={() => void logOut()}>
              Log out
            </Button>
          </>
        ) : (
          <>
            <Button component={Link} to="/login" size="xs" variant="filled">
              Log in
            </Button>
            <Button component={Link} to="/register" size="xs" variant="default">
              Register
            </Button>
          </>
        )}
      </Group>
    </Group>
  );
}
