/**
 * The colour of a sheet cell on its column's scale: viridis (perceptually even, readable by most
 * colour-blind readers) from low (dark blue-violet) to high (yellow), mixed with white so that the
 * dark numbers stay readable on every step. pActivity sits on one fixed scale, 4 to 10 (100 µM to
 * 0.1 nM), so a colour means the same potency in every column, page and sort — a range over the
 * page made 4.50 and 4.51 look far apart. Differences are centred on 0 (at least ±2); other
 * measures (%, …) span the values on screen.
 */

/** Viridis at nine even steps (matplotlib's table). */
const VIRIDIS: readonly (readonly [number, number, number])[] = [
  [68, 1, 84],
  [71, 44, 122],
  [59, 81, 139],
  [44, 113, 142],
  [33, 144, 141],
  [39, 173, 129],
  [92, 200, 99],
  [170, 220, 50],
  [253, 231, 37],
];

/** How much of the viridis colour is kept (the rest is white): enough to see, light enough to read. */
const STRENGTH = 0.45;

export interface ColumnRange {
  min: number;
  max: number;
}

/** The smallest and largest finite values, or null when there are none. */
function columnRange(values: readonly (number | null | undefined)[]): ColumnRange | null {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const value of values) {
    if (value === null || value === undefined || !Number.isFinite(value)) continue;
    min = Math.min(min, value);
    max = Math.max(max, value);
  }
  return min <= max ? { min, max } : null;
}

/** pActivity's fixed scale (widened when a value lies outside it). */
export const PACTIVITY_RANGE: ColumnRange = { min: 4, max: 10 };
const DIFFERENCE_HALF_WIDTH = 2;

export type ColumnKind = 'pactivity' | 'difference' | 'other';

/** The range a column's colours span, from its kind and the values on screen (null: nothing to colour). */
export function columnScale(kind: ColumnKind, values: readonly (number | null | undefined)[]): ColumnRange | null {
  const range = columnRange(values);
  if (!range) return null;
  if (kind === 'pactivity') return { min: Math.min(PACTIVITY_RANGE.min, range.min), max: Math.max(PACTIVITY_RANGE.max, range.max) };
  if (kind === 'difference') {
    const half = Math.max(DIFFERENCE_HALF_WIDTH, Math.abs(range.min), Math.abs(range.max));
    return { min: -half, max: half };
  }
  return range;
}

/** The viridis colour at `t` (0–1), as [r, g, b]. */
export function viridisAt(t: number): [number, number, number] {
  const clamped = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0));
  const position = clamped * (VIRIDIS.length - 1);
  const low = Math.floor(position);
  const high = Math.min(VIRIDIS.length - 1, low + 1);
  const share = position - low;
  const a = VIRIDIS[low]!;
  const b = VIRIDIS[high]!;
  return [0, 1, 2].map((i) => Math.round(a[i]! + (b[i]! - a[i]!) * share)) as [number, number, number];
}

/** The cell background for `value` on `range` (a column of one value sits in the middle). */
export function cellColour(value: number | null | undefined, range: ColumnRange | null): string | undefined {
  if (value === null || value === undefined || !Number.isFinite(value) || !range) return undefined;
  const t = range.max === range.min ? 0.5 : (value - range.min) / (range.max - range.min);
  const [r, g, b] = viridisAt(t).map((channel) => Math.round(255 - (255 - channel) * STRENGTH));
  return `rgb(${r}, ${g}, ${b})`;
}

/** A CSS gradient of the cell colours from low to high (the legend). */
export function scaleGradient(steps = 8): string {
  const range = { min: 0, max: 1 };
  const stops = Array.from({ length: steps + 1 }, (_, i) => `${cellColour(i / steps, range)} ${Math.round((i / steps) * 100)}%`);
  return `linear-gradient(to right, ${stops.join(', ')})`;
}
