import { Card, Group, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { entityLabel, kbReleaseEndpoints } from '@kb/contracts/kb-loads';
import { endpointQuery } from '../../app/query.ts';
import { formatCount } from '../../app/format/count-format.ts';
import { formatDateTime } from '../../app/format/display-format.ts';

/**
 * "What's new in <release>" on /home: the latest finished load's changes per entity. Hidden while
 * loading, on an error (the rest of the page stands on its own) and before the first load.
 */
export function WhatsNewCard() {
  const query = useQuery(endpointQuery(kbReleaseEndpoints.whatsNew, {}));
  const load = query.data?.load;
  const changes = load?.report?.changes.filter((c) => c.added + c.updated + c.retired > 0) ?? [];
  if (!load) return null;
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={`What's new in ${load.label}`} data-testid="whats-new">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          What&apos;s new in {load.label}
        </Title>
        <Text size="sm" c="dimmed">
          {load.kind === 'update' ? 'Release update' : load.kind === 'seed' ? 'Demo data' : 'First import'} ·{' '}
          {formatDateTime(load.finishedAt)}
        </Text>
      </Group>
      {changes.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nothing changed in this load.
        </Text>
      ) : (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th />
              <Table.Th ta="right">Added</Table.Th>
              <Table.Th ta="right">Updated</Table.Th>
              <Table.Th ta="right">Retired</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {changes.map((c) => (
              <Table.Tr key={c.entity} data-entity={c.entity}>
                <Table.Td>{entityLabel(c.entity)}</Table.Td>
                <Table.Td ta="right">{formatCount(c.added)}</Table.Td>
                <Table.Td ta="right">{formatCount(c.updated)}</Table.Td>
                <Table.Td ta="right">{formatCount(c.retired)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}
