import { Paper, Stack, Text } from '@mantine/core';
import type { z } from 'zod';
import type { HeatmapDataSchema } from '@kb/contracts/analyzers';
import { formatPchembl } from '../../../app/format/number-format.ts';
import { ACTIVITY } from '../../../app/format/nouns.ts';
import { countNoun } from '../../../app/format/plural.ts';
import { StructureImage } from '../../chemistry/structure-image.tsx';

type HeatmapData = z.infer<typeof HeatmapDataSchema>;

/** The cell under the pointer: its compound and target, its measurement if any, where the pointer is (px of the chart's box). */
export interface HeatmapHover {
  c: number;
  t: number;
  cell: HeatmapData['cells'][number] | null;
  x: number;
  y: number;
}

const CARD_W = 200;

/**
 * The hovered cell as a chemist reads it: the compound drawn, the target's full name, the median
 * pActivity and over how many activities — or that it was never measured there. Beside the
 * pointer, on the side with room; it never takes the pointer.
 */
export function HeatmapHoverCard({ data, hover, boxWidth }: { data: HeatmapData; hover: HeatmapHover; boxWidth: number }) {
  const compound = data.compounds[hover.c];
  const target = data.targets[hover.t];
  if (!compound || !target) return null;
  const left = hover.x + 16 + CARD_W > boxWidth ? Math.max(0, hover.x - 16 - CARD_W) : hover.x + 16;
  return (
    <Paper
      withBorder
      shadow="md"
      p={8}
      w={CARD_W}
      style={{ position: 'absolute', left, top: Math.max(0, hover.y - 60), pointerEvents: 'none', zIndex: 2 }}
      data-testid="heatmap-hover"
      data-str-id={compound.strId}
    >
      <Stack gap={4}>
        <StructureImage strId={compound.strId} width={184} height={120} alt={`structure ${compound.strId}`} />
        <Text size="xs" fw={600}>
          Compound {compound.strId}
        </Text>
        <Text size="xs">
          {target.name}
          {target.inSearch ? ' (the search’s rows)' : ''}
        </Text>
        <Text size="xs" c={hover.cell ? undefined : 'dimmed'}>
          {hover.cell
            ? `Median pActivity ${formatPchembl(hover.cell.value)} over ${countNoun(hover.cell.n, ACTIVITY)}`
            : 'No measurement on this target'}
        </Text>
      </Stack>
    </Paper>
  );
}
