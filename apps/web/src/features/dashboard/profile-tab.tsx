import { Badge, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { isSubscriptionActive } from '@kb/contracts/access';
import { authEndpoints } from '@kb/contracts/api';
import { endpointQuery } from '../../app/query.ts';
import { roleLabel } from '../../app/role-labels.ts';
import { QueryView } from '../../app/ui/query-view.tsx';
import { formatLastDay } from '../../app/format/display-format.ts';
import { countNoun } from '../../app/format/plural.ts';
import { formatCount } from '../../app/format/count-format.ts';

function SubscriptionSummaryCard() {
  const query = useQuery(endpointQuery(authEndpoints.subscriptionSummary, {}));
  return (
    <Card withBorder radius="md" padding="lg" data-testid="subscription-summary">
      <Title order={4} mb="sm">
        Subscription summary
      </Title>
      <QueryView query={query} skeletonRows={3}>
        {(summary) => (
          <SimpleGrid cols={{ base: 1, xs: 3 }}>
            <Stack gap={0}>
              <Text size="xs" c="dimmed">
                Download balance
              </Text>
              <Text fw={600} size="lg">
                {formatCount(summary.downloadBalance)}
              </Text>
            </Stack>
            <Stack gap={0}>
              <Text size="xs" c="dimmed">
                Expires in
              </Text>
              <Text fw={600} size="lg" c={summary.expiring ? 'orange' : undefined}>
                {summary.expiringDays === null ? '—' : countNoun(summary.expiringDays, 'day')}
              </Text>
            </Stack>
            <Stack gap={0}>
              <Text size="xs" c="dimmed">
                End date
              </Text>
              <Text fw={600} size="lg">
                {formatLastDay(summary.endDate)}
              </Text>
            </Stack>
          </SimpleGrid>
        )}
      </QueryView>
    </Card>
  );
}

export function ProfileTab() {
  const query = useQuery(endpointQuery(authEndpoints.profile, {}));
  return (
    <Stack gap="md">
      <Card withBorder radius="md" padding="lg" data-testid="profile-card">
        <QueryView query={query} skeletonRows={3}>
          {(profile) => (
            <Stack gap="sm">
              <Group justify="space-between">
                <Stack gap={0}>
                  <Title order={4}>
                    {profile.firstName} {profile.lastName}
                  </Title>
                  <Text size="sm" c="dimmed">
                    {profile.userName}
                  </Text>
                </Stack>
                {profile.notificationsCount > 0 && <Badge variant="light">{profile.notificationsCount} notifications</Badge>}
              </Group>
              {profile.subscriptionDetailsList.length === 0 ? (
                <Text size="sm" c="dimmed">
                  No subscriptions on this account.
                </Text>
              ) : (
                <Table.ScrollContainer minWidth={520}>
                  <Table>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Role</Table.Th>
                        <Table.Th>Contract</Table.Th>
                        <Table.Th>End date</Table.Th>
                        <Table.Th>Status</Table.Th>
                        <Table.Th>Flat-file access</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {profile.subscriptionDetailsList.map((subscription) => {
                        const active = isSubscriptionActive(subscription);
                        return (
                          <Table.Tr key={`${subscription.contractId}-${subscription.roleName}`}>
                            <Table.Td>{roleLabel(subscription.roleName)}</Table.Td>
                            <Table.Td>{subscription.contractId}</Table.Td>
                            <Table.Td>{formatLastDay(subscription.endDate)}</Table.Td>
                            <Table.Td>
                              <Badge color={active ? 'green' : 'gray'} variant="light">
                                {active ? 'Active' : 'Expired'}
                              </Badge>
                            </Table.Td>
                            <Table.Td>{subscription.havingFlatFileAccess ? 'Yes' : 'No'}</Table.Td>
                          </Table.Tr>
                        );
                      })}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
            </Stack>
          )}
        </QueryView>
      </Card>
      <SubscriptionSummaryCard />
    </Stack>
  );
}
