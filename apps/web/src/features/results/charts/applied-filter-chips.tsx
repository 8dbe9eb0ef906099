import { Group, Pill, Text } from '@mantine/core';
import type { AppliedFilter } from '@kb/contracts/search';
import type { ValueLabels } from './chart-filters.ts';
import { describeFilter } from './chart-filters.ts';

interface AppliedFilterChipsProps {
  filters: AppliedFilter[];
  labelsOf: (chartKey: string) => ValueLabels;
  disabled: boolean;
  onRemove: (chartKey: string) => void;
}

/** The filters the server applies to this tab, one removable chip per chart. */
export function AppliedFilterChips({ filters, labelsOf, disabled, onRemove }: AppliedFilterChipsProps) {
  if (filters.length === 0) {
    return (
      <Text size="xs" c="dimmed" data-testid="no-filters">
        No filters on this tab. Pick values on a chart and press Apply.
      </Text>
    );
  }
  return (
    <Group gap={4} data-testid="applied-filters">
      {filters.map((filter) => {
        const text = describeFilter(filter, labelsOf(filter.chartKey));
        return (
          <Pill
            key={filter.chartKey}
            withRemoveButton={!disabled}
            onRemove={() => onRemove(filter.chartKey)}
            data-testid="applied-filter"
            data-chart={filter.chartKey}
            title={text}
            removeButtonProps={{ 'aria-label': `Remove filter ${text}` }}
            maw="100%"
          >
            {text}
          </Pill>
        );
      })}
    </Group>
  );
}
