import { describe, expect, it } from 'vitest';
import { allOf, countNoun, pluralNoun, showMoreLabel } from './plural.ts';

describe('counted nouns', () => {
  it('uses the singular for one and the plural for zero and many', () => {
    expect(countNoun(1, 'row')).toBe('1 row');
    expect(countNoun(0, 'row')).toBe('0 rows');
    expect(countNoun(2, 'value')).toBe('2 values');
    expect(countNoun(1234, 'value')).toBe('1,234 values');
  });

  it('writes the regular English plurals of nouns ending in a consonant and y, or in s, x, ch, sh', () => {
    expect(countNoun(2, 'activity')).toBe('2 activities');
    expect(countNoun(1, 'activity')).toBe('1 activity');
    expect(countNoun(2, 'day')).toBe('2 days');
    expect(countNoun(3, 'search')).toBe('3 searches');
    expect(countNoun(2, 'target')).toBe('2 targets');
  });

  it('takes irregular forms', () => {
    const activity = { one: 'activity', other: 'activities' };
    expect(countNoun(1, activity)).toBe('1 activity');
    expect(countNoun(3, activity)).toBe('3 activities');
  });

  it('treats a count that is not a number as zero', () => {
    expect(pluralNoun(Number.NaN, 'row')).toBe('rows');
    expect(countNoun(Number.NaN, 'row')).toBe('0 rows');
  });

  it('says "the row" rather than "all 1 rows"', () => {
    expect(allOf(1, 'row')).toBe('the row');
    expect(allOf(5, 'row')).toBe('all 5 rows');
  });
});

describe('show-more labels', () => {
  it('names one remaining item in the singular, never "1 more of 1"', () => {
    expect(showMoreLabel(1, 1, 'compound')).toBe('Show 1 more compound');
    expect(showMoreLabel(5, 5, 'compound')).toBe('Show 5 more compounds');
  });

  it('says how many remain when the next page does not hold them all', () => {
    expect(showMoreLabel(24, 30, 'compound')).toBe('Show 24 more of 30 compounds');
    expect(showMoreLabel(24, 1025, 'compound')).toBe('Show 24 more of 1,025 compounds');
  });
});
