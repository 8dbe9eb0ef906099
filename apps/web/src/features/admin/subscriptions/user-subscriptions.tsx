import { Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { AdminSubscription, AdminUser } from '@kb/contracts/admin-accounts';
import { adminAccountEndpoints } from '@kb/contracts/admin-accounts';
import { callApi, errorMessage } from '../../../app/api-client.ts';
import { roleLabel } from '../../../app/role-labels.ts';
import { DataTable } from '../../../app/ui/data-table.tsx';
import type { DataColumn } from '../../../app/ui/data-table.tsx';
import { formatDay, formatLastDay, renewalEndDate, subscriptionTone, TONE_COLOR, toneText } from './account-format.ts';
import { useRefreshAccounts } from './account-queries.ts';
import { ExtendSubscriptionModal, GrantSubscriptionModal } from './subscription-dialogs.tsx';
import { useConfirmAction } from './use-confirm-action.tsx';

/** Whether ending `subscription` leaves the user without a running one (then their sessions close). */
function lastRunning(user: AdminUser, subscription: AdminSubscription): boolean {
  return !user.subscriptions.some((other) => other.id !== subscription.id && other.status === 'active');
}

/** A user's subscriptions with Grant, Renew (+1 year), Extend (a date) and End now. */
export function UserSubscriptions({ user }: { user: AdminUser }) {
  const refresh = useRefreshAccounts();
  const [confirm, confirmDialog] = useConfirmAction();
  const [granting, setGranting] = useState(false);
  const [extending, setExtending] = useState<AdminSubscription | null>(null);
  const onError = (title: string) => (error: unknown) => notifications.show({ color: 'red', title, message: errorMessage(error) });

  const renew = useMutation({
    mutationFn: ({ subscription, endDate }: { subscription: AdminSubscription; endDate: string }) =>
      callApi(adminAccountEndpoints.updateSubscription, { params: { subscriptionId: subscription.id }, body: { endDate } }),
    onSuccess: (saved, { subscription, endDate }) => {
      notifications.show({
        color: 'green',
        message: `${roleLabel(subscription.roleName)} of ${saved.email} renewed until ${formatDay(endDate)}.`,
      });
      refresh(saved);
    },
    onError: onError('The subscription was not renewed'),
  });
  const end = useMutation({
    mutationFn: (subscription: AdminSubscription) =>
      callApi(adminAccountEndpoints.endSubscription, { params: { subscriptionId: subscription.id }, body: {} }),
    onSuccess: (saved, subscription) => {
      notifications.show({ color: 'green', message: `${roleLabel(subscription.roleName)} of ${saved.email} has ended.` });
      refresh(saved);
    },
    onError: onError('The subscription was not ended'),
  });

  const askRenew = async (subscription: AdminSubscription) => {
    const endDate = renewalEndDate(subscription);
    const ok = await confirm({
      title: `Renew ${roleLabel(subscription.roleName)}`,
      detail: `The subscription of ${user.email} will run until ${formatDay(endDate)} (inclusive) instead of ${formatLastDay(subscription.endDate)}.`,
      confirmLabel: 'Renew for a year',
    });
    if (ok) renew.mutate({ subscription, endDate });
  };
  const askEnd = async (subscription: AdminSubscription) => {
    const ok = await confirm({
      title: `End ${roleLabel(subscription.roleName)} now`,
      detail: lastRunning(user, subscription)
        ? `${user.email} has no other running subscription: their open sessions will be closed at once and they can no longer use the product until given a new subscription.`
        : `${user.email} keeps their other running subscriptions and stays logged in.`,
      confirmLabel: 'End now',
      danger: true,
    });
    if (ok) end.mutate(subscription);
  };

  const busy = renew.isPending || end.isPending;
  const columns: readonly DataColumn<AdminSubscription>[] = [
    { key: 'role', header: 'Role', cell: (row) => roleLabel(row.roleName), cellProps: { style: { whiteSpace: 'nowrap' } } },
    {
      key: 'period',
      header: 'Period',
      cell: (row) => `${formatDay(row.startDate)} – ${formatLastDay(row.endDate)}`,
      cellProps: { style: { whiteSpace: 'nowrap' } },
    },
    {
      key: 'status',
      header: 'Status',
      cell: (row) => (
        <Badge
          variant="light"
          color={TONE_COLOR[subscriptionTone(row)]}
          tt="none"
          style={{ flexShrink: 0 }}
          styles={{ label: { overflow: 'visible' } }}
          data-testid="subscription-status"
        >
          {row.endedAt ? `ended ${formatDay(row.endedAt)}` : toneText(row)}
        </Badge>
      ),
    },
    { key: 'extra', header: 'Contract', cell: (row) => `${row.contractId || '—'}${row.havingFlatFileAccess ? ' · flat files' : ''}` },
    {
      key: 'actions',
      header: 'Actions',
      cell: (row) => (
        <Group gap={4} wrap="nowrap">
          {row.endedAt === null && (
            <>
              <Button size="compact-xs" variant="light" disabled={busy} onClick={() => void askRenew(row)}>
                Renew
              </Button>
              <Button size="compact-xs" variant="light" disabled={busy} onClick={() => setExtending(row)}>
                Extend
              </Button>
            </>
          )}
          {row.status !== 'ended' && (
            <Button
              size="compact-xs"
              variant="light"
              color="red"
              disabled={busy}
              onClick={() => void askEnd(row)}
              data-testid="end-subscription"
            >
              End now
            </Button>
          )}
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={4}>Subscriptions</Title>
        <Button size="xs" leftSection={<IconPlus size={14} />} onClick={() => setGranting(true)} data-testid="grant-subscription">
          Grant
        </Button>
      </Group>
      {user.subscriptions.length === 0 ? (
        <Text size="sm" c="dimmed">
          No subscription: the user cannot use the product until one is granted.
        </Text>
      ) : (
        <DataTable
          columns={columns}
          rows={user.subscriptions}
          rowKey={(row) => row.id}
          rowData={(row) => ({ 'data-role': row.roleName })}
          minWidth={640}
          testId="user-subscriptions"
        />
      )}
      <GrantSubscriptionModal user={user} opened={granting} onClose={() => setGranting(false)} />
      <ExtendSubscriptionModal subscription={extending} onClose={() => setExtending(null)} />
      {confirmDialog}
    </Stack>
  );
}
