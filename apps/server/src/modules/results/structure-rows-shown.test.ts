import { describe, expect, it } from 'vitest';
import type { SearchCriteria, StructureQuery } from '@kb/contracts/search';
import { hasSimilarityRow, substructureQuery } from './structure-rows-shown.ts';

const structure = (query: Partial<StructureQuery>, operator: 'AND' | 'OR' | 'NOT' | null = 'AND') => ({
  selectedOption: 'structure' as const,
  operator,
  structure: { inputType: 'smiles' as const, value: 'c1ccccc1', category: 'substructure' as const, feature: 'desalted' as const, ...query },
});
const assay = { selectedOption: 'assay' as const, operator: 'AND' as const, assayTypes: ['binding'] };
const criteria = (...rows: unknown[]): SearchCriteria => ({ rows }) as SearchCriteria;

describe('what the structure rows of a search mean for its results', () => {
  it('finds a similarity row that adds rows', () => {
    expect(hasSimilarityRow(criteria(assay, structure({ category: 'similarity' })))).toBe(true);
    expect(hasSimilarityRow(criteria(structure({ category: 'substructure' })))).toBe(false);
    expect(hasSimilarityRow(null)).toBe(false);
    // A row after NOT removes its structures: none of them is shown with a score.
    expect(hasSimilarityRow(criteria({ ...assay, operator: 'NOT' }, structure({ category: 'similarity' })))).toBe(false);
  });

  it('takes the first drawable substructure query to highlight', () => {
    expect(
      substructureQuery(
        criteria(
          structure({ inputType: 'name', value: 'aspirin', category: 'exact' }),
          structure({ inputType: 'smarts', value: '[#6]=O' }),
        ),
      ),
    ).toMatchObject({ inputType: 'smarts', value: '[#6]=O' });
    expect(substructureQuery(criteria(structure({ inputType: 'inchikey', value: 'BSYNRYMUTXBXSQ' })))).toBeNull();
    expect(substructureQuery(criteria(structure({ category: 'similarity' })))).toBeNull();
    expect(substructureQuery(criteria({ ...assay, operator: 'NOT' }, structure({})))).toBeNull();
  });
});
