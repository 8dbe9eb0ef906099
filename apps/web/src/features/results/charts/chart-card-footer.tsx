import { Anchor, Button, Group, SegmentedControl, Text } from '@mantine/core';
import type { ChartResponse } from '@kb/contracts/charts';
import { formatCount } from '../../../app/format/count-format.ts';
import { formatNumber } from '../../../app/format/number-format.ts';
import { countNoun } from '../../../app/format/plural.ts';
import type { PickMode } from './chart-filters.ts';
import { bareStyle, rangeStyle } from './range-format.ts';

interface ChartCardFooterProps {
  chart: ChartResponse | undefined;
  mode: PickMode | null;
  onMode: (mode: PickMode) => void;
  canApply: boolean;
  canClear: boolean;
  busy: boolean;
  onApply: () => void;
  onClear: () => void;
  onShowMore: (() => void) | null;
}

/** "N of M values" for the chart (Range: the span of its values, rounded, with the unit). */
export function valuesNote(chart: ChartResponse): string {
  if (chart.chartType === 'Range') {
    if (chart.min === null || chart.max === null) return 'No values';
    // The unit once, after the upper end: "12 values from 297.38 to 905.05 g/mol".
    const style = rangeStyle(chart.chartKey);
    return `${countNoun(chart.distinct, 'value')} from ${formatNumber(chart.min, bareStyle(style))} to ${formatNumber(chart.max, style)}`;
  }
  if (chart.chartType === 'Tree') return countNoun(chart.distinct, 'value');
  return `${formatCount(chart.chartData.length)} of ${countNoun(chart.distinct, 'value')}`;
}

/** Include / exclude, Apply and Clear for one chart, the count of its values and "show more". */
export function ChartCardFooter({ chart, mode, onMode, canApply, canClear, busy, onApply, onClear, onShowMore }: ChartCardFooterProps) {
  return (
    <>
      <Group justify="space-between" gap={4}>
        {chart ? (
          <Text size="xs" c="dimmed" data-testid="values-note">
            {valuesNote(chart)}
          </Text>
        ) : (
          <span />
        )}
        {onShowMore && (
          <Anchor component="button" type="button" size="xs" onClick={onShowMore}>
            Show more
          </Anchor>
        )}
      </Group>
      <Group justify="space-between" gap={4} wrap="nowrap">
        {mode ? (
          <SegmentedControl
            size="xs"
            value={mode}
            onChange={(value) => onMode(value as PickMode)}
            data={[
              { value: 'include', label: 'Include' },
              { value: 'exclude', label: 'Exclude' },
            ]}
            aria-label="Keep or leave out the picked values"
          />
        ) : (
          <span />
        )}
        <Group gap={4} wrap="nowrap">
          <Button size="compact-xs" variant="default" onClick={onClear} disabled={!canClear || busy}>
            Clear
          </Button>
          <Button size="compact-xs" onClick={onApply} disabled={!canApply} loading={busy && canApply}>
            Apply
          </Button>
        </Group>
      </Group>
    </>
  );
}
