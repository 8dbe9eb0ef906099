import { Group, SegmentedControl, Select } from '@mantine/core';
import { useMemo, useState } from 'react';
import type { z } from 'zod';
import type { AnalyzerTab, DistributionConfigSchema, DistributionDataSchema } from '@kb/contracts/analyzers';
import { ANALYZER_GROUPINGS, ANALYZER_MEASURE_LABELS } from '@kb/contracts/analyzers';
import { countNoun } from '../../../app/format/plural.ts';
import type { AnalyzerChartOption } from './analyzer-echarts.ts';
import { useAnalyzerChart } from './analyzer-echarts.ts';
import { useVisualization } from './analyzer-queries.ts';
import { CHART_PX, ChartFrame } from './chart-frame.tsx';
import { formatMeasure, formatMeasureBin, measureAxisLabel } from './measure-format.ts';
import { MeasurePicker } from './measure-picker.tsx';

type DistributionConfig = z.infer<typeof DistributionConfigSchema>;
type DistributionData = z.infer<typeof DistributionDataSchema>;

const GROUPING_LABELS: Record<DistributionConfig['groupBy'], string> = {
  target: 'Target',
  assayType: 'Assay type',
  year: 'Year',
  activityType: 'Activity type',
};

const short = (label: string) => (label.length > 28 ? `${label.slice(0, 27)}…` : label);

function boxOption(data: DistributionData): AnalyzerChartOption {
  return {
    animation: false,
    grid: { left: 56, right: 24, top: 24, bottom: 96 },
    tooltip: {
      trigger: 'item',
      formatter: (p: unknown) => {
        const g = data.groups[(p as { dataIndex: number }).dataIndex]!;
        const f = (value: number) => formatMeasure(value, data.measure);
        return `${g.label} (${countNoun(g.count, 'value')})<br/>min ${f(g.min)} · Q1 ${f(g.q1)} · median ${f(g.median)} · Q3 ${f(g.q3)} · max ${f(g.max)}`;
      },
    },
    xAxis: { type: 'category', data: data.groups.map((g) => short(g.label)), axisLabel: { rotate: 35, interval: 0 } },
    yAxis: { type: 'value', name: ANALYZER_MEASURE_LABELS[data.measure], scale: true, axisLabel: measureAxisLabel(data.measure) },
    series: [{ type: 'boxplot', data: data.groups.map((g) => [g.min, g.q1, g.median, g.q3, g.max]) }],
  } as AnalyzerChartOption;
}

function histogramOption(data: DistributionData): AnalyzerChartOption {
  const bins = data.edges.slice(0, -1).map((from, i) => formatMeasureBin(from, data.edges[i + 1], data.measure));
  return {
    animation: false,
    grid: { left: 56, right: 24, top: 56, bottom: 64 },
    legend: { type: 'scroll', top: 0, data: data.groups.map((g) => short(g.label)) },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: {
      type: 'category',
      data: bins,
      name: ANALYZER_MEASURE_LABELS[data.measure],
      nameLocation: 'middle',
      nameGap: 44,
      axisLabel: { rotate: 30 },
    },
    yAxis: { type: 'value', name: 'Values' },
    series: data.groups.map((g) => ({ type: 'bar', stack: 'all', name: short(g.label), data: g.histogram })),
  } as AnalyzerChartOption;
}

function DistributionChartView({ data, view }: { data: DistributionData; view: 'box' | 'histogram' }) {
  const option = useMemo(() => (view === 'box' ? boxOption(data) : histogramOption(data)), [data, view]);
  const container = useAnalyzerChart(option);
  return (
    <div
      ref={container}
      role="img"
      aria-label={view === 'box' ? 'Box plots per group' : 'Histogram per group'}
      style={{ width: '100%', height: CHART_PX }}
    />
  );
}

export function DistributionCard({
  sessionId,
  tab,
  config,
  onChange,
}: {
  sessionId: string;
  tab: AnalyzerTab;
  config: DistributionConfig;
  onChange: (config: DistributionConfig) => void;
}) {
  const query = useVisualization<'distribution'>(sessionId, tab, config);
  const [view, setView] = useState<'box' | 'histogram'>('box');
  return (
    <ChartFrame
      title="Distributions"
      testId="analyzer-distribution"
      query={query}
      controls={
        <Group gap="xs" align="flex-end">
          <MeasurePicker label="Measure" tab={tab} value={config.measure} onChange={(measure) => onChange({ ...config, measure })} />
          <Select
            label="Group by"
            size="xs"
            w={150}
            allowDeselect={false}
            data={ANALYZER_GROUPINGS.map((g) => ({ value: g, label: GROUPING_LABELS[g] }))}
            value={config.groupBy}
            onChange={(groupBy) => groupBy && onChange({ ...config, groupBy: groupBy as DistributionConfig['groupBy'] })}
          />
          <SegmentedControl
            size="xs"
            aria-label="Chart type"
            value={view}
            onChange={(next) => setView(next as 'box' | 'histogram')}
            data={[
              { value: 'box', label: 'Box plot' },
              { value: 'histogram', label: 'Histogram' },
            ]}
          />
        </Group>
      }
      isEmpty={(data) => data.groups.length === 0}
      empty={`No activity of this tab has a ${ANALYZER_MEASURE_LABELS[config.measure]} value.`}
      note={(data) =>
        `The ${countNoun(data.groups.length, 'largest group')} by ${GROUPING_LABELS[data.groupBy].toLowerCase()}${data.otherGroups > 0 ? `; ${countNoun(data.otherGroups, 'smaller group')} not shown` : ''}.`
      }
    >
      {(data) => <DistributionChartView data={data} view={view} />}
    </ChartFrame>
  );
}
