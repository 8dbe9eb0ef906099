import { Group } from '@mantine/core';
import { useMemo, useState } from 'react';
import type { z } from 'zod';
import type { AnalyzerTab, ScatterConfigSchema, ScatterDataSchema } from '@kb/contracts/analyzers';
import type { AnalyzerChartOption } from './analyzer-echarts.ts';
import { useAnalyzerChart } from './analyzer-echarts.ts';
import { useEndpointOptions, useVisualization } from './analyzer-queries.ts';
import { CHART_PX, ChartFrame } from './chart-frame.tsx';
import { formatMeasure, measureAxisLabel, measureName } from './measure-format.ts';
import { MeasurePicker } from './measure-picker.tsx';
import type { PickedMeasure } from './measure-picker.tsx';
import type { ScatterHover } from './scatter-hover.tsx';
import { ScatterHoverCard } from './scatter-hover.tsx';
import type { BrushedRows } from './scatter-points.ts';
import { brushedRows, pointsInside, scatterNote } from './scatter-points.ts';

type ScatterConfig = z.infer<typeof ScatterConfigSchema>;
type ScatterData = z.infer<typeof ScatterDataSchema>;

function scatterOption(data: ScatterData): AnalyzerChartOption {
  const label = (m: ScatterData['x']) => measureName(m, data.endpoint);
  return {
    animation: false,
    // The colour legend gets a column of its own right of the plot, never over the points.
    grid: { left: 56, right: data.colorBounds ? 120 : 24, top: 36, bottom: 48 },
    toolbox: { right: data.colorBounds ? 120 : 24, feature: { brush: { type: ['rect', 'clear'], title: { rect: 'Select a rectangle', clear: 'Clear the selection' } } } },
    brush: { xAxisIndex: 0, yAxisIndex: 0, brushMode: 'single', throttleType: 'debounce', throttleDelay: 200, inBrush: { opacity: 1 }, outOfBrush: { opacity: 0.15 } },
    // The hover card (scatter-hover.tsx) shows the point with its drawing instead of ECharts' tooltip.
    xAxis: { type: 'value', name: label(data.x), nameLocation: 'middle', nameGap: 28, scale: true, min: data.xBounds?.min, max: data.xBounds?.max, axisLabel: measureAxisLabel(data.x) },
    yAxis: { type: 'value', name: label(data.y), nameLocation: 'middle', nameGap: 40, scale: true, min: data.yBounds?.min, max: data.yBounds?.max, axisLabel: measureAxisLabel(data.y) },
    ...(data.color && data.colorBounds
      ? {
          visualMap: {
            type: 'continuous',
            dimension: 2,
            min: data.colorBounds.min,
            max: data.colorBounds.max,
            right: 8,
            top: 'middle',
            itemHeight: 160,
            calculable: true,
            text: [label(data.color), ''],
            formatter: (value: number) => formatMeasure(value, data.color!),
            inRange: { color: ['#2c7bb6', '#ffffbf', '#d7191c'] },
            // Points without a colour value (a structure not measured on the endpoint) are drawn grey.
            outOfRange: { color: '#ced4da' },
          },
        }
      : {}),
    series: [
      {
        type: 'scatter',
        symbolSize: data.points.length > 5000 ? 3 : 6,
        large: data.points.length > 5000,
        itemStyle: { color: '#1c7ed6', opacity: 0.7 },
        data: data.points.map((p) => [p.x, p.y, p.c]),
      },
    ],
  } as AnalyzerChartOption;
}

/** The plot's name for a screen reader (and a test): what is on each axis and the colour, endpoint included. */
function scatterLabel(data: ScatterData): string {
  const name = (m: ScatterData['x']) => measureName(m, data.endpoint);
  return `Scatter plot of ${name(data.y)} against ${name(data.x)}${data.color ? `, coloured by ${name(data.color)}` : ''}`;
}

function ScatterChartView({ data, onSelect }: { data: ScatterData; onSelect: (rows: BrushedRows) => void }) {
  const option = useMemo(() => scatterOption(data), [data]);
  const [hover, setHover] = useState<ScatterHover | null>(null);
  const container = useAnalyzerChart(option, {
    brushOnStart: true,
    onBrush: (area) => onSelect(brushedRows(area ? pointsInside(data.points, area).map((p) => p.id) : [], data)),
    onHover: setHover,
  });
  return (
    <div style={{ position: 'relative' }}>
      <div ref={container} role="img" aria-label={scatterLabel(data)} data-testid="scatter-canvas" style={{ width: '100%', height: CHART_PX }} />
      {hover && <ScatterHoverCard data={data} hover={hover} boxWidth={container.current?.clientWidth ?? 0} />}
    </div>
  );
}

export function ScatterCard({
  sessionId,
  tab,
  config,
  onChange,
  onSelect,
}: {
  sessionId: string;
  tab: AnalyzerTab;
  config: ScatterConfig;
  onChange: (config: ScatterConfig) => void;
  onSelect: (rows: BrushedRows) => void;
}) {
  const query = useVisualization<'scatter'>(sessionId, tab, config);
  const endpoints = useEndpointOptions(sessionId, tab, tab === 'structuretab');
  const offered = endpoints.data?.endpoints ?? [];
  // The chart has one endpoint: picking pActivity of another on one axis moves the others that show pActivity to it.
  const pick = (axis: 'x' | 'y' | 'color') => (picked: PickedMeasure | null) => {
    const endpoint = picked?.endpoint ?? config.endpoint;
    const next = { ...config, [axis]: picked?.measure ?? null };
    const usesPActivity = [next.x, next.y, next.color].includes('pactivity');
    onChange({ ...next, endpoint: usesPActivity ? endpoint : null } as ScatterConfig);
  };
  const pickerProps = { tab, endpoints: offered, endpoint: query.data?.endpoint ?? config.endpoint };
  return (
    <ChartFrame
      title="Scatter"
      testId="analyzer-scatter"
      query={query}
      controls={
        <Group gap="xs">
          <MeasurePicker label="X axis" {...pickerProps} value={config.x} onPick={pick('x')} />
          <MeasurePicker label="Y axis" {...pickerProps} value={config.y} onPick={pick('y')} />
          <MeasurePicker label="Colour" {...pickerProps} nullable value={config.color} onPick={pick('color')} />
        </Group>
      }
      isEmpty={(data) => data.total === 0}
      empty={
        config.endpoint && [config.x, config.y].includes('pactivity')
          ? 'No structure of this tab has both values: none measured on this endpoint has the other value. Pick another endpoint or measure.'
          : 'No row of this tab has both values. Pick other measures.'
      }
      note={(data) => scatterNote(data, tab)}
    >
      {(data) => <ScatterChartView data={data} onSelect={onSelect} />}
    </ChartFrame>
  );
}
