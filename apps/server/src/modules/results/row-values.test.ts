import { describe, expect, it } from 'vitest';
import type { KbDictionaries } from '../knowledge-base/kb-dictionaries.ts';
import { NONE, ROW_VALUE_CHARTS, denseKeyBound, denseKeys, keyOf } from './row-values.ts';
import type { SessionRows } from './row-values.ts';

/**
 * `denseKeys` (the typed keys the chart batch counts by) against `keyOf` (the key of one row, which
 * filters and the SQL parity tests use): the same key for every row and chart, -1 for "no value",
 * including ids beyond the dictionaries (a dangling id) and references without a source.
 */
function dictionaries(years: (i: number) => number): KbDictionaries {
  const pick = (i: number, n: number) => (i * 7919) % n;
  return {
    assayType: Uint16Array.from({ length: 50 }, (_, i) => pick(i, 4)),
    assayOrganism: Uint16Array.from({ length: 50 }, (_, i) => pick(i, 6)),
    refSource: Uint8Array.from({ length: 30 }, (_, i) => pick(i, 4)),
    refYear: Float64Array.from({ length: 30 }, (_, i) => years(i)),
    targetExists: Uint8Array.from({ length: 20 }, (_, i) => (i % 3 ? 1 : 0)),
    assayTypes: { names: [null, 'a', 'b', 'c'] },
    organisms: { names: [null, 'o1', 'o2', 'o3', 'o4', 'o5'] },
  } as unknown as KbDictionaries;
}

const ROWS = 200;
const rows: SessionRows = {
  count: ROWS,
  act: null,
  str: null,
  // Up to beyond each dictionary: those ids have no record, so no value.
  assay: Int32Array.from({ length: ROWS }, (_, k) => (k * 31) % 60),
  ref: Int32Array.from({ length: ROWS }, (_, k) => (k * 17) % 40),
  target: Int32Array.from({ length: ROWS }, (_, k) => (k * 13) % 25),
};

const expected = (d: KbDictionaries, chart: (typeof ROW_VALUE_CHARTS)[number], order: number[]) =>
  order.map((k) => {
    const key = keyOf(d, chart, rows, k);
    return key === NONE ? -1 : key;
  });

describe('dense chart keys', () => {
  const d = dictionaries((i) => (i % 5 === 0 ? Number.NaN : 1990 + (i % 20)));
  const reversed = Int32Array.from({ length: ROWS }, (_, i) => ROWS - 1 - i);

  it.each(ROW_VALUE_CHARTS)('%s: the key of every row as keyOf gives it, in row order and in a given order', (chart) => {
    expect(Array.from(denseKeys(d, chart, rows)!)).toEqual(expected(d, chart, [...Array(ROWS).keys()]));
    expect(Array.from(denseKeys(d, chart, rows, reversed)!)).toEqual(expected(d, chart, Array.from(reversed)));
    expect(Array.from(denseKeys(d, chart, rows)!)).toContain(-1);
    expect(Math.max(...denseKeys(d, chart, rows)!)).toBeLessThan(denseKeyBound(d, chart));
  });

  it('leaves years that are not small whole numbers to keyOf', () => {
    expect(
      denseKeys(
        dictionaries((i) => 1990.5 + i),
        'year',
        rows,
      ),
    ).toBeNull();
    expect(
      denseKeys(
        dictionaries(() => 123_456),
        'year',
        rows,
      ),
    ).toBeNull();
  });
});
