import { describe, expect, it } from 'vitest';
import { SEARCH_SUMMARY_MAX_LENGTH } from '@kb/contracts/admin-trackers';
import { SearchCriteriaSchema } from '@kb/contracts/search';
import type { SearchCriteriaInput } from '@kb/contracts/search';
import { criteriaSummary } from './search-log.ts';

const summary = (criteria: SearchCriteriaInput) => criteriaSummary(SearchCriteriaSchema.parse(criteria));

describe('criteriaSummary', () => {
  it('joins one clause per row with the operators between them', () => {
    expect(
      summary({
        rows: [
          { selectedOption: 'target', targets: [{ label: 'EGFR' }], operator: 'AND' },
          { selectedOption: 'activitytypes', activities: [{ activityType: 'IC50' }], operator: 'OR' },
        ],
      }),
    ).toBe('Target: EGFR AND Activity type: IC50');
  });

  it('counts long id lists and lists at most three values', () => {
    expect(summary({ rows: [{ selectedOption: 'structure', strIds: [1, 2, 3, 4] }] })).toBe('Structure: 4 structure ids');
    expect(summary({ rows: [{ selectedOption: 'activitymechanism', mechanisms: ['A', 'B', 'C', 'D', 'E'] }] })).toBe(
      'Mechanism: A | B | C (+2 more)',
    );
  });

  it('names a collection row by the name it was made with, else by its id', () => {
    expect(
      summary({
        rows: [
          { selectedOption: 'collection', collectionId: 7, label: 'Kinase hits', operator: 'NOT' },
          { selectedOption: 'target', targets: [{ label: 'EGFR' }] },
        ],
      }),
    ).toBe('In collection "Kinase hits" NOT Target: EGFR');
    expect(summary({ rows: [{ selectedOption: 'collection', collectionId: 7 }] })).toBe('In collection #7');
  });

  it('is cut to the stored length', () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({
      selectedOption: 'compoundcategories' as const,
      categories: [`category-${i}-${'x'.repeat(40)}`],
    }));
    const text = summary({ rows });
    expect(text.length).toBe(SEARCH_SUMMARY_MAX_LENGTH);
    expect(text.endsWith('…')).toBe(true);
  });
});
