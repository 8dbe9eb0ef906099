import { Alert, Button, Center, Group, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { FROM_PARAM, landingFor, turnedAwayFrom } from '../../app/route-guard.ts';
import { useSessionStore } from '../../app/stores/session-store.ts';
import { useMayOpen } from '../../app/use-route-access.ts';
import { deniedText } from './access-denied.ts';

/**
 * Spec §4: a role outside a route's roles lands here. Unlike the not-found page it says the page
 * exists but is not part of the user's subscription, names it, and offers a way on.
 */
export function AccessDeniedPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const current = useSessionStore((state) => state.currentUserRole);
  const held = useSessionStore((state) => state.userRoles);
  const mayOpen = useMayOpen();
  const from = params.get(FROM_PARAM);
  const route = turnedAwayFrom(from);
  const text = deniedText(route, current, held);
  const onward = mayOpen('/dashboard')
    ? { to: '/dashboard', label: 'Go to your dashboard' }
    : { to: landingFor(current), label: 'Go to your start page' };
  return (
    <Center py={80} data-page="access-denied" data-route="/accessdenied">
      <Stack align="center" gap="sm" maw={520}>
        <Title order={2}>Access denied</Title>
        <Alert color="orange" variant="light" icon={<IconLock size={18} />} data-testid="access-denied-reason" w="100%">
          <Text fw={600} size="sm">
            {text.headline}
          </Text>
          <Text size="sm">{text.detail}</Text>
        </Alert>
        <Group gap="sm">
          {/* Back only when there is a page of this app to go back to (a pasted link has none). */}
          {window.history.length > 1 && (
            <Button variant="default" onClick={() => void navigate(-1)}>
              Go back
            </Button>
          )}
          <Button component={Link} to={onward.to}>
            {onward.label}
          </Button>
        </Group>
      </Stack>
    </Center>
  );
}
