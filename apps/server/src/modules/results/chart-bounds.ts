import { NO_VALUE_ID, chartDefinition } from '@kb/contracts/charts';
import { badRequest } from '../../http/errors.ts';
import { isIntegerColumn } from './chart-dimensions.ts';
import type { ColumnType, Dimension } from './chart-dimensions.ts';

/**
 * Checks what a client sends for a chart — range bounds, picked values — against the SQL type of
 * the chart's column (Dimension.column), once, before any of it reaches SQL: PostgreSQL refuses
 * 1990.5 for an integer column, and 1e300 for any integer, and a refused parameter is a 500.
 *
 * Integer columns take whole numbers within the column's range (int8: JavaScript's safe integers,
 * beyond which a JSON number is no longer the id that was meant); float8 columns finite numbers;
 * text columns any text.
 */

const SAFE = Number.MAX_SAFE_INTEGER;
const INTEGER_RANGES: Record<'int2' | 'int4' | 'int8', readonly [number, number]> = {
  int2: [-32_768, 32_767],
  int4: [-2_147_483_648, 2_147_483_647],
  int8: [-SAFE, SAFE],
};

const show = (n: number) => n.toLocaleString('en-US');
const shown = (value: unknown) =>
  typeof value === 'string' ? JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value) : String(value);

function labelOf(chartKey: string): string {
  return chartDefinition(chartKey)?.chartLabel ?? chartKey;
}

/** Why `value` does not fit `column`, or null when it does. */
function numberProblem(column: ColumnType, value: number): string | null {
  if (!Number.isFinite(value)) return 'finite numbers';
  if (!isIntegerColumn(column)) return null;
  if (!Number.isInteger(value)) return 'whole numbers';
  const [lo, hi] = INTEGER_RANGES[column];
  if (value < lo || value > hi) return `whole numbers from ${show(lo)} to ${show(hi)}`;
  return null;
}

/** A Range filter's bounds: each fits the column, and the minimum is not above the maximum. */
export function checkRangeBounds(
  chartKey: string,
  dimension: Dimension,
  minValue: number | null | undefined,
  maxValue: number | null | undefined,
): void {
  const label = labelOf(chartKey);
  for (const bound of [minValue, maxValue]) {
    if (bound == null) continue;
    const problem = typeof bound === 'number' ? numberProblem(dimension.column, bound) : 'numbers';
    if (problem) throw badRequest(`${label} bounds must be ${problem} (got ${shown(bound)}).`, { chartKey, column: dimension.column });
  }
  if (minValue != null && maxValue != null && minValue > maxValue) {
    throw badRequest(`${label}: the minimum (${minValue}) is above the maximum (${maxValue}).`, { chartKey });
  }
}

/**
 * A picked value of a List / Tree / Image chart: ids of integer columns must be whole numbers in
 * the column's range (digit strings accepted, as a saved query may carry them); text columns take
 * any value, as does the "Not specified" id.
 */
export function checkFilterValue(chartKey: string, dimension: Dimension, value: string | number): void {
  if (value === NO_VALUE_ID || dimension.column === 'text') return;
  const number = typeof value === 'number' ? value : /^\s*-?\d+(\.\d+)?(e[+-]?\d+)?\s*$/i.test(value) ? Number(value) : Number.NaN;
  const problem = Number.isNaN(number)
    ? isIntegerColumn(dimension.column)
      ? 'whole numbers'
      : 'numbers'
    : numberProblem(dimension.column, number);
  if (problem) {
    const what = isIntegerColumn(dimension.column) ? `ids, ${problem}` : problem;
    throw badRequest(`${labelOf(chartKey)} values must be ${what} (got ${shown(value)}).`, { chartKey, column: dimension.column });
  }
}
