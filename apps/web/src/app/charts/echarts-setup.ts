import { BarChart } from 'echarts/charts';
import type { BarSeriesOption } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import type { GridComponentOption, TooltipComponentOption } from 'echarts/components';
import * as echarts from 'echarts/core';
import type { ComposeOption } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

// Only what the bar charts of the panel draw: the full build would add ~1 MB to the bundle.
// SVG rather than canvas: crisp at any zoom, and a few dozen bars are cheap as DOM nodes.
echarts.use([BarChart, GridComponent, TooltipComponent, SVGRenderer]);

export type BarChartOption = ComposeOption<BarSeriesOption | GridComponentOption | TooltipComponentOption>;
