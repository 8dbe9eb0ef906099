import { SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import type { ChartItem } from '@kb/contracts/charts';
import { StructureImage } from '../../chemistry/structure-image.tsx';
import { formatCount } from '../../../app/format/count-format.ts';
import type { ChartValue, PickMode } from './chart-filters.ts';
import { hasValue } from './chart-filters.ts';
import { BAR_COLORS } from './bar-options.ts';
import { countNoun } from '../../../app/format/plural.ts';

interface ImageChartProps {
  items: ChartItem[];
  picked: ChartValue[];
  mode: PickMode;
  onToggle: (item: ChartItem) => void;
}

const TILE_W = 88;
const TILE_H = 66;

/** An Image chart: the structures with the most rows, drawn, each with its count; clicking one picks it. */
export function ImageChart({ items, picked, mode, onToggle }: ImageChartProps) {
  return (
    <SimpleGrid cols={3} spacing={6} verticalSpacing={6}>
      {items.map((item) => {
        const isPicked = hasValue(picked, item.id);
        const strId = Number(item.id);
        return (
          <UnstyledButton
            key={String(item.id)}
            onClick={() => onToggle(item)}
            aria-pressed={isPicked}
            aria-label={`${item.label}: ${countNoun(item.count, 'row')}`}
            data-value={String(item.id)}
            style={{ border: `2px solid ${isPicked ? BAR_COLORS[mode] : 'var(--mantine-color-gray-3)'}`, borderRadius: 6, padding: 2 }}
          >
            <Stack gap={0} align="center">
              {Number.isInteger(strId) && strId > 0 ? (
                <StructureImage strId={strId} width={TILE_W} height={TILE_H} alt={item.label} />
              ) : (
                <Text size="xs" h={TILE_H} w={TILE_W} ta="center">
                  {item.label}
                </Text>
              )}
              <Text size="xs" fw={600}>
                {formatCount(item.count)}
              </Text>
            </Stack>
          </UnstyledButton>
        );
      })}
    </SimpleGrid>
  );
}
