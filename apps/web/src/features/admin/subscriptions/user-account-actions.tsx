import { Button, Group, Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import type { AdminUser, UserAction } from '@kb/contracts/admin-accounts';
import { adminAccountEndpoints } from '@kb/contracts/admin-accounts';
import { callApi, errorMessage } from '../../../app/api-client.ts';
import { countNoun } from '../../../app/format/plural.ts';
import { useRefreshAccounts } from './account-queries.ts';
import type { ConfirmOptions } from './use-confirm-action.tsx';
import { useConfirmAction } from './use-confirm-action.tsx';

type Action = UserAction['action'];

/** Each action's button and what its confirmation says. */
function actionCopy(action: Action, user: AdminUser): { label: string } & ConfirmOptions {
  switch (action) {
    case 'deactivate':
      return {
        label: 'Deactivate',
        title: 'Deactivate the account',
        detail: `${user.email} will not be able to log in and their open sessions are closed. Subscriptions, credits and history are kept; reactivate to undo.`,
        confirmLabel: 'Deactivate',
        danger: true,
      };
    case 'reactivate':
      return {
        label: 'Reactivate',
        title: 'Reactivate the account',
        detail: `${user.email} may log in again (with a running subscription).`,
        confirmLabel: 'Reactivate',
      };
    case 'closeSessions':
      return {
        label: 'Close sessions',
        title: 'Close every session',
        detail: `${user.email} has ${countNoun(user.openSessions, 'open session')}. Each is closed now; the user must log in again.`,
        confirmLabel: 'Close sessions',
        danger: true,
      };
    case 'sendPasswordLink':
      return {
        label: 'Send password link',
        title: 'Send a password link',
        detail: `A link to set a new password is e-mailed to ${user.email}. Their current password keeps working until the link is used.`,
        confirmLabel: 'Send link',
      };
    case 'liftLockout':
      return {
        label: 'Lift lock-out',
        title: 'Lift the login lock-out',
        detail: `The failed-login limit is reset for ${user.email}, who may try to log in again at once.`,
        confirmLabel: 'Lift lock-out',
      };
  }
}

/** Deactivate or reactivate, close sessions, send a password link, lift a lock-out: each confirmed first. */
export function UserAccountActions({ user }: { user: AdminUser }) {
  const refresh = useRefreshAccounts();
  const [confirm, confirmDialog] = useConfirmAction();
  const run = useMutation({
    mutationFn: (action: Action) => callApi(adminAccountEndpoints.userAction, { params: { userId: user.userId }, body: { action } }),
    onSuccess: (result) => {
      notifications.show({ color: 'green', message: result.message });
      refresh(result.user);
    },
    onError: (error) => notifications.show({ color: 'red', title: 'Nothing was changed', message: errorMessage(error) }),
  });
  const actions: Action[] = [
    user.state === 'deactivated' ? 'reactivate' : 'deactivate',
    'closeSessions',
    'sendPasswordLink',
    ...(user.lockedOut ? (['liftLockout'] as const) : []),
  ];
  const ask = async (action: Action) => {
    const { label: _label, ...options } = actionCopy(action, user);
    if (await confirm(options)) run.mutate(action);
  };
  return (
    <Stack gap="xs">
      <Title order={4}>Account</Title>
      <Group gap="xs">
        {actions.map((action) => {
          const copy = actionCopy(action, user);
          return (
            <Button
              key={action}
              size="xs"
              variant="light"
              color={copy.danger ? 'red' : undefined}
              loading={run.isPending && run.variables === action}
              disabled={run.isPending || (action === 'closeSessions' && user.openSessions === 0)}
              onClick={() => void ask(action)}
              data-testid={`action-${action}`}
            >
              {copy.label}
            </Button>
          );
        })}
      </Group>
      {confirmDialog}
    </Stack>
  );
}
