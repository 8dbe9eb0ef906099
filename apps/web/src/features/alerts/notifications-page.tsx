import { Badge, Button, Card, Group, Pagination, Stack, Text } from '@mantine/core';
import { IconChecks, IconExternalLink } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { alertEndpoints } from '@kb/contracts/alerts';
import type { AppNotification } from '@kb/contracts/alerts';
import { callApi, errorMessage } from '../../app/api-client.ts';
import { endpointQuery } from '../../app/query.ts';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { QueryView } from '../../app/ui/query-view.tsx';
import { useMayOpen } from '../../app/use-route-access.ts';
import { formatDateTime } from '../../app/format/display-format.ts';
import { invalidateNotifications } from './alert-queries.ts';

const PAGE_SIZE = 20;

function NotificationCard({
  notification,
  mayOpenAlerts,
  onRead,
  reading,
}: {
  notification: AppNotification;
  mayOpenAlerts: boolean;
  onRead: () => void;
  reading: boolean;
}) {
  const unread = notification.readAt === null;
  const openable = notification.kind === 'alert' && notification.link !== null && notification.criteriaId !== null && mayOpenAlerts;
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      data-testid="notification"
      data-unread={unread}
      data-id={notification.id}
      aria-label={notification.title}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={4}>
          <Group gap="xs">
            <Text fw={unread ? 700 : 500}>{notification.title}</Text>
            {unread && (
              <Badge size="xs" color="red" variant="light">
                unread
              </Badge>
            )}
          </Group>
          {notification.body && (
            <Text size="sm" c="dimmed">
              {notification.body}
            </Text>
          )}
          <Text size="xs" c="dimmed">
            {formatDateTime(notification.createdAt)}
          </Text>
          {notification.kind === 'alert' && notification.criteriaId === null && (
            <Text size="xs" c="orange">
              The saved search of this alert was deleted; its new rows can no longer be opened.
            </Text>
          )}
        </Stack>
        <Group gap="xs" wrap="nowrap">
          {openable && (
            // Opening marks the alert read (the server does it with the run).
            <Button
              component={Link}
              to={notification.link!}
              size="xs"
              leftSection={<IconExternalLink size={14} />}
              data-testid="open-new-rows"
            >
              Open the new rows
            </Button>
          )}
          {unread && (
            <Button size="xs" variant="default" onClick={onRead} loading={reading}>
              Mark read
            </Button>
          )}
        </Group>
      </Group>
    </Card>
  );
}

/** /notifications: the user's notifications (alerts on new data among them), newest first. */
export function NotificationsPage() {
  const [page, setPage] = useState(1);
  const [message, setMessage] = useState<string | null>(null);
  const mayOpen = useMayOpen();
  const query = useQuery(endpointQuery(alertEndpoints.notifications, { query: { page, pageSize: PAGE_SIZE } }));
  const markRead = useMutation({
    mutationFn: (id: number) => callApi(alertEndpoints.markRead, { params: { id } }),
    onSuccess: () => invalidateNotifications(),
    onError: (error) => setMessage(errorMessage(error)),
  });
  const markAll = useMutation({
    mutationFn: () => callApi(alertEndpoints.markAllRead, {}),
    onSuccess: () => invalidateNotifications(),
    onError: (error) => setMessage(errorMessage(error)),
  });
  const unread = query.data?.unread ?? 0;

  return (
    <Stack gap="md" data-testid="notifications-page">
      <PageHeader
        title="Notifications"
        description="Alerts on new data for your saved searches, and other messages. Switch “Alert me” on a saved search in the search page (My saved searches)."
        actions={
          <Button
            variant="default"
            leftSection={<IconChecks size={16} />}
            disabled={unread === 0}
            loading={markAll.isPending}
            onClick={() => markAll.mutate()}
          >
            Mark all read
          </Button>
        }
      />
      {message && (
        <Text c="red" size="sm" role="alert">
          {message}
        </Text>
      )}
      <QueryView
        query={query}
        isEmpty={(data) => data.total === 0}
        empty="No notifications yet. When a saved search with “Alert me” finds new rows after a data update, it appears here."
      >
        {(data) => (
          <Stack gap="sm">
            <Text size="sm" c="dimmed" aria-live="polite">
              {data.unread === 0 ? 'All read.' : `${data.unread} unread.`}
            </Text>
            {data.rows.map((notification) => (
              <NotificationCard
                key={notification.id}
                notification={notification}
                mayOpenAlerts={mayOpen('/notifications/:id')}
                onRead={() => markRead.mutate(notification.id)}
                reading={markRead.isPending && markRead.variables === notification.id}
              />
            ))}
            {data.total > PAGE_SIZE && (
              <Pagination total={Math.ceil(data.total / PAGE_SIZE)} value={page} onChange={setPage} aria-label="Notification pages" />
            )}
          </Stack>
        )}
      </QueryView>
    </Stack>
  );
}
