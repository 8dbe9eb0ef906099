import { BarChart, LineChart } from 'echarts/charts';
import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components';
import { use as registerEcharts } from 'echarts/core';
import type { ComposeOption } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useChartInstance } from '../../results/charts/use-chart-instance.ts';

// Lines and bars of at most a few hundred points (a day each over up to two years): SVG, crisp and
// cheap at this size. Loaded with the usage pages only.
registerEcharts([LineChart, BarChart, GridComponent, TooltipComponent, LegendComponent, SVGRenderer]);

export type UsageChartOption = ComposeOption<
  LineSeriesOption | BarSeriesOption | GridComponentOption | TooltipComponentOption | LegendComponentOption
>;

/** An ECharts instance for the usage pages' charts (useChartInstance with SVG); put the ref on a div with a height. */
export function useUsageChart(option: UsageChartOption) {
  return useChartInstance(option, { renderer: 'svg' });
}
