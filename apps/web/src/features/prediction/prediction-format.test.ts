import { describe, expect, it } from 'vitest';
import { SearchCriteriaSchema } from '@kb/contracts/search';
import {
  evidencePotency,
  formatEValue,
  formatNanomolar,
  measuredText,
  pActivityLabel,
  targetActivesCriteria,
} from './prediction-format.ts';

describe('prediction formats', () => {
  it('writes E-values as SEA prints them: tiny ones in exponent form, others with two significant digits', () => {
    expect(formatEValue(3.2e-12)).toBe('3e-12');
    expect(formatEValue(0.0412)).toBe('0.041');
    expect(formatEValue(0.04)).toBe('0.04');
    expect(formatEValue(1.234)).toBe('1.2');
    expect(formatEValue(0)).toBe('0');
    expect(formatEValue(Number.NaN)).toBe('—');
  });

  it('writes potencies in the unit a chemist reads them in', () => {
    expect(formatNanomolar(12)).toBe('12 nM');
    expect(formatNanomolar(0.354)).toBe('0.354 nM');
    expect(formatNanomolar(1234)).toBe('1.23 µM');
    expect(formatNanomolar(25_000_000)).toBe('25 mM');
  });

  it('names the pActivity after the measured type and writes the relation of a censored value', () => {
    expect(pActivityLabel('IC50')).toBe('pIC50');
    expect(pActivityLabel('KI')).toBe('pKi');
    expect(pActivityLabel('Potency')).toBe('pActivity');
    expect(evidencePotency({ activityType: 'IC50', relation: '<', valueNm: 12, pActivity: 7.92 })).toBe('IC50 < 12 nM · pIC50 7.92');
    expect(measuredText({ bestNm: 63, pActivity: 7.2, activityType: 'IC50', count: 2, active: false })).toBe(
      'measured: pIC50 7.20 (inactive)',
    );
  });

  it('searches a target’s actives as that target AND a potency at or below its family’s threshold', () => {
    const criteria = targetActivesCriteria({ targetId: 42, name: 'Epidermal growth factor receptor', thresholdNm: 30 });
    expect(SearchCriteriaSchema.safeParse(criteria).success).toBe(true);
    const [target, activity] = criteria.rows;
    expect(target).toMatchObject({ selectedOption: 'target', operator: 'AND', targets: [{ ids: [42] }] });
    expect(
      activity?.selectedOption === 'activitytypes' &&
        activity.activities.every((a) => a.prefix === '<=' && a.minValue === 30 && a.activityUom === 'nM'),
    ).toBe(true);
  });
});
