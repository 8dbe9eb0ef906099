import { Button, Checkbox, Divider, Group, Popover, ScrollArea, Stack, Text } from '@mantine/core';
import { IconColumns3 } from '@tabler/icons-react';
import type { ShownColumn } from './result-columns.ts';

export interface ColumnChooserProps {
  columns: readonly ShownColumn[];
  onToggle: (key: string, visible: boolean) => void;
  onReset: () => void;
  resetting: boolean;
}

/** Which columns the tab shows (spec §3: some hidden by default); the choice is kept per tab. */
export function ColumnChooser({ columns, onToggle, onReset, resetting }: ColumnChooserProps) {
  const shown = columns.filter((column) => column.visible).length;
  return (
    <Popover position="bottom-end" shadow="md" width={280} trapFocus withinPortal>
      <Popover.Target>
        <Button size="xs" variant="default" leftSection={<IconColumns3 size={14} />} data-testid="column-chooser">
          Columns ({shown}/{columns.length})
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          <Text size="sm" fw={600}>
            Show columns
          </Text>
          <ScrollArea.Autosize mah={360} type="auto">
            <Stack gap={6} role="group" aria-label="Columns to show">
              {columns.map((column) => (
                <Checkbox
                  key={column.key}
                  size="xs"
                  label={column.label}
                  checked={column.visible}
                  disabled={column.locked}
                  description={column.locked ? 'Shown while sorting by similarity' : undefined}
                  onChange={(event) => onToggle(column.key, event.currentTarget.checked)}
                />
              ))}
            </Stack>
          </ScrollArea.Autosize>
          <Divider />
          <Group justify="flex-end">
            <Button size="xs" variant="subtle" onClick={onReset} loading={resetting}>
              Reset columns
            </Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
