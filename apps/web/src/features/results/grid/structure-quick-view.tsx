import { ActionIcon, Anchor, Badge, Group, Loader, Popover, Stack, Table, Text } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { leafletEndpoints } from '@kb/contracts/leaflets';
import { resultsEndpoints } from '@kb/contracts/results';
import { endpointQuery } from '../../../app/query.ts';
import { formatCell } from './result-columns.ts';

/**
 * A quick look at one structure without leaving the results: its Structures-tab row across the
 * whole knowledge base (spec `tabularview/strid/{id}`) and whether it is a development compound
 * (spec `findDCMOrNot/{id}`). Both are asked only when the popover opens.
 */
export function StructureQuickView({ strId }: { strId: number }) {
  const [opened, setOpened] = useState(false);
  const view = useQuery({ ...endpointQuery(resultsEndpoints.tabularView, { params: { id: strId } }), enabled: opened });
  const dcm = useQuery({ ...endpointQuery(leafletEndpoints.findDcmOrNot, { params: { id: strId } }), enabled: opened });
  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      onDismiss={() => setOpened(false)}
      trapFocus
      returnFocus
      width={380}
      position="right-start"
      withArrow
      shadow="md"
    >
      <Popover.Target>
        <ActionIcon
          variant="subtle"
          size="sm"
          aria-label={`Quick view of structure ${strId}`}
          onClick={() => setOpened((o) => !o)}
          data-testid="structure-quick-view"
        >
          <IconEye size={14} />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown data-testid="structure-quick-view-panel">
        {view.isPending || dcm.isPending ? (
          <Group gap="xs">
            <Loader size="xs" />
            <Text size="sm">Loading structure {strId}…</Text>
          </Group>
        ) : view.isError ? (
          <Text size="sm" c="red">
            {view.error.message}
          </Text>
        ) : (
          <Stack gap="xs">
            <Group justify="space-between">
              <Text fw={600} size="sm">
                Structure {strId}
              </Text>
              {dcm.data?.isDcm ? (
                <Anchor component={Link} to={`/leaflet/dcm/${dcm.data.clinicalCompoundIds[0]}`} size="xs">
                  <Badge color="grape" variant="light">
                    Development compound
                  </Badge>
                </Anchor>
              ) : (
                <Badge color="gray" variant="light">
                  Not in development
                </Badge>
              )}
            </Group>
            <Table fz="xs" verticalSpacing={2}>
              <Table.Tbody>
                {view.data.columns
                  .filter((column) => column.type !== 'structure')
                  .map((column) => (
                    <Table.Tr key={column.key}>
                      <Table.Td c="dimmed">{column.label}</Table.Td>
                      <Table.Td style={{ wordBreak: 'break-all' }}>{formatCell(view.data.row[column.key], column) || '—'}</Table.Td>
                    </Table.Tr>
                  ))}
              </Table.Tbody>
            </Table>
            <Anchor component={Link} to={`/leaflet/structure/${strId}`} size="xs">
              Open the compound leaflet
            </Anchor>
          </Stack>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
