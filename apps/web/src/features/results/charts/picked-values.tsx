import { Group, Pill, Text } from '@mantine/core';
import type { ChartValue, PickMode, ValueLabels } from './chart-filters.ts';

interface PickedValuesProps {
  values: ChartValue[];
  mode: PickMode;
  labels: ValueLabels;
  onRemove: (value: ChartValue) => void;
}

/** The values picked on a chart, including those found with the value search beyond its bars. */
export function PickedValues({ values, mode, labels, onRemove }: PickedValuesProps) {
  if (values.length === 0) return null;
  return (
    <Group gap={4} data-testid="picked-values" data-mode={mode}>
      <Text size="xs" c={mode === 'exclude' ? 'red' : 'blue'} fw={600}>
        {mode === 'exclude' ? 'Exclude' : 'Include'}:
      </Text>
      {values.map((value) => {
        const label = labels.get(String(value)) ?? String(value);
        return (
          <Pill
            key={String(value)}
            size="xs"
            withRemoveButton
            onRemove={() => onRemove(value)}
            data-value={String(value)}
            removeButtonProps={{ 'aria-label': `Unpick ${label}` }}
          >
            {label}
          </Pill>
        );
      })}
    </Group>
  );
}
