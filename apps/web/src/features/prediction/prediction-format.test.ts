import { describe, expect, it } from 'vitest';
import { SearchCriteriaSchema } from '@kb/contracts/search';
import {
  abstentionDetail,
  evidencePotency,
  formatEValue,
  formatNanomolar,
  formatProbability,
  measuredText,
  pActivityLabel,
  targetActivesCriteria,
  targetMeasurementsCriteria,
  thinDataCaution,
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

  it('writes calibrated probabilities as whole percents, never a small one as 0 % nor a large one as certain', () => {
    expect(formatProbability(0.62)).toBe('62\u00a0%');
    expect(formatProbability(0.2)).toBe('20\u00a0%');
    expect(formatProbability(0.004)).toBe('< 1\u00a0%');
    expect(formatProbability(0)).toBe('0\u00a0%');
    expect(formatProbability(0.997)).toBe('> 99\u00a0%');
    expect(formatProbability(1)).toBe('100\u00a0%');
    expect(formatProbability(null)).toBe('—');
  });

  it('cautions about a target that rests on one paper or fewer than five actives', () => {
    expect(thinDataCaution({ actives: 40, documents: 1 })).toBe('rests on 1 paper');
    expect(thinDataCaution({ actives: 3, documents: 2 })).toBe('rests on 3 actives');
    expect(thinDataCaution({ actives: 1, documents: 1 })).toBe('rests on 1 paper and 1 active');
    expect(thinDataCaution({ actives: 5, documents: 2 })).toBeNull();
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

  it('searches every measurement of a target whose family is not known here', () => {
    const criteria = targetMeasurementsCriteria({ targetId: 7, name: 'Tyrosine-protein kinase ABL1' });
    expect(SearchCriteriaSchema.safeParse(criteria).success).toBe(true);
    expect(criteria.rows).toHaveLength(1);
    expect(criteria.rows[0]).toMatchObject({ selectedOption: 'target', operator: null, targets: [{ ids: [7] }] });
  });

  it('writes the abstention message under its title without repeating the title', () => {
    expect(abstentionDetail('No target predicted with confidence: no target reaches a probability of 20 %.')).toBe(
      'No target reaches a probability of 20 %.',
    );
    expect(abstentionDetail('Nothing measured is near this structure.')).toBe('Nothing measured is near this structure.');
  });
});
