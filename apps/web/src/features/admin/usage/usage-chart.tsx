import { Card, Group, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { formatCount } from '../../../app/format/count-format.ts';
import { dayLabel, spansYears } from '../admin-stats.ts';
import type { UsageChartOption } from './usage-echarts.ts';
import { useUsageChart } from './usage-echarts.ts';

export interface UsageSeries {
  name: string;
  values: readonly number[];
  kind: 'bar' | 'line';
  color: string;
  /** Bars of one stack are drawn on top of each other. */
  stack?: string;
}

/** The ECharts option of one usage chart: days (or weeks) along x, counts up y, a legend when there are several series. */
function usageChartOption(days: readonly string[], series: readonly UsageSeries[]): UsageChartOption {
  const withYear = spansYears(days);
  return {
    animation: false,
    grid: { left: 48, right: 16, top: series.length > 1 ? 32 : 12, bottom: 28 },
    legend: series.length > 1 ? { top: 0, data: series.map((s) => s.name) } : undefined,
    tooltip: { trigger: 'axis', valueFormatter: (value) => (typeof value === 'number' ? formatCount(value) : String(value)) },
    xAxis: { type: 'category', data: days.map((day) => dayLabel(day, withYear)), axisTick: { alignWithLabel: true } },
    yAxis: { type: 'value', minInterval: 1, axisLabel: { formatter: (value: number) => formatCount(value) } },
    series: series.map((s) =>
      s.kind === 'bar'
        ? { type: 'bar', name: s.name, data: [...s.values], stack: s.stack, itemStyle: { color: s.color }, barMaxWidth: 24 }
        : {
            type: 'line',
            name: s.name,
            data: [...s.values],
            showSymbol: days.length <= 31,
            itemStyle: { color: s.color },
            lineStyle: { color: s.color },
          },
    ),
  };
}

/**
 * A card with a title, the period's total and a chart. The figures are also given as text (the
 * total, and the chart's aria-label) for readers who cannot see the chart.
 */
export function UsageChart({
  title,
  total,
  days,
  series,
  testId,
  height = 220,
}: {
  title: string;
  total: string;
  days: readonly string[];
  series: readonly UsageSeries[];
  testId: string;
  height?: number;
}) {
  const option = useMemo(() => usageChartOption(days, series), [days, series]);
  const ref = useUsageChart(option);
  const description = `${title}: ${total}, ${days.length} points from ${days[0] ?? '—'} to ${days.at(-1) ?? '—'}.`;
  return (
    <Card withBorder radius="md" padding="md" data-testid={testId}>
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Title order={4} size="h5">
          {title}
        </Title>
        <Text size="sm" fw={600} data-testid={`${testId}-total`}>
          {total}
        </Text>
      </Group>
      <div ref={ref} style={{ height }} role="img" aria-label={description} data-points={days.length} />
    </Card>
  );
}
