import { ActionIcon, Indicator, Tooltip } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { alertEndpoints } from '@kb/contracts/alerts';
import { endpointQuery } from '../../app/query.ts';
import { BELL_REFRESH_MS } from './alert-queries.ts';

/** The header's bell: unread notifications at a glance, a link to the notifications page. */
export function NotificationBell() {
  // One row is enough: the answer carries the unread count.
  const query = useQuery({
    ...endpointQuery(alertEndpoints.notifications, { query: { page: 1, pageSize: 1 } }),
    refetchInterval: BELL_REFRESH_MS,
  });
  const unread = query.data?.unread ?? 0;
  const label = unread === 0 ? 'Notifications, none unread' : `Notifications, ${unread} unread`;
  return (
    <Tooltip label={label}>
      <Indicator
        label={unread > 99 ? '99+' : unread}
        size={16}
        disabled={unread === 0}
        color="red"
        offset={4}
        data-testid="notification-count"
        data-count={unread}
      >
        <ActionIcon component={Link} to="/notifications" variant="subtle" size="lg" aria-label={label} data-testid="notification-bell">
          <IconBell size={20} aria-hidden />
        </ActionIcon>
      </Indicator>
    </Tooltip>
  );
}
