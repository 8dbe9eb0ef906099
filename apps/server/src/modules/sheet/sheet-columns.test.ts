import { describe, expect, it } from 'vitest';
import { buildColumn } from './sheet-columns.ts';
import { aggregateCell } from './sheet-values.ts';
import type { MeasurementRow } from './sheet-queries.ts';

const row = (str_id: number, value: number, relation = '=', units = 'nM'): MeasurementRow => ({
  str_id,
  pchembl: null,
  value,
  units,
  relation,
});

describe('a sheet column', () => {
  it('keeps each compound’s points and makes its cell when read, as aggregateCell makes it', () => {
    const endpoint = { kind: 'target' as const, targetId: 1, activityType: 'IC50' };
    // Compound 20 is not one of the sheet's; compound 30 has only a relation that says nothing; 40 only bounds.
    const rows = [
      row(10, 100),
      row(10, 10),
      row(10, 1, '<'),
      row(20, 5),
      row(30, 7, '~'),
      row(40, 1000, '>'),
      row(40, 3000, '>'),
      row(50, 50),
    ];
    const column = buildColumn(endpoint, [10, 30, 40, 50], rows);
    expect(column.molar).toBe(true);
    expect([...column.cells.keys()]).toEqual([0, 2, 3]);
    expect(column.cells.size).toBe(3);
    expect(column.leftOut).toBe(1);
    expect(column.cells.censoredOnly).toBe(1);
    expect(column.cells.get(1)).toBeUndefined();
    expect(column.cells.get(0)).toEqual(
      aggregateCell(
        [
          { value: 7, qualifier: '=' },
          { value: 8, qualifier: '=' },
          { value: 9, qualifier: '>' },
        ],
        'median',
        true,
      ),
    );
    // Only lower concentrations' bounds (IC50 > 1 µM is pIC50 < 6): the most informative is the lowest.
    expect(column.cells.get(2)).toMatchObject({ qualifier: '<', n: 2, censored: 2, median: null });
    expect(column.cells.get(2)!.value).toBeCloseTo(6 - Math.log10(3), 12);
    expect(column.cells.get(3)!.value).toBeCloseTo(9 - Math.log10(50), 12);
    // A cell read twice is the same object: made once.
    expect(column.cells.get(0)).toBe(column.cells.get(0));
  });
});
