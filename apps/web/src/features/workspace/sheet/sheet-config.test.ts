import { describe, expect, it } from 'vitest';
import type { SheetEndpointOption } from '@kb/contracts/sheet';
import {
  INITIAL_SHEET_CONFIG,
  addDifference,
  defaultEndpoints,
  nextSort,
  removeDifference,
  setRangeFilter,
  sheetRequest,
  withEndpoints,
} from './sheet-config.ts';

function option(targetId: number, compounds: number): SheetEndpointOption {
  return {
    endpoint: { kind: 'target', targetId, activityType: 'IC50' },
    label: `IC50 · T${targetId}`,
    targetName: `Target ${targetId}`,
    geneSymbol: null,
    compounds,
    activities: compounds * 2,
    molar: true,
  };
}
const [A, B, C, D] = [option(1, 90), option(2, 80), option(3, 70), option(4, 60)];

describe('the sheet’s choices', () => {
  it('opens with the three most covered endpoints, targets first', () => {
    expect(defaultEndpoints([A!, B!], [C!, D!])).toEqual([A, B, C]);
  });

  it('renumbers sorts, filters and differences when endpoints move, and drops what pointed at a removed one', () => {
    let config = withEndpoints(INITIAL_SHEET_CONFIG, [A!, B!, C!]);
    config = addDifference(config, 0, 2);
    config = {
      ...nextSort(config, 'e2'),
      filters: [
        { column: 'e1', min: 5, max: null },
        { column: 'mw', min: null, max: 500 },
      ],
      page: 4,
    };
    const next = withEndpoints(config, [C!, A!]);
    expect(next.differences).toEqual([{ a: 1, b: 0 }]);
    expect(next.sort).toEqual({ column: 'e0', direction: 'asc' });
    expect(next.filters).toEqual([{ column: 'mw', min: null, max: 500 }]);
    expect(next.page).toBe(0);
  });

  it('adds a difference once and never of a column with itself', () => {
    const config = withEndpoints(INITIAL_SHEET_CONFIG, [A!, B!]);
    expect(addDifference(config, 1, 1)).toBe(config);
    const once = addDifference(config, 0, 1);
    expect(addDifference(once, 0, 1)).toBe(once);
  });

  it('removes a difference with its sort and filter, renumbering the later ones', () => {
    let config = addDifference(addDifference(withEndpoints(INITIAL_SHEET_CONFIG, [A!, B!, C!]), 0, 1), 0, 2);
    config = { ...nextSort(config, 'd1'), filters: [{ column: 'd0', min: 1, max: null }] };
    const next = removeDifference(config, 0);
    expect(next.differences).toEqual([{ a: 0, b: 2 }]);
    expect(next.sort).toEqual({ column: 'd0', direction: 'asc' });
    expect(next.filters).toEqual([]);
  });

  it('sorts ascending, then descending, then not at all', () => {
    const once = nextSort(INITIAL_SHEET_CONFIG, 'e0');
    expect(once.sort).toEqual({ column: 'e0', direction: 'asc' });
    const twice = nextSort(once, 'e0');
    expect(twice.sort).toEqual({ column: 'e0', direction: 'desc' });
    expect(nextSort(twice, 'e0').sort).toBeNull();
  });

  it('sets and clears a range filter', () => {
    const set = setRangeFilter(INITIAL_SHEET_CONFIG, 'e0', 6, null);
    expect(set.filters).toEqual([{ column: 'e0', min: 6, max: null }]);
    expect(setRangeFilter(set, 'e0', null, null).filters).toEqual([]);
  });

  it('asks the server for the source and the choices', () => {
    const config = withEndpoints(INITIAL_SHEET_CONFIG, [A!]);
    expect(sheetRequest({ kind: 'collection', collectionId: 3 }, config)).toEqual({
      source: { kind: 'collection', collectionId: 3 },
      endpoints: [A!.endpoint],
      differences: [],
      aggregate: 'median',
      properties: ['mw', 'clogp'],
      sort: null,
      filters: [],
      page: 0,
      pageSize: 50,
    });
  });
});
