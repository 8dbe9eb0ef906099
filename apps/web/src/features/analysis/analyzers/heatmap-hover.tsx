import { Text } from '@mantine/core';
import type { z } from 'zod';
import type { HeatmapDataSchema } from '@kb/contracts/analyzers';
import { formatPchembl } from '../../../app/format/number-format.ts';
import { ACTIVITY } from '../../../app/format/nouns.ts';
import { countNoun } from '../../../app/format/plural.ts';
import { StructureImage } from '../../chemistry/structure-image.tsx';
import { PointerCard } from './pointer-card.tsx';

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
  return (
    <PointerCard x={hover.x} y={hover.y} boxWidth={boxWidth} width={CARD_W} above={60} testId="heatmap-hover" strId={compound.strId}>
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
    </PointerCard>
  );
}
