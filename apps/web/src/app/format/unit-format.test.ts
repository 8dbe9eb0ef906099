import { describe, expect, it } from 'vitest';
import { formatUnit, formatUnitsInText } from './unit-format.ts';

describe('formatUnit', () => {
  it('writes the demo vocabulary’s units as a chemist does', () => {
    // apps/server/src/modules/knowledge-base/lookup-vocabulary.ts UNITS
    const demo: Array<[string, string]> = [
      ['nM', 'nM'],
      ['uM', 'µM'],
      ['mM', 'mM'],
      ['pM', 'pM'],
      ['M', 'M'],
      ['%', '%'],
      ['10^-6 cm/s', '10⁻⁶ cm/s'],
      ['uL/min/mg', 'µL/min/mg'],
      ['mL/min/kg', 'mL/min/kg'],
      ['h', 'h'],
      ['mg/kg', 'mg/kg'],
      ['ug/mL', 'µg/mL'],
      ['log mol/L', 'log mol/L'],
    ];
    for (const [stored, shown] of demo) expect(formatUnit(stored), stored).toBe(shown);
  });

  it('writes ChEMBL’s standard and published units (the real subset’s) the same way', () => {
    const chembl: Array<[string, string]> = [
      ['ug.mL-1', 'µg/mL'],
      ['ul/min/mg', 'µL/min/mg'],
      ['microM/min', 'µM/min'],
      ['/uM', '/µM'],
      ['µM', 'µM'],
      ['μM', 'µM'], // Greek mu → micro sign
      ["10'5pM", '10⁵ pM'],
      ["10'-6M", '10⁻⁶ M'],
      ["10'-1microM", '10⁻¹ µM'],
      ["10'-6g/ml", '10⁻⁶ g/mL'],
      ["10'1 ug/ml", '10¹ µg/mL'],
      ['10^3 uM', '10³ µM'],
      ['10^-8M', '10⁻⁸ M'],
      ['umol/L', 'µmol/L'],
      ['uM/L', 'µM/L'],
      ['nmol/L', 'nmol/L'],
      ['ug ml-1', 'µg/mL'],
      ['umol', 'µmol'],
      ['cells.uL-1', 'cells/µL'],
      ['U.L-1', 'U/L'],
      ['IU.L-1', 'IU/L'],
      ['mg.kg-1', 'mg/kg'],
      ['hr', 'h'],
      ['L.kg-1', 'L/kg'],
      ['umol.kg-1', 'µmol/kg'],
      ['mL.min-1.kg-1', 'mL/min/kg'],
      ['mEq.L-1', 'mEq/L'],
      ['uM.hr', 'µM·h'],
      ['s-1', 's⁻¹'],
      ['ng.hr.mL-1', 'ng·h/mL'],
      ['ng.eq.mL-1', 'ng·eq/mL'],
      ['ug.g-1', 'µg/g'],
      ['uL.min-1.(10^6cells)-1', 'µL/min/(10⁶ cells)'],
      ['mL.min-1.g-1', 'mL/min/g'],
      ['degrees C', '°C'],
      ['C', '°C'], // the demo assays' temperature unit
      ['degC', '°C'],
      ['M-1.s-1', 'M⁻¹ s⁻¹'],
      ['fL', 'fL'],
      ['/100WBC', '/100WBC'],
      ['-', '-'],
    ];
    for (const [stored, shown] of chembl) expect(formatUnit(stored), stored).toBe(shown);
  });

  it('says nothing for no unit and leaves words it does not know', () => {
    expect(formatUnit(null)).toBe('');
    expect(formatUnit(undefined)).toBe('');
    expect(formatUnit('  ')).toBe('');
    expect(formatUnit('constructor')).toBe('constructor');
    expect(formatUnit('cells')).toBe('cells');
  });
});

describe('formatUnitsInText', () => {
  it('rewrites units after a number and leaves the words around them', () => {
    expect(formatUnitsInText('@ 1 uM')).toBe('@ 1 µM');
    expect(formatUnitsInText('at 1 uM, 24 h')).toBe('at 1 µM, 24 h');
    expect(formatUnitsInText('Inhibition of EGFR at 1 uM (selectivity panel)')).toBe('Inhibition of EGFR at 1 µM (selectivity panel)');
    expect(formatUnitsInText('dose 10ug in 2 ml, 37 degrees C')).toBe('dose 10µg in 2 mL, 37 °C');
    expect(formatUnitsInText('Human liver microsomes, uM unknown')).toBe('Human liver microsomes, uM unknown');
    expect(formatUnitsInText(null)).toBe('');
  });
});
