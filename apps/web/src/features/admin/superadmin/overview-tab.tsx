import { Badge, Card, SimpleGrid, Table, Text, Title } from '@mantine/core';
import { formatCount } from '../../../app/format/count-format.ts';
import { useQuery } from '@tanstack/react-query';
import { adminEndpoints } from '@kb/contracts/api';
import { endpointQuery } from '../../../app/query.ts';
import { roleLabel } from '../../../app/role-labels.ts';
import { QueryView } from '../../../app/ui/query-view.tsx';

/** The first tab: database, users, open sessions, roles, failed logins and the e-mail outbox. */
export function OverviewTab() {
  const query = useQuery(endpointQuery(adminEndpoints.superAdminOverview, {}));
  return (
    <QueryView query={query}>
      {(overview) => (
        <SimpleGrid cols={{ base: 1, md: 2 }} data-testid="superadmin-overview">
          <Card withBorder radius="md" padding="lg">
            <Title order={4} mb="sm">
              System
            </Title>
            <Table>
              <Table.Tbody>
                <Table.Tr>
                  <Table.Td>Database</Table.Td>
                  <Table.Td ta="right">
                    <Badge variant="light">{overview.database === 'pglite' ? 'Embedded (PGlite)' : 'PostgreSQL server'}</Badge>
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Td>Users</Table.Td>
                  <Table.Td ta="right">{formatCount(overview.users)}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Td>Open sessions</Table.Td>
                  <Table.Td ta="right">{formatCount(overview.activeSessions)}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Td>Failed logins (24 h)</Table.Td>
                  <Table.Td ta="right">{formatCount(overview.failedLoginsLastDay)}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Td>E-mails waiting in the outbox</Table.Td>
                  <Table.Td ta="right">{formatCount(overview.outboxPending)}</Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
          </Card>
          <Card withBorder radius="md" padding="lg">
            <Title order={4} mb="sm">
              Users per role
            </Title>
            {Object.keys(overview.usersPerRole).length === 0 ? (
              <Text size="sm" c="dimmed">
                No roles assigned yet.
              </Text>
            ) : (
              <Table>
                <Table.Tbody>
                  {Object.entries(overview.usersPerRole).map(([role, count]) => (
                    <Table.Tr key={role}>
                      <Table.Td>{roleLabel(role)}</Table.Td>
                      <Table.Td ta="right">{formatCount(count)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Card>
        </SimpleGrid>
      )}
    </QueryView>
  );
}
