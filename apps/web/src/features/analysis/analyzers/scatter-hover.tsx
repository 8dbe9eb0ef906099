import { Text } from '@mantine/core';
import type { z } from 'zod';
import type { ScatterDataSchema } from '@kb/contracts/analyzers';
import { StructureImage } from '../../chemistry/structure-image.tsx';
import { PointerCard } from './pointer-card.tsx';
import { formatMeasure, measureName } from './measure-format.ts';

type ScatterData = z.infer<typeof ScatterDataSchema>;

export interface ScatterHover {
  dataIndex: number;
  /** The pointer, in pixels of the chart's box. */
  x: number;
  y: number;
}

const CARD_W = 196;
const DRAWING_W = 180;
const DRAWING_H = 130;

/**
 * The point under the pointer as a chemist wants to see it: the molecule drawn, then its values
 * written as their quantities (DataWarrior shows the molecule too). Placed beside the pointer,
 * on the side with room; it never takes the pointer, so the brush keeps working under it.
 */
export function ScatterHoverCard({ data, hover, boxWidth }: { data: ScatterData; hover: ScatterHover; boxWidth: number }) {
  const point = data.points[hover.dataIndex];
  if (!point) return null;
  const rows: [string, string][] = [
    [measureName(data.x, data.endpoint), formatMeasure(point.x, data.x)],
    [measureName(data.y, data.endpoint), formatMeasure(point.y, data.y)],
    // A structure not measured on the colour's endpoint says so rather than a blank.
    ...(data.color
      ? ([[measureName(data.color, data.endpoint), point.c == null ? 'no value' : formatMeasure(point.c, data.color)]] as [
          string,
          string,
        ][])
      : []),
  ];
  return (
    <PointerCard x={hover.x} y={hover.y} boxWidth={boxWidth} width={CARD_W} above={40} testId="scatter-hover" strId={point.s}>
      {point.s !== null ? (
        <StructureImage strId={point.s} width={DRAWING_W} height={DRAWING_H} alt={`structure ${point.s}`} />
      ) : (
        <Text size="xs" c="dimmed">
          No structure recorded
        </Text>
      )}
      {point.s !== null && (
        <Text size="xs" fw={600}>
          Structure {point.s}
        </Text>
      )}
      {/* A measure on an axis and as the colour is written once. */}
      {rows
        .filter(([label], i) => rows.findIndex(([other]) => other === label) === i)
        .map(([label, value]) => (
          <Text key={label} size="xs">
            <Text span c="dimmed" size="xs">
              {label}:
            </Text>{' '}
            {value}
          </Text>
        ))}
    </PointerCard>
  );
}
