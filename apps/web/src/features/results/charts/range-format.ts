import type { ChartItem } from '@kb/contracts/charts';
import type { NumberStyle } from '../../../app/format/number-format.ts';
import { formatNumber, formatNumberRange } from '../../../app/format/number-format.ts';

/**
 * How each Range chart's values read: years without separators, molecular weight in g/mol
 * (average molecular weight, spec §9 structure properties), cLogP bare. Unknown charts: plain numbers.
 */
const RANGE_STYLES: Readonly<Record<string, NumberStyle>> = {
  year: { grouping: false },
  molweight: { unit: 'g/mol' },
  logp: {},
};

export function rangeStyle(chartKey: string): NumberStyle {
  return RANGE_STYLES[chartKey] ?? {};
}

/** The style without its unit: for axis ticks and inputs, where the unit is said once elsewhere. */
export function bareStyle(style: NumberStyle): NumberStyle {
  return { ...style, unit: undefined };
}

/** A value of a Range chart with its unit: "297.38 g/mol". */
export function formatRangeValue(chartKey: string, value: number | null | undefined): string {
  return formatNumber(value, rangeStyle(chartKey));
}

/** A histogram tick: the bin's lower edge, rounded, no unit. */
export function binTick(item: ChartItem, style: NumberStyle): string {
  return item.from == null ? item.label : formatNumber(item.from, bareStyle(style));
}

/**
 * The label of a Range bin: one value when the bin holds one whole number ("2015"), else its
 * edges ("300–350 g/mol"). The server's label is used only for bins without edges.
 */
export function binLabel(item: ChartItem, style: NumberStyle = {}): string {
  if (item.from == null || item.to == null) return item.label;
  if (Number.isInteger(item.from) && item.to - item.from === 1) return formatNumber(item.from, style);
  return formatNumberRange(item.from, item.to, style);
}
