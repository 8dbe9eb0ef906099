import { ActionIcon, Group, Modal, Text, Tooltip } from '@mantine/core';
import { IconMaximize } from '@tabler/icons-react';
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
type ScatterSeries = Extract<NonNullable<AnalyzerChartOption['series']>, readonly unknown[]>[number];

/** The point size of a crowded plot (more than 5,000 points, drawn in ECharts' large mode). */
const SMALLEST_POINT_PX = 6;
/** The plot's height in its card (it spans the board's width): taller than the other charts' CHART_PX. */
const SCATTER_PX = Math.round(CHART_PX * 1.25);

/**
 * The points as ECharts series: with a colour, the points without a colour value (a structure not
 * measured on the endpoint) are a grey series of their own under the coloured one — ECharts' colour
 * scale would not draw them at all. `pointIndex[series][i]` is the point's index in `data.points`.
 */
/** Points of a crowded plot (more than 5,000, in ECharts' large mode) are smaller, never under 6 px: a smaller one cannot be seen, let alone hovered. */
function pointPx(data: ScatterData): number {
  return data.points.length > 5000 ? SMALLEST_POINT_PX : 8;
}

function scatterSeries(data: ScatterData): { series: ScatterSeries[]; pointIndex: number[][] } {
  const all = data.points.map((_, i) => i);
  const grey = data.color ? all.filter((i) => data.points[i]!.c === null) : [];
  const coloured = data.color ? all.filter((i) => data.points[i]!.c !== null) : all;
  const large = data.points.length > 5000;
  const series = (indexes: number[], color: string): ScatterSeries => ({
    type: 'scatter',
    symbolSize: pointPx(data),
    large,
    itemStyle: { color, opacity: 0.7 },
    data: indexes.map((i) => [data.points[i]!.x, data.points[i]!.y, data.points[i]!.c ?? 0]),
  });
  return { series: [series(grey, '#ced4da'), series(coloured, '#1c7ed6')], pointIndex: [grey, coloured] };
}

function scatterOption(data: ScatterData, series: ScatterSeries[]): AnalyzerChartOption {
  const label = (m: ScatterData['x']) => measureName(m, data.endpoint);
  const legendRight = data.colorBounds ? 130 : 24;
  return {
    animation: false,
    // The colour legend gets a column of its own right of the plot, never over the points.
    grid: { left: 56, right: legendRight, top: 36, bottom: 48 },
    toolbox: {
      right: legendRight,
      feature: { brush: { type: ['rect', 'clear'], title: { rect: 'Select a rectangle', clear: 'Clear the selection' } } },
    },
    brush: {
      xAxisIndex: 0,
      yAxisIndex: 0,
      brushMode: 'single',
      throttleType: 'debounce',
      throttleDelay: 200,
      inBrush: { opacity: 1 },
      outOfBrush: { opacity: 0.15 },
    },
    // The hover card (scatter-hover.tsx) shows the point with its drawing instead of ECharts' tooltip.
    xAxis: {
      type: 'value',
      name: label(data.x),
      nameLocation: 'middle',
      nameGap: 28,
      scale: true,
      min: data.xBounds?.min,
      max: data.xBounds?.max,
      // Bounds at the data's own extremes (272.31) sit a hair from the next round tick (300): not written.
      axisLabel: { ...measureAxisLabel(data.x), showMinLabel: !data.xBounds, showMaxLabel: !data.xBounds },
    },
    yAxis: {
      type: 'value',
      name: label(data.y),
      nameLocation: 'middle',
      nameGap: 40,
      scale: true,
      min: data.yBounds?.min,
      max: data.yBounds?.max,
      // Bounds at the data's own extremes (272.31) sit a hair from the next round tick (300): not written.
      axisLabel: { ...measureAxisLabel(data.y), showMinLabel: !data.yBounds, showMaxLabel: !data.yBounds },
    },
    ...(data.color && data.colorBounds
      ? {
          visualMap: {
            type: 'continuous',
            dimension: 2,
            seriesIndex: 1,
            min: data.colorBounds.min,
            max: data.colorBounds.max,
            right: 8,
            top: 'middle',
            itemHeight: 160,
            calculable: true,
            // A long endpoint name does not fit the legend's column: the caption above the plot names it in full.
            text: [data.color === 'pactivity' ? 'pActivity' : label(data.color), ''],
            formatter: (value: number) => formatMeasure(value, data.color!),
            inRange: { color: ['#2c7bb6', '#ffffbf', '#d7191c'] },
          },
        }
      : {}),
    series,
  } as AnalyzerChartOption;
}

/** The plot's name for a screen reader (and a test): what is on each axis and the colour, endpoint included. */
function scatterLabel(data: ScatterData): string {
  const name = (m: ScatterData['x']) => measureName(m, data.endpoint);
  return `Scatter plot of ${name(data.y)} against ${name(data.x)}${data.color ? `, coloured by ${name(data.color)}` : ''}`;
}

function ScatterChartView({
  data,
  onSelect,
  height = SCATTER_PX,
  testId = 'scatter-canvas',
}: {
  data: ScatterData;
  onSelect: (rows: BrushedRows) => void;
  /** Pixels, or a CSS length (full screen: the window's height less the modal's title). */
  height?: number | string;
  testId?: string;
}) {
  const { option, pointIndex } = useMemo(() => {
    const { series, pointIndex } = scatterSeries(data);
    return { option: scatterOption(data, series), pointIndex };
  }, [data]);
  const [hover, setHover] = useState<ScatterHover | null>(null);
  const container = useAnalyzerChart(option, {
    brushOnStart: true,
    onBrush: (area) => onSelect(brushedRows(area ? pointsInside(data.points, area).map((p) => p.id) : [], data)),
    // The hovered datum as an index into data.points (the grey and coloured series each hold some of them).
    onHover: (at) => setHover(at && { dataIndex: pointIndex[at.seriesIndex]?.[at.dataIndex] ?? -1, x: at.x, y: at.y }),
  });
  return (
    <div style={{ position: 'relative' }}>
      {data.color && (
        <Text size="xs" c="dimmed" ta="right" data-testid="scatter-colour-caption">
          Colour: {measureName(data.color, data.endpoint)}
          {data.colorMissing > 0 ? ' (grey: no value)' : ''}
        </Text>
      )}
      <div
        ref={container}
        role="img"
        aria-label={scatterLabel(data)}
        data-testid={testId}
        data-point-px={pointPx(data)}
        style={{ width: '100%', height }}
      />
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
  const [fullScreen, setFullScreen] = useState(false);
  const hasPoints = (query.data?.total ?? 0) > 0;
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
          <Tooltip label="Open full screen">
            <ActionIcon
              variant="default"
              size="lg"
              aria-label="Open the scatter full screen"
              disabled={!hasPoints}
              onClick={() => setFullScreen(true)}
              style={{ alignSelf: 'flex-end' }}
            >
              <IconMaximize size={18} />
            </ActionIcon>
          </Tooltip>
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
      {(data) => (
        <>
          <ScatterChartView data={data} onSelect={onSelect} />
          {/* The same plot over the whole window: brushing there selects as on the card. */}
          <Modal
            opened={fullScreen}
            onClose={() => setFullScreen(false)}
            fullScreen
            title={scatterLabel(data)}
            data-testid="scatter-full-screen"
          >
            <ScatterChartView data={data} onSelect={onSelect} height="calc(100vh - 110px)" testId="scatter-canvas-full" />
          </Modal>
        </>
      )}
    </ChartFrame>
  );
}
