import type { ChartItem } from '@kb/contracts/charts';

/** Range bins: about 20 of them, a round width (1, 2, 5 × 10^k; whole years for years). */
function binWidth(min: number, max: number, integer: boolean): number {
  const span = max - min;
  if (span <= 0) return 1;
  const raw = span / 20;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((w) => w >= raw) ?? 10 * power;
  return integer ? Math.max(1, Math.round(step)) : step;
}

/** A Range chart's answer without its row count. */
export interface RangeAnswer {
  chartData: ChartItem[];
  distinct: number;
  min: number | null;
  max: number | null;
}

export interface RangeLayout {
  start: number;
  width: number;
  integer: boolean;
}

/** Where the bins of values from `lo` to `hi` start and how wide they are. */
export function rangeLayout(lo: number, hi: number, integer: boolean): RangeLayout {
  const width = binWidth(lo, hi, integer);
  return { start: Math.floor(lo / width) * width, width, integer };
}

/** A value's bin: the arithmetic of SQL's `floor((value - start) / width)` (chart-service.ts). */
export function binOf(layout: RangeLayout, value: number): number {
  return Math.floor((value - layout.start) / layout.width);
}

/** Chart items of counted bins, in order and labelled. */
export function binItems(layout: RangeLayout, bins: Iterable<[bin: number, count: number]>): ChartItem[] {
  const { start, width, integer } = layout;
  const round = (x: number) => Number(x.toPrecision(12));
  return [...bins]
    .sort((a, b) => a[0] - b[0])
    .map(([bin, n]) => {
      const from = round(start + bin * width);
      const to = round(from + width);
      return { id: `${from}`, label: integer && width === 1 ? String(from) : `${from} – ${to}`, count: n, from, to };
    });
}
