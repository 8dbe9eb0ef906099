import { Drawer, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import type { InnerGrid, ResultRow } from '@kb/contracts/results';
import { formatCell, parseInnerGrids } from './result-columns.ts';

function InnerGridTable({ grid }: { grid: InnerGrid }) {
  return (
    <Stack gap={4} data-testid="inner-grid">
      <Title order={3} size="h6">
        {grid.title}
      </Title>
      {grid.rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          No rows.
        </Text>
      ) : (
        <ScrollArea type="auto">
          <Table striped withTableBorder withColumnBorders fz="xs" verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                {grid.columns.map((column) => (
                  <Table.Th key={column.key}>{column.label}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {grid.rows.map((row, index) => (
                <Table.Tr key={index}>
                  {grid.columns.map((column) => (
                    <Table.Td key={column.key}>
                      {formatCell(row[column.key] ?? null, {
                        key: column.key,
                        type: typeof row[column.key] === 'number' ? 'number' : 'text',
                      })}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
      {grid.more && (
        <Text size="xs" c="dimmed">
          More rows exist than are shown here.
        </Text>
      )}
    </Stack>
  );
}

/** Spec §3 inner grids of an activity or assay row, as small tables in a side panel. */
export function InnerGridsDrawer({ row, title, onClose }: { row: ResultRow | null; title: string; onClose: () => void }) {
  const grids = row ? parseInnerGrids(row.innerGrids) : [];
  return (
    <Drawer opened={row !== null} onClose={onClose} position="right" size="xl" title={title} data-testid="inner-grids-drawer">
      <Stack gap="lg">
        {grids.map((grid, index) => (
          <InnerGridTable key={`${grid.title}-${index}`} grid={grid} />
        ))}
      </Stack>
    </Drawer>
  );
}
