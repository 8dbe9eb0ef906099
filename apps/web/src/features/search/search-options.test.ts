import { describe, expect, it } from 'vitest';
import { SEARCH_GROUPS, rowKindOf } from './search-options.ts';

describe('builder options', () => {
  it('gives every option of the three groupings a row to add', () => {
    for (const group of SEARCH_GROUPS) {
      for (const option of group.options) expect(rowKindOf(group, option), `${group.key}/${option.key}`).not.toBeNull();
    }
  });

  it('sends the Taxonomy tree as SourceOntologyTreeView (spec §4)', () => {
    const trees = SEARCH_GROUPS.find((group) => group.key === 'treeview')!;
    const taxonomy = trees.options.find((option) => option.key === 'taxonomy')!;
    expect(rowKindOf(trees, taxonomy)).toEqual({ selectedOption: 'treeview', tree: 'SourceOntologyTreeView' });
  });
});
