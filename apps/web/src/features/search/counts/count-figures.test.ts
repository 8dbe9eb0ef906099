import { describe, expect, it } from 'vitest';
import { defaultFigures, searchFigures } from './count-figures.ts';

describe('count figures', () => {
  it('maps both count shapes to the same six figures', () => {
    expect(
      searchFigures({ stridscount: 1, gvkidscount: 2, actidscount: 3, assayidscount: 4, refidscount: 5, clinicalcompoundidscount: 6 }),
    ).toEqual({
      structures: 1,
      compounds: 2,
      activities: 3,
      assays: 4,
      references: 5,
      clinicalCompounds: 6,
    });
    expect(
      defaultFigures({
        strIdsCount: 1,
        gvkIdsCount: 2,
        actIdsCount: 3,
        assayIdsCount: 4,
        refIdsCount: 5,
        clinicalCompoundIdsCount: 6,
        drugIdsCount: 7,
      }),
    ).toEqual({ structures: 1, compounds: 2, activities: 3, assays: 4, references: 5, clinicalCompounds: 6 });
  });
});
