import { describe, expect, it } from 'vitest';
import type { ResultColumn } from '@kb/contracts/results';
import { formatCell, idOf, parseInnerGrids, shownColumns } from './result-columns.ts';

const column = (key: string, order: number, hidden = false, type: ResultColumn['type'] = 'text'): ResultColumn => ({
  key,
  label: key,
  type,
  order,
  hidden,
  sortable: true,
});
const columns = [
  column('mol_weight', 2, false, 'number'),
  column('str_id', 0, false, 'integer'),
  column('pka_value', 3, true, 'number'),
  column('similarity', 9, true, 'number'),
];

describe('shown columns (spec §3: order, hidden by default)', () => {
  it('orders the columns and shows the defaults', () => {
    const shown = shownColumns(columns, undefined, false);
    expect(shown.map((c) => [c.key, c.visible])).toEqual([
      ['str_id', true],
      ['mol_weight', true],
      ['pka_value', false],
      ['similarity', false],
    ]);
  });

  it("follows the user's choices over the defaults", () => {
    const shown = shownColumns(columns, { pka_value: true, mol_weight: false }, false);
    expect(shown.filter((c) => c.visible).map((c) => c.key)).toEqual(['str_id', 'pka_value']);
  });

  it('reveals the hidden similarity column during a similarity sort, sortable only then (spec §4)', () => {
    expect(shownColumns(columns, undefined, false).find((c) => c.key === 'similarity')).toMatchObject({
      visible: false,
      sortable: false,
      locked: false,
    });
    const during = shownColumns(columns, { similarity: false }, true).find((c) => c.key === 'similarity');
    expect(during).toMatchObject({ visible: true, locked: true, sortable: true });
  });

  it("shows a similarity search's own score by default, sortable, and lets the user hide it", () => {
    expect(shownColumns(columns, undefined, false, true).find((c) => c.key === 'similarity')).toMatchObject({
      visible: true,
      sortable: true,
      locked: false,
    });
    expect(shownColumns(columns, { similarity: false }, false, true).find((c) => c.key === 'similarity')).toMatchObject({
      visible: false,
      sortable: true,
    });
  });
});

describe('cell text', () => {
  it('formats numbers for reading, each quantity with its digits, and leaves identifiers alone', () => {
    expect(formatCell(1234567, { key: 'activities', type: 'integer' })).toBe('1,234,567');
    expect(formatCell(342.12345, { key: 'activity_value', type: 'number' })).toBe('342.123');
    // Never E-notation; the molar value in the unit of its size.
    expect(formatCell(0.000012, { key: 'activity_value', type: 'number' })).toBe('0.000012');
    expect(formatCell(0.04567, { key: 'micro_molarvalue', type: 'number' })).toBe('45.7 nM');
    expect(formatCell(0.000241, { key: 'micro_molarvalue', type: 'number' })).toBe('0.241 nM');
    expect(formatCell(3.5, { key: 'micro_molarvalue', type: 'number' })).toBe('3.5 µM');
    // A column of one quantity reads evenly: 481.60 under 485.59, pChEMBL 7.20 under 7.35.
    expect(formatCell(481.6, { key: 'mol_weight', type: 'number' })).toBe('481.60');
    expect(formatCell(485.588, { key: 'mol_weight', type: 'number' })).toBe('485.59');
    expect(formatCell(4.717, { key: 'logp_calc', type: 'number' })).toBe('4.72');
    expect(formatCell(7.2, { key: 'pchembl_value', type: 'number' })).toBe('7.20');
    expect(formatCell(2.5, { key: 'activities', type: 'integer' })).toBe('2.5');
    expect(formatCell(Number.NaN, { key: 'mol_weight', type: 'number' })).toBe('');
    expect(formatCell(1234567, { key: 'str_id', type: 'integer' })).toBe('1234567');
    expect(formatCell(2019, { key: 'year', type: 'integer' })).toBe('2019');
    expect(formatCell(null, { key: 'psa', type: 'number' })).toBe('');
    expect(formatCell(true, { key: 'measured', type: 'text' })).toBe('Yes');
  });

  it('writes units as a chemist does in unit cells and after numbers in text cells, and nowhere else', () => {
    expect(formatCell('uM', { key: 'standard_uom', type: 'text' })).toBe('µM');
    expect(formatCell('ug.mL-1', { key: 'activity_uom', type: 'text' })).toBe('µg/mL');
    expect(formatCell('10^-6 cm/s', { key: 'standard_uom', type: 'text' })).toBe('10⁻⁶ cm/s');
    expect(formatCell('uM', { key: 'substrate_uom', type: 'text' })).toBe('µM');
    expect(formatCell('@ 1 uM', { key: 'parameter', type: 'text' })).toBe('@ 1 µM');
    expect(formatCell('Inhibition of EGFR at 1 uM', { key: 'description', type: 'text' })).toBe('Inhibition of EGFR at 1 µM');
    expect(formatCell('uM', { key: 'reference', type: 'text' })).toBe('uM');
  });

  it('reads ids from numbers and digit strings only', () => {
    expect(idOf(12)).toBe(12);
    expect(idOf('34')).toBe(34);
    expect(idOf('3a')).toBeNull();
    expect(idOf(0)).toBeNull();
    expect(idOf(null)).toBeNull();
  });
});

describe('inner grids (spec §3: a JSON string on activity and assay rows)', () => {
  it('parses the grids of the contract shape', () => {
    const grids = [{ title: 'Assay', columns: [{ key: 'assay_id', label: 'Assay ID' }], rows: [{ assay_id: 5 }], more: false }];
    expect(parseInnerGrids(JSON.stringify(grids))).toEqual(grids);
  });

  it('reads anything else as no grids instead of failing', () => {
    expect(parseInnerGrids('{not json')).toEqual([]);
    expect(parseInnerGrids(JSON.stringify([{ title: 1 }]))).toEqual([]);
    expect(parseInnerGrids(null)).toEqual([]);
    expect(parseInnerGrids('')).toEqual([]);
  });
});
