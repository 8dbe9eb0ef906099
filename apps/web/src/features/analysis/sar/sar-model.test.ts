import { describe, expect, it } from 'vitest';
import type { SarRow } from '@kb/contracts/sar';
import {
  activityColour,
  activityText,
  blanksLast,
  buildMatrix,
  coreHighlight,
  defaultAxes,
  measureValue,
  median,
  scalePosition,
  tableFootnote,
} from './sar-model.ts';

function row(strId: number, rgroups: Record<string, string | null>, value: number, other: number | null = null): SarRow {
  const activity = { value, n: 1, min: value, max: value };
  const second = other === null ? null : { value: other, n: 1, min: other, max: other };
  return {
    strId,
    smiles: 'C',
    core: 0,
    rgroups,
    activity,
    mw: null,
    clogp: null,
    heavyAtoms: null,
    le: null,
    lipe: null,
    values: [activity, second],
    differences: [second ? value - second.value : null],
  };
}

describe('SAR view model', () => {
  it('writes a single value plainly and several with n and their spread', () => {
    expect(activityText({ value: 7.2, n: 1, min: 7.2, max: 7.2 })).toBe('7.20');
    expect(activityText({ value: 7.2, n: 3, min: 6.9, max: 7.5 })).toBe('7.20 (n=3, 6.90–7.50)');
    expect(activityText({ value: 6, n: 1, min: 6, max: 6 })).toBe('6.00');
  });

  it('places values on the colour scale and keeps the text readable on the light end', () => {
    expect(scalePosition(5, { min: 5, max: 9 })).toBe(0);
    expect(scalePosition(9, { min: 5, max: 9 })).toBe(1);
    expect(scalePosition(7, { min: 7, max: 7 })).toBe(0.5);
    expect(activityColour(9, { min: 5, max: 9 })).toEqual({ background: 'rgb(253, 231, 37)', color: '#111' });
    expect(activityColour(5, { min: 5, max: 9 }).color).toBe('#fff');
  });

  it('takes the median of an even and an odd number of values', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('chooses the two R positions with the most distinct groups as the matrix axes', () => {
    const rows = [
      row(1, { R1: 'C[*:1]', R2: null, R3: 'F[*:3]' }, 6),
      row(2, { R1: 'C[*:1]', R2: 'O[*:2]', R3: 'Cl[*:3]' }, 7),
      row(3, { R1: 'N[*:1]', R2: 'S[*:2]', R3: 'Br[*:3]' }, 8),
    ];
    expect(defaultAxes(rows, ['R1', 'R2', 'R3'])).toEqual(['R2', 'R3']);
    expect(defaultAxes(rows, ['R1'])).toBeNull();
  });

  it('fills the matrix with the median of each combination and leaves unmade ones empty', () => {
    const rows = [
      row(1, { R1: 'C[*:1]', R2: null }, 6),
      row(2, { R1: 'C[*:1]', R2: null }, 8),
      row(3, { R1: 'N[*:1]', R2: 'O[*:2]' }, 5),
      row(4, { R1: 'C[*:1]', R2: 'O[*:2]' }, 7),
    ];
    const matrix = buildMatrix(rows, 'R1', 'R2');
    expect(matrix.y).toEqual(['C[*:1]', 'N[*:1]']);
    expect(matrix.x).toEqual(['H', 'O[*:2]']);
    expect(matrix.cell('C[*:1]', 'H')).toMatchObject({ value: 7 });
    expect(matrix.cell('C[*:1]', 'H').rows.map((r) => r.strId)).toEqual([1, 2]);
    expect(matrix.cell('N[*:1]', 'H')).toEqual({ rows: [], value: null });
  });

  it('drops the attachment points of a labelled core so it can be highlighted', () => {
    expect(coreHighlight('c1ccc([*:1])cc1')).toBe('c1ccccc1');
    expect(coreHighlight('[*:1]c1ccc([*:2])nc1')).toBe('c1cccnc1');
    expect(coreHighlight('O=C(N[*:2])c1ccccc1[*:1]')).toBe('O=C(N)c1ccccc1');
    expect(coreHighlight('[1*]c1ccccc1')).toBe('c1ccccc1');
  });

  it('reads a matrix of a second endpoint or a difference over the compounds that have one', () => {
    const rows = [row(1, { R1: 'a', R2: 'x' }, 8, 6), row(2, { R1: 'a', R2: 'x' }, 7, null), row(3, { R1: 'b', R2: 'x' }, 6, 6.5)];
    expect(measureValue(rows[0]!, { kind: 'endpoint', index: 1 })).toBe(6);
    expect(measureValue(rows[1]!, { kind: 'difference', index: 0 })).toBeNull();
    const difference = buildMatrix(rows, 'R1', 'R2', 0, { kind: 'difference', index: 0 });
    // Compound 2 has no second value: it is not in the difference's cell.
    expect(difference.cell('a', 'x')).toMatchObject({ value: 2 });
    expect(difference.cell('a', 'x').rows.map((r) => r.strId)).toEqual([1]);
    expect(difference.cell('b', 'x').value).toBeCloseTo(-0.5, 9);
    expect(buildMatrix(rows, 'R1', 'R2').cell('a', 'x').value).toBe(7.5);
  });
});

describe('the SAR table’s number columns and footnote', () => {
  it('sorts blanks last in both directions', () => {
    const values = [7.2, null, 5.1, undefined, 8.4];
    // AG Grid sorts ascending with the comparator and reverses it for descending.
    const ascending = [...values].sort((a, b) => blanksLast(a, b, null, null, false));
    const descending = [...values].sort((a, b) => -blanksLast(a, b, null, null, true));
    expect(ascending.slice(0, 3)).toEqual([5.1, 7.2, 8.4]);
    expect(descending.slice(0, 3)).toEqual([8.4, 7.2, 5.1]);
    expect(ascending.slice(3).every((v) => v == null)).toBe(true);
    expect(descending.slice(3).every((v) => v == null)).toBe(true);
  });

  it('says what the endpoints’ notes share once and each one’s counts lettered', () => {
    const shared = 'Values are pActivity (−log10 molar): pChEMBL where given. Several measurements of a compound: their median.';
    const note = tableFootnote([
      { note: `${shared} 3 qualified values ('<', '>') left out.` },
      { note: `${shared} 1 qualified value ('<', '>') left out.` },
    ]);
    expect(note).toBe(`${shared} A: 3 qualified values ('<', '>') left out. B: 1 qualified value ('<', '>') left out.`);
    expect(tableFootnote([{ note: shared }])).toBe(shared);
  });
});
