import { Badge, Group, Text, TextInput } from '@mantine/core';
import { formatCount } from '../../app/format/count-format.ts';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { isSubscriptionActive } from '@kb/contracts/access';
import type { AdminUserRow } from '@kb/contracts/admin';
import { adminEndpoints } from '@kb/contracts/api';
import { endpointQuery } from '../../app/query.ts';
import { roleLabel } from '../../app/role-labels.ts';
import { DataTable } from '../../app/ui/data-table.tsx';
import type { DataColumn } from '../../app/ui/data-table.tsx';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { QueryView } from '../../app/ui/query-view.tsx';
import { formatDate, formatDateTime } from '../dashboard/format.ts';

function SubscriptionBadges({ row }: { row: AdminUserRow }) {
  if (row.subscriptions.length === 0) {
    return (
      <Text size="xs" c="dimmed">
        none
      </Text>
    );
  }
  return (
    <Group gap={4}>
      {row.subscriptions.map((subscription) => (
        <Badge
          key={`${subscription.contractId}-${subscription.roleName}`}
          variant="light"
          color={isSubscriptionActive(subscription) ? 'blue' : 'gray'}
          tt="none"
          // Mantine's badge label clips with an ellipsis and lets the table squeeze it to nothing: the
          // label keeps its full width here, so the column grows (the table scrolls sideways) or the
          // group wraps, and no role or date is cut off.
          style={{ flexShrink: 0 }}
          styles={{ label: { overflow: 'visible' } }}
          title={`${subscription.roleName}, contract ${subscription.contractId}${subscription.havingFlatFileAccess ? ', flat-file access' : ''}`}
          data-testid="subscription-badge"
        >
          {roleLabel(subscription.roleName)} · until {formatDate(subscription.endDate)}
        </Badge>
      ))}
    </Group>
  );
}

const COLUMNS: readonly DataColumn<AdminUserRow>[] = [
  { key: 'user', header: 'User', cell: (row) => `${row.firstName} ${row.lastName}` },
  { key: 'email', header: 'E-mail', cell: (row) => row.userName },
  { key: 'subscriptions', header: 'Subscriptions', cell: (row) => <SubscriptionBadges row={row} /> },
  { key: 'credits', header: 'Credit balance', align: 'right', cell: (row) => formatCount(row.creditBalance) },
  {
    key: 'account',
    header: 'Account',
    cell: (row) => (
      <Badge color={row.active ? 'green' : 'gray'} variant="light">
        {row.active ? 'Active' : 'Inactive'}
      </Badge>
    ),
  },
  { key: 'lastLogin', header: 'Last login', cell: (row) => formatDateTime(row.lastLoginAt), cellProps: { style: { whiteSpace: 'nowrap' } } },
];

export function SubscriptionsPage() {
  const query = useQuery(endpointQuery(adminEndpoints.subscriptions, {}));
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();

  return (
    <>
      <PageHeader title="Subscriptions" description="Every user with their subscriptions, roles, end dates and download credit balance." />
      <TextInput
        label="Filter users"
        placeholder="Name or e-mail"
        leftSection={<IconSearch size={16} />}
        value={filter}
        onChange={(event) => setFilter(event.currentTarget.value)}
        maw={360}
        mb="md"
      />
      <QueryView query={query} isEmpty={(data) => data.rows.length === 0} empty="No users yet.">
        {(data) => (
          <DataTable
            columns={COLUMNS}
            rows={data.rows.filter((row) => !needle || `${row.firstName} ${row.lastName} ${row.userName}`.toLowerCase().includes(needle))}
            rowKey={(row) => row.userId}
            minWidth={960}
            testId="subscriptions-table"
            empty={`No user matches “${filter}”.`}
          />
        )}
      </QueryView>
    </>
  );
}
