import { Button, Checkbox, Group, ScrollArea, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import type { ResultColumn } from '@kb/contracts/results';

export interface ColumnChecklistProps {
  columns: readonly ResultColumn[];
  chosen: readonly string[];
  onToggle: (key: string, on: boolean) => void;
  onAll: () => void;
  onNone: () => void;
  onDefaults: () => void;
}

/** The columns of the tab to write, with "all", "none" and "as in the grid", and a filter for long lists. */
export function ColumnChecklist({ columns, chosen, onToggle, onAll, onNone, onDefaults }: ColumnChecklistProps) {
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const shown = needle ? columns.filter((column) => column.label.toLowerCase().includes(needle) || column.key.includes(needle)) : columns;
  const picked = new Set(chosen);
  return (
    <Stack gap="xs" data-testid="export-columns" data-count={chosen.length}>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={600}>
          Columns ({chosen.length} of {columns.length})
        </Text>
        <Group gap={4}>
          <Button size="compact-xs" variant="subtle" onClick={onAll} data-testid="export-columns-all">
            All
          </Button>
          <Button size="compact-xs" variant="subtle" onClick={onNone} data-testid="export-columns-none">
            None
          </Button>
          <Button size="compact-xs" variant="subtle" onClick={onDefaults}>
            As in the grid
          </Button>
        </Group>
      </Group>
      {columns.length > 12 && (
        <TextInput
          size="xs"
          placeholder="Find a column"
          aria-label="Find a column"
          leftSection={<IconSearch size={14} />}
          value={filter}
          onChange={(event) => setFilter(event.currentTarget.value)}
        />
      )}
      <ScrollArea.Autosize mah={360} type="auto" offsetScrollbars>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={6} verticalSpacing={6} role="group" aria-label="Columns to export">
          {shown.map((column) => (
            <Checkbox
              key={column.key}
              size="xs"
              label={column.label}
              checked={picked.has(column.key)}
              onChange={(event) => onToggle(column.key, event.currentTarget.checked)}
              data-column={column.key}
            />
          ))}
        </SimpleGrid>
        {shown.length === 0 && (
          <Text size="xs" c="dimmed">
            No column matches “{filter}”.
          </Text>
        )}
      </ScrollArea.Autosize>
      {chosen.length === 0 && (
        <Text size="xs" c="red" role="alert">
          Choose at least one column to export.
        </Text>
      )}
    </Stack>
  );
}
