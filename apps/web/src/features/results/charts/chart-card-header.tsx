import { ActionIcon, Group, Loader, Menu, Text, Tooltip } from '@mantine/core';
import { IconArrowsSort, IconCheck, IconRefresh } from '@tabler/icons-react';
import { CHART_SORTS } from '@kb/contracts/charts';
import type { ChartSortKey } from '@kb/contracts/charts';

interface ChartCardHeaderProps {
  title: string;
  description: string;
  sort: ChartSortKey | null;
  onSort: (sort: ChartSortKey) => void;
  refreshing: boolean;
  failed: boolean;
  onRetry: () => void;
}

/** A chart's title, its sort menu (spec §9) and, after a failed load, a quiet retry. */
export function ChartCardHeader({ title, description, sort, onSort, refreshing, failed, onRetry }: ChartCardHeaderProps) {
  return (
    <Group justify="space-between" wrap="nowrap" gap={4}>
      <Tooltip label={description} withinPortal openDelay={400} multiline w={220}>
        <Text fw={600} size="sm" truncate component="h3" m={0}>
          {title}
        </Text>
      </Tooltip>
      <Group gap={2} wrap="nowrap">
        {refreshing && <Loader size={12} aria-label="Updating" />}
        {failed && (
          <Tooltip label="The chart could not be updated. Try again">
            <ActionIcon size="sm" variant="subtle" color="gray" onClick={onRetry} aria-label={`Reload ${title}`}>
              <IconRefresh size={14} />
            </ActionIcon>
          </Tooltip>
        )}
        {sort !== null && (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon size="sm" variant="subtle" color="gray" aria-label={`Sort ${title}`}>
                <IconArrowsSort size={14} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              {CHART_SORTS.map((option) => (
                <Menu.Item
                  key={option.key}
                  onClick={() => onSort(option.key)}
                  rightSection={option.key === sort ? <IconCheck size={12} /> : null}
                  aria-current={option.key === sort ? 'true' : undefined}
                >
                  {option.label}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
    </Group>
  );
}
