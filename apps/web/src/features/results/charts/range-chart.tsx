import { Group, NumberInput, RangeSlider, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import type { ChartResponse } from '@kb/contracts/charts';
import { formatNumber } from '../../../app/format/number-format.ts';
import { rangeChartOption } from './bar-options.ts';
import type { ChartDraft } from './chart-filters.ts';
import { draftProblem } from './chart-filters.ts';
import { boundAfterDrag, hasWholeBins, rangeStep } from './chart-options.ts';
import { bareStyle, formatRangeValue, rangeStyle } from './range-format.ts';
import { useECharts } from './use-echarts.ts';

const HISTOGRAM_PX = 96;

interface RangeChartProps {
  chart: ChartResponse;
  draft: ChartDraft;
  onChange: (bounds: { min: number | null; max: number | null }) => void;
}

function Histogram({ chart, min, max }: { chart: ChartResponse; min: number | null; max: number | null }) {
  const option = useMemo(
    () => rangeChartOption(chart.chartData, min, max, rangeStyle(chart.chartKey)),
    [chart.chartData, chart.chartKey, min, max],
  );
  const container = useECharts(option);
  return (
    <div
      ref={container}
      data-testid="histogram"
      role="img"
      aria-label={`${chart.chartLabel} histogram`}
      style={{ width: '100%', height: HISTOGRAM_PX }}
    />
  );
}

/** The number a NumberInput answers, or null when it is empty or not a number yet ("-", "1e"). */
function boundOf(value: string | number): number | null {
  if (value === '' || value === null) return null;
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(number) ? number : null;
}

/** A Range chart: the histogram of its bins, then the range to keep, set with the slider or typed. */
export function RangeChart({ chart, draft, onChange }: RangeChartProps) {
  const low = chart.min ?? 0;
  const high = chart.max ?? low;
  const step = rangeStep(low, high, hasWholeBins(chart.chartData));
  const problem = draftProblem(draft);
  const clamp = (value: number) => Math.min(high, Math.max(low, value));
  const sliderValue: [number, number] = [clamp(draft.min ?? low), clamp(draft.max ?? high)];
  const label = chart.chartLabel;
  return (
    <Stack gap={6}>
      <Histogram chart={chart} min={draft.min} max={draft.max} />
      {high > low && (
        <RangeSlider
          min={low}
          max={high}
          step={step}
          minRange={0}
          value={sliderValue}
          onChange={([from, to]) => onChange({ min: boundAfterDrag(from, low, draft.min), max: boundAfterDrag(to, high, draft.max) })}
          label={(value) => formatRangeValue(chart.chartKey, value)}
          aria-label={`${label} range`}
          thumbFromLabel={`${label} minimum`}
          thumbToLabel={`${label} maximum`}
          size="sm"
        />
      )}
      <Group gap="xs" grow wrap="nowrap">
        <NumberInput
          size="xs"
          label="Minimum"
          aria-label={`${label} minimum value`}
          placeholder={formatNumber(low, bareStyle(rangeStyle(chart.chartKey)))}
          value={draft.min ?? ''}
          step={step}
          onChange={(value) => onChange({ min: boundOf(value), max: draft.max })}
          error={problem ? true : undefined}
        />
        <NumberInput
          size="xs"
          label="Maximum"
          aria-label={`${label} maximum value`}
          placeholder={formatNumber(high, bareStyle(rangeStyle(chart.chartKey)))}
          value={draft.max ?? ''}
          step={step}
          onChange={(value) => onChange({ min: draft.min, max: boundOf(value) })}
          error={problem ? true : undefined}
        />
      </Group>
      {problem && (
        <Text size="xs" c="red" role="alert">
          {problem}
        </Text>
      )}
    </Stack>
  );
}
