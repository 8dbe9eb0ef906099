import { Badge, Group, Table, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { isSubscriptionActive } from '@kb/contracts/access';
import { adminEndpoints } from '@kb/contracts/api';
import { endpointQuery } from '../../app/query.ts';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { QueryView } from '../../app/ui/query-view.tsx';
import { formatDate, formatDateTime } from '../dashboard/format.ts';

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
        {(data) => {
          const rows = data.rows.filter((row) => !needle || `${row.firstName} ${row.lastName} ${row.userName}`.toLowerCase().includes(needle));
          return (
            <Table.ScrollContainer minWidth={800}>
              <Table striped highlightOnHover data-testid="subscriptions-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>User</Table.Th>
                    <Table.Th>E-mail</Table.Th>
                    <Table.Th>Subscriptions</Table.Th>
                    <Table.Th ta="right">Credit balance</Table.Th>
                    <Table.Th>Account</Table.Th>
                    <Table.Th>Last login</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((row) => (
                    <Table.Tr key={row.userId}>
                      <Table.Td>
                        {row.firstName} {row.lastName}
                      </Table.Td>
                      <Table.Td>{row.userName}</Table.Td>
                      <Table.Td>
                        <Group gap={4}>
                          {row.subscriptions.length === 0 && (
                            <Text size="xs" c="dimmed">
                              none
                            </Text>
                          )}
                          {row.subscriptions.map((subscription) => (
                            <Badge
                              key={`${subscription.contractId}-${subscription.roleName}`}
                              variant="light"
                              color={isSubscriptionActive(subscription) ? 'blue' : 'gray'}
                              tt="none"
                              title={`Contract ${subscription.contractId}${subscription.havingFlatFileAccess ? ', flat-file access' : ''}`}
                            >
                              {subscription.roleName} · {formatDate(subscription.endDate)}
                            </Badge>
                          ))}
                        </Group>
                      </Table.Td>
                      <Table.Td ta="right">{row.creditBalance.toLocaleString()}</Table.Td>
                      <Table.Td>
                        <Badge color={row.active ? 'green' : 'gray'} variant="light">
                          {row.active ? 'Active' : 'Inactive'}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{formatDateTime(row.lastLoginAt)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              {rows.length === 0 && (
                <Text size="sm" c="dimmed" ta="center" py="md">
                  No user matches “{filter}”.
                </Text>
              )}
            </Table.ScrollContainer>
          );
        }}
      </QueryView>
    </>
  );
}
