import { Divider, Drawer, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { adminAccountEndpoints } from '@kb/contracts/admin-accounts';
import { formatCount } from '../../../app/format/count-format.ts';
import { endpointQuery } from '../../../app/query.ts';
import { QueryView } from '../../../app/ui/query-view.tsx';
import { formatMoment, fullName } from './account-format.ts';
import { userInput } from './account-queries.ts';
import { useDialogHost } from './nested-dialogs.tsx';
import { UserAccountActions } from './user-account-actions.tsx';
import { AccountStateBadges } from './user-badges.tsx';
import { UserCredits } from './user-credits.tsx';
import { UserDetailsForm } from './user-details-form.tsx';
import { UserSubscriptions } from './user-subscriptions.tsx';

/** One user's page: details, subscriptions, credits and account actions. */
export function UserDrawer({ userId, onClose }: { userId: number | null; onClose: () => void }) {
  const host = useDialogHost();
  // The last user opened stays shown while the drawer slides shut.
  const [shownId, setShownId] = useState(userId);
  if (userId !== null && userId !== shownId) setShownId(userId);
  const query = useQuery({ ...endpointQuery(adminAccountEndpoints.user, userInput(shownId ?? 0)), enabled: shownId !== null });
  return (
    <Drawer
      opened={userId !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={query.data ? fullName(query.data) || query.data.email : 'User'}
      closeOnEscape={!host.childOpen}
      closeButtonProps={{ 'aria-label': 'Close the user’s page' }}
      data-testid="user-drawer"
    >
      {shownId !== null &&
        host.wrap(
          <QueryView query={query}>
            {(user) => (
              <Stack gap="lg" data-testid="user-detail" data-email={user.email}>
                <Stack gap={4}>
                  <Group gap="xs">
                    <Text fw={600}>{user.email}</Text>
                    <AccountStateBadges user={user} />
                  </Group>
                  <Text size="sm" c="dimmed">
                    Last login {formatMoment(user.lastLoginAt)} · {formatCount(user.openSessions)} open{' '}
                    {user.openSessions === 1 ? 'session' : 'sessions'} · created {formatMoment(user.createdAt)}
                  </Text>
                </Stack>
                <UserDetailsForm key={user.userId} user={user} />
                <Divider />
                <UserSubscriptions user={user} />
                <Divider />
                <UserCredits user={user} />
                <Divider />
                <UserAccountActions user={user} />
              </Stack>
            )}
          </QueryView>,
        )}
    </Drawer>
  );
}
