import { describe, expect, it } from 'vitest';
import type { Quantity } from './quantities.ts';
import { NO_NUMBER, exportNumber, formatQuantity, quantityOfColumn } from './quantities.ts';

describe('formatQuantity: each quantity as a chemist writes it', () => {
  const table: [number, Quantity, string][] = [
    // pActivities: two decimals always, so a column reads evenly.
    [7.2, 'pActivity', '7.20'],
    [7.35, 'pActivity', '7.35'],
    [9.627599999999996, 'pActivity', '9.63'],
    [-1.2308999999999946, 'pActivity', '-1.23'],
    [-0.001, 'pActivity', '0.00'],
    // Molecular weight to two decimals, exact mass to four.
    [481.6, 'molecularWeight', '481.60'],
    [485.588, 'molecularWeight', '485.59'],
    [988.2579999999994, 'molecularWeight', '988.26'],
    [1234.5, 'molecularWeight', '1,234.50'],
    [520.32740001, 'exactMass', '520.3274'],
    // Descriptors and indices: two decimals.
    [4.37, 'descriptor', '4.37'],
    [4.717, 'descriptor', '4.72'],
    [117.59, 'descriptor', '117.59'],
    [90, 'descriptor', '90.00'],
    [0.85, 'index', '0.85'],
    [0.8, 'index', '0.80'],
    // Measured values: as measured, up to three decimals, three significant digits below one.
    [44.2, 'measured', '44.2'],
    [342.123, 'measured', '342.123'],
    [412.2430000000001, 'measured', '412.243'],
    [3.9124000000000025, 'measured', '3.912'],
    [0.00123456, 'measured', '0.00123'],
    [0.000123456, 'measured', '1.23E-4'],
    [25000, 'measured', '25,000'],
    [4.2e12, 'measured', '4.2E12'],
    // Counts with separators; years and ids plain.
    [1234567, 'count', '1,234,567'],
    [0, 'count', '0'],
    [2024, 'plain', '2024'],
    [1234567, 'plain', '1234567'],
  ];
  it.each(table)('%s as %s → %s', (value, quantity, text) => {
    expect(formatQuantity(value, quantity)).toBe(text);
  });

  it('writes the unit after a space, and a dash for what is not a number', () => {
    expect(formatQuantity(481.6, 'molecularWeight', 'g/mol')).toBe('481.60 g/mol');
    expect(formatQuantity(Number.NaN, 'pActivity')).toBe(NO_NUMBER);
    expect(formatQuantity(Number.POSITIVE_INFINITY, 'measured', 'nM')).toBe(NO_NUMBER);
    expect(formatQuantity(null, 'count')).toBe(NO_NUMBER);
    expect(formatQuantity(undefined, 'plain')).toBe(NO_NUMBER);
  });
});

describe('quantityOfColumn', () => {
  it('names the quantity of known columns, then ids and years, counts and measured values', () => {
    expect(quantityOfColumn('pchembl_value', 'number')).toBe('pActivity');
    expect(quantityOfColumn('mol_weight', 'number')).toBe('molecularWeight');
    expect(quantityOfColumn('logp_calc', 'number')).toBe('descriptor');
    expect(quantityOfColumn('similarity', 'number')).toBe('index');
    expect(quantityOfColumn('year', 'integer')).toBe('plain');
    expect(quantityOfColumn('approval_year', 'integer')).toBe('plain');
    expect(quantityOfColumn('str_id', 'integer')).toBe('plain');
    expect(quantityOfColumn('pubmed_id', 'integer')).toBe('plain');
    expect(quantityOfColumn('userId', 'integer')).toBe('plain');
    expect(quantityOfColumn('approvalYear', 'integer')).toBe('plain');
    expect(quantityOfColumn('video', 'integer')).toBe('count');
    expect(quantityOfColumn('hb_donors', 'integer')).toBe('count');
    expect(quantityOfColumn('activity_value', 'number')).toBe('measured');
  });
});

describe('exportNumber', () => {
  it('keeps every stored digit and drops the binary noise of float8', () => {
    expect(exportNumber(412.2430000000001)).toBe('412.243');
    expect(exportNumber(3.9124000000000025)).toBe('3.9124');
    expect(exportNumber(988.2579999999994)).toBe('988.258');
    expect(exportNumber(0.1 + 0.2)).toBe('0.3');
    expect(exportNumber(7.12345678901)).toBe('7.12345678901');
    expect(exportNumber(1234567)).toBe('1234567');
    expect(exportNumber(-0.000012345)).toBe('-0.000012345');
    expect(exportNumber(Number.NaN)).toBe('');
  });

  it('reads back as the same float8 for every value of up to twelve significant digits', () => {
    for (const value of [412.243, 3.9124, 0.1, 123456.789, 6.02e23, 1.5e-9, 520.3274, 98765.4321012])
      expect(Number(exportNumber(value))).toBe(value);
    // A value with more digits than the data carries keeps twelve of them.
    expect(exportNumber(1 / 3)).toBe('0.333333333333');
  });
});
