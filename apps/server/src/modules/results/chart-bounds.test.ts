import { describe, expect, it } from 'vitest';
import { CHART_CATALOGUE } from '@kb/contracts/charts';
import { HttpError } from '../../http/errors.ts';
import { checkFilterValue, checkRangeBounds } from './chart-bounds.ts';
import { DIMENSIONS, isIntegerColumn } from './chart-dimensions.ts';

const message = (run: () => void) => {
  try {
    run();
  } catch (error) {
    return error instanceof HttpError ? `${error.statusCode} ${error.body.message}` : String(error);
  }
  return null;
};

describe('chart bounds against column types', () => {
  it('declares a column type for every chart of the catalogue, integers for the year and ids', () => {
    for (const chart of CHART_CATALOGUE) expect(DIMENSIONS[chart.chartKey]?.column, chart.chartKey).toBeDefined();
    expect(DIMENSIONS.year?.column).toBe('int4');
    expect(DIMENSIONS.phase?.column).toBe('int2');
    expect(isIntegerColumn(DIMENSIONS.molweight!.column)).toBe(false);
  });

  it('takes whole years within int4 and any finite weight', () => {
    expect(message(() => checkRangeBounds('year', DIMENSIONS.year!, 1990, 2000))).toBeNull();
    expect(message(() => checkRangeBounds('year', DIMENSIONS.year!, null, 2000))).toBeNull();
    expect(message(() => checkRangeBounds('molweight', DIMENSIONS.molweight!, 0.5, 1e300))).toBeNull();
    expect(message(() => checkRangeBounds('year', DIMENSIONS.year!, 1990.5, 2000.5))).toBe(
      '400 Publication year bounds must be whole numbers (got 1990.5).',
    );
    expect(message(() => checkRangeBounds('year', DIMENSIONS.year!, 2_147_483_648, null))).toMatch(/from -2,147,483,648 to 2,147,483,647/);
    expect(message(() => checkRangeBounds('molweight', DIMENSIONS.molweight!, Number.NaN, null))).toBe(
      '400 Molecular weight bounds must be finite numbers (got NaN).',
    );
    expect(message(() => checkRangeBounds('logp', DIMENSIONS.logp!, 5, -5))).toBe('400 cLogP: the minimum (5) is above the maximum (-5).');
  });

  it('takes ids as numbers or digit strings, any text for text charts, and the "Not specified" id', () => {
    expect(message(() => checkFilterValue('target', DIMENSIONS.target!, '12'))).toBeNull();
    expect(message(() => checkFilterValue('target', DIMENSIONS.target!, '__none__'))).toBeNull();
    expect(message(() => checkFilterValue('assaytype', DIMENSIONS.assaytype!, 'B; drop table'))).toBeNull();
    expect(message(() => checkFilterValue('target', DIMENSIONS.target!, 2 ** 53))).toMatch(
      /^400 Target values must be ids, whole numbers from/,
    );
    expect(message(() => checkFilterValue('structures', DIMENSIONS.structures!, '12abc'))).toBe(
      '400 Most reported structures values must be ids, whole numbers (got "12abc").',
    );
  });
});
