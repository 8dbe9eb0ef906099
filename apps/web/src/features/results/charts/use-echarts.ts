import type { BarChartOption } from '../../../app/charts/echarts-setup.ts';
import '../../../app/charts/echarts-setup.ts';
import { useChartInstance } from './use-chart-instance.ts';

/** What a click on a chart element tells: the index of the datum in its series. */
export interface ChartClick {
  dataIndex: number;
}

/**
 * The results panel's bar charts (SVG: a few bars, crisp): an ECharts instance on a div that
 * follows `option` (useChartInstance). Answers the ref to put on the div (which needs a height).
 */
export function useECharts(option: BarChartOption, onClick?: (click: ChartClick) => void) {
  return useChartInstance(option, { renderer: 'svg', onClick: onClick ? ({ dataIndex }) => onClick({ dataIndex }) : undefined });
}
