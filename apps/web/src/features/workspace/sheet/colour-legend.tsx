import { Box, Group, Text } from '@mantine/core';
import { PACTIVITY_RANGE, scaleGradient } from './colour-scale.ts';

/** The key to the cell colours: pActivity's fixed scale, and how the other columns are coloured. */
export function ColourLegend() {
  return (
    <Group gap={8} wrap="nowrap" data-testid="sheet-legend">
      <Text size="xs" c="dimmed">
        pActivity
      </Text>
      <Text size="xs">{PACTIVITY_RANGE.min}</Text>
      <Box
        w={120}
        h={12}
        style={{ background: scaleGradient(), borderRadius: 3, border: '1px solid var(--mantine-color-gray-3)' }}
        aria-hidden
      />
      <Text size="xs">{PACTIVITY_RANGE.max}</Text>
      <Text size="xs" c="dimmed">
        · differences centred on 0 · other measures over this page
      </Text>
    </Group>
  );
}
