import { describe, expect, it } from 'vitest';
import type { SearchCriteria } from '@kb/contracts/search';
import { describeStructureFilter, splitStructureFilter, withStructureFilter } from './structure-filter.ts';
import type { StructureFilterRow } from './structure-filter.ts';

const base: SearchCriteria = {
  rows: [
    { selectedOption: 'target', operator: 'OR', fileName: null, targets: [{ label: 'EGFR', targetCategories: ['name'], operator: '|' }] },
    { selectedOption: 'activitymechanism', operator: null, fileName: null, mechanisms: ['INHIBITOR'] },
  ],
};
const pyridine: StructureFilterRow = {
  selectedOption: 'structure',
  operator: null,
  fileName: null,
  structure: { inputType: 'smiles', value: 'c1ccncc1', category: 'substructure', feature: 'desalted' },
};

describe('structure filter of the results', () => {
  it('appends the filter as the last row, joined by AND to include and NOT to exclude', () => {
    const included = withStructureFilter(base, pyridine, 'include');
    expect(included.rows.map((r) => r.operator)).toEqual(['OR', 'AND', null]);
    expect(included.rows.at(-1)).toMatchObject({ selectedOption: 'structure', resultFilter: true });
    const excluded = withStructureFilter(base, pyridine, 'exclude');
    expect(excluded.rows.map((r) => r.operator)).toEqual(['OR', 'NOT', null]);
  });

  it('replaces a filter the search already has instead of adding a second one', () => {
    const once = withStructureFilter(base, pyridine, 'exclude');
    const benzene = { ...pyridine, structure: { ...pyridine.structure!, value: 'c1ccccc1' } };
    const twice = withStructureFilter(once, benzene, 'include');
    expect(twice.rows).toHaveLength(3);
    expect(twice.rows.map((r) => r.operator)).toEqual(['OR', 'AND', null]);
    expect(twice.rows.at(-1)).toMatchObject({ structure: { value: 'c1ccccc1' } });
  });

  it('splits a filtered search back into the search and its filter', () => {
    const split = splitStructureFilter(withStructureFilter(base, pyridine, 'exclude'));
    expect(split.base).toEqual(base);
    expect(split.filter?.mode).toBe('exclude');
    expect(split.filter?.row.structure?.value).toBe('c1ccncc1');
  });

  it('leaves a search whose last structure row the user wrote alone (it is not a results filter)', () => {
    const own: SearchCriteria = { rows: [{ ...base.rows[0]!, operator: 'AND' }, pyridine] };
    expect(splitStructureFilter(own)).toEqual({ base: own, filter: null });
  });

  it('says what the filter keeps', () => {
    expect(describeStructureFilter(pyridine, 'include')).toBe('Structures containing c1ccncc1');
    expect(describeStructureFilter({ ...pyridine, properties: { molmin: 200, molmax: 400 } }, 'exclude')).toBe(
      'Leaving out structures containing c1ccncc1 with 2 property bounds',
    );
  });
});
