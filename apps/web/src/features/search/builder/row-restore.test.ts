import { describe, expect, it } from 'vitest';
import type { SearchCriteria } from '@kb/contracts/search';
import { describeSearch } from '../saved/search-summary.ts';
import { buildCriteria } from './row-criteria.ts';
import { criteriaToDrafts } from './row-restore.ts';
import { newDraft, rowTitle } from './row-drafts.ts';

const selection: SearchCriteria = {
  rows: [{ selectedOption: 'selection', operator: null, fileName: null, entity: 'activity', ids: [11, 12, 13], label: '' }],
};

describe('a selection row from the results', () => {
  it('is restored into the builder with its kind of record and ids', () => {
    const [draft] = criteriaToDrafts(selection);
    expect(draft).toMatchObject({ selectedOption: 'selection', entity: 'activity', ids: [11, 12, 13], operator: null });
    expect(rowTitle(draft!)).toBe('Selection from results');
  });

  it('is summarised by what was selected, or by the label the results gave it', () => {
    expect(describeSearch(selection)).toBe('Selected 3 activities');
    const labelled: SearchCriteria = {
      rows: [{ ...selection.rows[0]!, label: '3 activities of search “EGFR”' } as SearchCriteria['rows'][number]],
    };
    expect(describeSearch(labelled)).toBe('3 activities of search “EGFR”');
  });

  it('runs again as the same selection row when the restored search is searched', () => {
    const built = buildCriteria(criteriaToDrafts(selection)).criteria;
    expect(built?.rows).toEqual([expect.objectContaining({ selectedOption: 'selection', entity: 'activity', ids: [11, 12, 13] })]);
  });

  it('starts empty when added by hand, and an empty one stays out of the search', () => {
    const draft = newDraft('selection');
    expect(draft).toMatchObject({ selectedOption: 'selection', ids: [] });
    expect(buildCriteria([draft]).criteria).toBeNull();
  });
});

describe('an "In collection" row', () => {
  const inCollection: SearchCriteria = {
    rows: [
      { selectedOption: 'collection', operator: 'NOT', fileName: null, collectionId: 42, label: 'Kinase hits' },
      { selectedOption: 'target', operator: null, fileName: null, targets: [{ label: 'EGFR', targetCategories: ['name'], operator: '|' }] },
    ],
  };

  it('is left out until a collection is chosen, then sent as a reference with its name', () => {
    const draft = newDraft('collection');
    expect(draft).toMatchObject({ selectedOption: 'collection', collectionId: null });
    expect(buildCriteria([draft]).criteria).toBeNull();
    const chosen = { ...draft, collectionId: 42, label: 'Kinase hits' };
    expect(buildCriteria([chosen]).criteria?.rows).toEqual([
      { selectedOption: 'collection', operator: null, fileName: null, collectionId: 42, label: 'Kinase hits' },
    ]);
  });

  it('is restored, summarised by the collection’s name, and runs again as the same row', () => {
    const drafts = criteriaToDrafts(inCollection);
    expect(drafts[0]).toMatchObject({ selectedOption: 'collection', collectionId: 42, label: 'Kinase hits', operator: 'NOT' });
    expect(rowTitle(drafts[0]!)).toBe('In collection');
    expect(describeSearch(inCollection)).toBe('In collection "Kinase hits" NOT Target/Enzyme/Protein: EGFR');
    expect(buildCriteria(drafts).criteria?.rows[0]).toEqual(inCollection.rows[0]);
  });

  it('is summarised by its id when it came without a name', () => {
    const bare: SearchCriteria = { rows: [{ selectedOption: 'collection', operator: null, fileName: null, collectionId: 7 }] };
    expect(describeSearch(bare)).toBe('In collection #7');
  });
});
