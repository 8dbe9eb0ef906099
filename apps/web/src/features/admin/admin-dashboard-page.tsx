import { Alert, Card, Group, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { formatCount } from '../../app/format/count-format.ts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { adminEndpoints } from '@kb/contracts/api';
import { TRACKER_MAX_PAGE_SIZE, trackerEndpoints } from '@kb/contracts/admin-trackers';
import { errorMessage } from '../../app/api-client.ts';
import { endpointQuery } from '../../app/query.ts';
import { roleLabel } from '../../app/role-labels.ts';
import { EmptyState } from '../../app/ui/query-view.tsx';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { deriveAdminStats } from './admin-stats.ts';
import { TrackersTable } from './trackers-table.tsx';

function Stat({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <Card withBorder radius="md" padding="md" data-testid={testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={700} fz={28}>
        {formatCount(value)}
      </Text>
    </Card>
  );
}

export function AdminDashboardPage() {
  const subscriptions = useQuery(endpointQuery(adminEndpoints.subscriptions, {}));
  // The newest failed logins of the last 7 days (the window the dashboard shows); the trackers page has them all.
  const [since] = useState(() => new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10));
  const trackers = useQuery(endpointQuery(trackerEndpoints.logins, { query: { from: since, outcome: 'failed', page: 1, pageSize: TRACKER_MAX_PAGE_SIZE, sort: 'date', dir: 'desc' } }));

  const header = <PageHeader title="Admin dashboard" description="Users, roles and recent failed logins across the platform (last 7 days)." />;
  if (subscriptions.isPending || trackers.isPending) {
    return (
      <>
        {header}
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Skeleton height={90} />
          <Skeleton height={90} />
          <Skeleton height={90} />
        </SimpleGrid>
      </>
    );
  }
  if (subscriptions.isError || trackers.isError) {
    return (
      <>
        {header}
        <Alert color="red" role="alert" title="Could not load">
          {errorMessage(subscriptions.error ?? trackers.error)}
        </Alert>
      </>
    );
  }

  const stats = deriveAdminStats(subscriptions.data.rows, trackers.data.rows);
  const roles = Object.entries(stats.usersPerRole).sort((a, b) => b[1] - a[1]);
  return (
    <>
      {header}
      <Stack gap="lg">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Stat label="Users" value={stats.users} testId="stat-users" />
          <Stat label="Active accounts" value={stats.activeUsers} testId="stat-active-users" />
          <Stat label="Failed logins (7 days)" value={stats.recentFailedLogins.length} testId="stat-failed-logins" />
        </SimpleGrid>
        <Card withBorder radius="md" padding="lg">
          <Title order={4} mb="sm">
            Users per role (active subscriptions)
          </Title>
          {roles.length === 0 ? (
            <EmptyState>No active subscriptions.</EmptyState>
          ) : (
            <Table data-testid="roles-table">
              <Table.Tbody>
                {roles.map(([role, count]) => (
                  <Table.Tr key={role}>
                    <Table.Td>{roleLabel(role)}</Table.Td>
                    <Table.Td ta="right">{formatCount(count)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Card>
        <Card withBorder radius="md" padding="lg">
          <Group justify="space-between" mb="sm">
            <Title order={4}>Recent failed logins</Title>
          </Group>
          {stats.recentFailedLogins.length === 0 ? (
            <EmptyState>No failed logins in the last 7 days.</EmptyState>
          ) : (
            <TrackersTable rows={stats.recentFailedLogins.slice(0, 20)} testId="failed-logins-table" />
          )}
        </Card>
      </Stack>
    </>
  );
}
