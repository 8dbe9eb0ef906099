import { format } from 'echarts/core';
import type { ChartItem } from '@kb/contracts/charts';
import { formatCount } from '../../../app/format/count-format.ts';
import type { NumberStyle } from '../../../app/format/number-format.ts';
import { pluralNoun } from '../../../app/format/plural.ts';
import { targetLabel } from '../../../app/format/target-label.ts';
import type { ChartValue, PickMode } from './chart-filters.ts';
import { hasValue } from './chart-filters.ts';
import type { BarChartOption } from '../../../app/charts/echarts-setup.ts';
import { binLabel, binTick } from './range-format.ts';

/** Bar colours (Mantine blue / red): a bar's colour says whether it is picked, and for what. */
export const BAR_COLORS = {
  plain: '#4dabf7',
  include: '#1864ab',
  exclude: '#e03131',
  /** The other bars while some are included: still clickable, visibly not in the selection. */
  dimmed: '#c5e3fb',
} as const;

export const BAR_ROW_PX = 24;
const LABEL_WIDTH_PX = 130;

/** The colour of one bar given the picks: with an exclusion the other bars are the ones kept, so they stay plain. */
export function barColor(picked: boolean, anyPicked: boolean, mode: PickMode): string {
  if (picked) return BAR_COLORS[mode];
  return anyPicked && mode === 'include' ? BAR_COLORS.dimmed : BAR_COLORS.plain;
}

/**
 * A bar's label on its axis: the short label the server sends for crowded names (a target's gene
 * symbol, else the target's name cut to its distinguishing last words), or the label itself.
 */
export function barLabel(item: ChartItem): string {
  return item.short === undefined ? item.label : targetLabel(item.label, item.short);
}

/** The full name of a value, with its short label first when the axis shows that instead: "JAK2 · Tyrosine-protein kinase JAK2". */
export function fullLabel(item: ChartItem): string {
  return item.short && item.short !== item.label ? `${item.short} · ${item.label}` : item.label;
}

/** Tooltips are HTML: labels come from the knowledge base and must not become markup. */
function tooltipText(item: ChartItem): string {
  return `${format.encodeHTML(fullLabel(item))}<br/><b>${formatCount(item.count)}</b> ${pluralNoun(item.count, 'row')}`;
}

/**
 * Horizontal bars of a List chart, in the server's order from the top. Categories are the item
 * indexes, not the labels: two values may share a label (two references with one title) and must
 * stay two bars.
 */
export function listChartOption(items: readonly ChartItem[], picked: readonly ChartValue[], mode: PickMode): BarChartOption {
  const anyPicked = picked.length > 0;
  return {
    animation: false,
    grid: { left: 4, right: 44, top: 4, bottom: 4 },
    xAxis: { type: 'value', show: false },
    yAxis: {
      type: 'category',
      inverse: true,
      data: items.map((_, index) => String(index)),
      axisTick: { show: false },
      axisLabel: {
        width: LABEL_WIDTH_PX,
        overflow: 'truncate',
        formatter: (_value: string, index: number) => (items[index] ? barLabel(items[index]) : ''),
      },
    },
    tooltip: { trigger: 'item', confine: true, formatter: (params) => tooltipText(items[(params as { dataIndex: number }).dataIndex]!) },
    series: [
      {
        type: 'bar',
        barMaxWidth: 16,
        cursor: 'pointer',
        label: { show: true, position: 'right', formatter: (params) => formatCount(Number(params.value)) },
        data: items.map((item) => ({ value: item.count, itemStyle: { color: barColor(hasValue(picked, item.id), anyPicked, mode) } })),
      },
    ],
  };
}

/** True when a bin overlaps [min, max] (a null bound is open). */
export function binInRange(item: ChartItem, min: number | null, max: number | null): boolean {
  const from = item.from ?? Number.NEGATIVE_INFINITY;
  const to = item.to ?? Number.POSITIVE_INFINITY;
  return (max === null || from <= max) && (min === null || to > min);
}

/** The histogram of a Range chart; bins inside the chosen range are darker. Ticks and tooltips round the bin edges. */
export function rangeChartOption(
  items: readonly ChartItem[],
  min: number | null,
  max: number | null,
  style: NumberStyle = {},
): BarChartOption {
  const anyBound = min !== null || max !== null;
  const tooltipOf = (index: number) => {
    const item = items[index];
    return item ? tooltipText({ ...item, label: binLabel(item, style) }) : '';
  };
  return {
    animation: false,
    grid: { left: 4, right: 4, top: 8, bottom: 4 },
    xAxis: {
      type: 'category',
      data: items.map((_, index) => String(index)),
      axisTick: { show: false },
      axisLabel: {
        hideOverlap: true,
        fontSize: 10,
        formatter: (_value: string, index: number) => (items[index] ? binTick(items[index], style) : ''),
      },
    },
    yAxis: { type: 'value', show: false },
    tooltip: { trigger: 'item', confine: true, formatter: (params) => tooltipOf((params as { dataIndex: number }).dataIndex) },
    series: [
      {
        type: 'bar',
        barCategoryGap: '8%',
        data: items.map((item) => ({
          value: item.count,
          itemStyle: { color: barColor(anyBound && binInRange(item, min, max), anyBound, 'include') },
        })),
      },
    ],
  };
}
