import { BoxplotChart, HeatmapChart, BarChart, ScatterChart, TreemapChart } from 'echarts/charts';
import type { BarSeriesOption, BoxplotSeriesOption, HeatmapSeriesOption, ScatterSeriesOption, TreemapSeriesOption } from 'echarts/charts';
import { BrushComponent, GridComponent, LegendComponent, ToolboxComponent, TooltipComponent, VisualMapComponent } from 'echarts/components';
import type {
  BrushComponentOption,
  GridComponentOption,
  LegendComponentOption,
  ToolboxComponentOption,
  TooltipComponentOption,
  VisualMapComponentOption,
} from 'echarts/components';
import { use as registerEcharts } from 'echarts/core';
import type { ComposeOption } from 'echarts/core';
import { CanvasRenderer, SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { useChartInstance } from '../../results/charts/use-chart-instance.ts';

// The analyzers draw up to 20,000 points: canvas, not the results panel's SVG bars (one DOM node
// per point would be slow), plus the brush, heatmap, box plot and treemap pieces (loaded with this
// page only). The heatmap (at most 60 × 200 cells) is SVG, its labels part of the page.
registerEcharts([
  ScatterChart,
  BarChart,
  BoxplotChart,
  HeatmapChart,
  TreemapChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  VisualMapComponent,
  BrushComponent,
  ToolboxComponent,
  CanvasRenderer,
  SVGRenderer,
]);

export type AnalyzerChartOption = ComposeOption<
  | ScatterSeriesOption
  | BarSeriesOption
  | BoxplotSeriesOption
  | HeatmapSeriesOption
  | TreemapSeriesOption
  | GridComponentOption
  | TooltipComponentOption
  | LegendComponentOption
  | VisualMapComponentOption
  | BrushComponentOption
  | ToolboxComponentOption
>;

export interface AnalyzerChartEvents {
  /** A click on a datum: its series and index. */
  onClick?: (click: { seriesIndex: number; dataIndex: number }) => void;
  /** The brushed rectangle in data coordinates (null when the brush is cleared). */
  onBrush?: (area: { x: [number, number]; y: [number, number] } | null) => void;
  /** Turn the rectangle brush on with the chart (drag to select). */
  brushOnStart?: boolean;
  /** SVG for a chart of a few hundred marks whose labels a test measures (the heatmap); canvas (the default) for thousands of points. */
  renderer?: 'svg' | 'canvas';
  /** The pointer over a datum (its index and where, in pixels of the chart's box), or off every datum (null). */
  onHover?: (hover: { seriesIndex: number; dataIndex: number; x: number; y: number } | null) => void;
}

/** The brushed rectangle in data coordinates; the area, not ECharts' own list of points inside it: the points are the caller's to test. */
function brushArea(params: unknown): { x: [number, number]; y: [number, number] } | null {
  const areas = (params as { areas?: { coordRange?: [[number, number], [number, number]] }[] }).areas ?? [];
  const range = areas[0]?.coordRange;
  return range ? { x: range[0], y: range[1] } : null;
}

/**
 * The analyzers' chart (useChartInstance with a canvas, as the results panel's useECharts) plus the
 * brush: the brushed rectangle is reported, and the brush is on from the start when asked.
 */
export function useAnalyzerChart(option: AnalyzerChartOption, events: AnalyzerChartEvents = {}) {
  const handlers = useRef(events);
  useEffect(() => {
    handlers.current = events;
  });
  return useChartInstance(option, {
    renderer: events.renderer ?? 'canvas',
    onClick: events.onClick,
    listen: (instance) => {
      // brushEnd fires once per drag; `brush` with no area is the clear button.
      instance.on('brushEnd', (params) => handlers.current.onBrush?.(brushArea(params)));
      instance.on('brush', (params) => {
        if (!((params as { areas?: unknown[] }).areas ?? []).length) handlers.current.onBrush?.(null);
      });
      instance.on('mouseover', (params) => {
        const event = (params as { event?: { offsetX?: number; offsetY?: number } }).event;
        if (typeof params.dataIndex === 'number') {
          handlers.current.onHover?.({
            seriesIndex: params.seriesIndex ?? 0,
            dataIndex: params.dataIndex,
            x: event?.offsetX ?? 0,
            y: event?.offsetY ?? 0,
          });
        }
      });
      instance.on('mouseout', () => handlers.current.onHover?.(null));
      instance.on('globalout', () => handlers.current.onHover?.(null));
    },
    afterOption: (instance) => {
      if (handlers.current.brushOnStart) {
        instance.dispatchAction({ type: 'takeGlobalCursor', key: 'brush', brushOption: { brushType: 'rect', brushMode: 'single' } });
      }
    },
  });
}
