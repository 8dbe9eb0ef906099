import { describe, expect, it } from 'vitest';
import type { DraftOf } from '../builder/row-drafts.ts';
import { newDraft } from '../builder/row-drafts.ts';
import { buildCriteria } from '../builder/row-criteria.ts';
import { countsFreshness } from './counts-freshness.ts';

const aspirin = (): DraftOf<'structure'> => ({
  ...(newDraft('structure') as DraftOf<'structure'>),
  inputType: 'name',
  category: 'exact',
  value: 'aspirin',
});

describe('whose counts the panel shows', () => {
  const rows = [aspirin()];
  const ran = buildCriteria(rows).criteria!;

  it('calls the counts current while the rows are those that were searched', () => {
    expect(countsFreshness(rows, ran)).toBe('current');
    expect(countsFreshness([{ ...aspirin(), key: 'another-key' }], ran)).toBe('current');
  });

  it('calls them the last run’s once the rows were cleared', () => {
    expect(countsFreshness([], ran)).toBe('cleared');
  });

  it('calls them the last run’s once the query changed', () => {
    expect(countsFreshness([{ ...aspirin(), value: 'ibuprofen' }], ran)).toBe('changed');
    expect(countsFreshness([...rows, { ...aspirin(), value: 'caffeine' }], ran)).toBe('changed');
  });

  it('calls them the last run’s while the changed rows cannot be searched yet', () => {
    expect(countsFreshness([{ ...(newDraft('structure') as DraftOf<'structure'>), strIds: ['abc'] }], ran)).toBe('changed');
  });
});
