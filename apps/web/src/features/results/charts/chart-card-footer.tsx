import { Anchor, Button, Group, SegmentedControl, Text } from '@mantine/core';
import type { ChartResponse } from '@kb/contracts/charts';
import { formatCount } from '../../search/counts/count-format.ts';
import type { PickMode } from './chart-filters.ts';

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

/** "N of M values" for the chart (Range: the span of its values). */
export function valuesNote(chart: ChartResponse): string {
  if (chart.chartType === 'Range') {
    if (chart.min === null || chart.max === null) return 'No values';
    return `${formatCount(chart.distinct)} values from ${chart.min} to ${chart.max}`;
  }
  if (chart.chartType === 'Tree') return `${formatCount(chart.distinct)} values`;
  return `${formatCount(chart.chartData.length)} of ${formatCount(chart.distinct)} values`;
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
