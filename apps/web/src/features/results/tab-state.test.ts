import { describe, expect, it } from 'vitest';
import { TabRequestSchema } from '@kb/contracts/results';
import type { TabState } from './tab-state.ts';
import {
  EMPTY_SELECTION,
  INITIAL_TAB_STATE,
  applyHeaderSort,
  clampPage,
  isRowSelected,
  selectAllState,
  selectedCount,
  setSelectAll,
  similarityWindowError,
  tabRequestBody,
  toggleRow,
} from './tab-state.ts';

const SESSION = '4b0f7c52-52a5-4f6b-9a53-2f6f7e0c1a10';
const similarity = { status: true, category: 'similarity', smiles: 'c1ccccc1O', order: 'desc', min: 0.4, max: null } as const;

describe('results tab selection (spec §4)', () => {
  it('picks rows one by one and counts them', () => {
    let selection = toggleRow(EMPTY_SELECTION, 7, true);
    selection = toggleRow(selection, 9, true);
    selection = toggleRow(selection, 7, true);
    expect(selection.selectedIds).toEqual([9, 7]);
    expect(selectedCount(selection, 500)).toBe(2);
    selection = toggleRow(selection, 9, false);
    expect(selection).toEqual({ selectAll: false, selectedIds: [7], unselectedIds: [] });
    expect(selectAllState(selection, 500)).toBe('some');
  });

  it('counts "select all" over every page minus the rows unticked again', () => {
    let selection = setSelectAll(true);
    expect(selectedCount(selection, 1234)).toBe(1234);
    expect(selectAllState(selection, 1234)).toBe('all');
    selection = toggleRow(selection, 3, false);
    selection = toggleRow(selection, 4, false);
    expect(isRowSelected(selection, 3)).toBe(false);
    expect(isRowSelected(selection, 5)).toBe(true);
    expect(selectedCount(selection, 1234)).toBe(1232);
    expect(selectAllState(selection, 1234)).toBe('some');
    selection = toggleRow(selection, 3, true);
    expect(selection.unselectedIds).toEqual([4]);
  });

  it('forgets one-by-one picks when select-all is switched on or off', () => {
    const picked = toggleRow(EMPTY_SELECTION, 1, true);
    expect(picked.selectedIds).toEqual([1]);
    expect(setSelectAll(false)).toEqual(EMPTY_SELECTION);
    expect(selectAllState(setSelectAll(true), 0)).toBe('none');
  });
});

describe('results tab request (spec §3 tab params)', () => {
  it('sends page, size and the user sort, valid for the contract', () => {
    const state: TabState = { ...INITIAL_TAB_STATE, pageNumber: 3, pageSize: 25, sortOrder: { column: 'mol_weight', direction: 'desc' } };
    const body = tabRequestBody(SESSION, state);
    expect(body).toEqual({ sessionid: SESSION, pageNumber: 3, pageSize: 25, sortOrder: { column: 'mol_weight', direction: 'desc' } });
    expect(TabRequestSchema.safeParse(body).success).toBe(true);
  });

  it('sends the similarity sort (SMILES, category, window) and sorts by the similarity column while it is on', () => {
    const body = tabRequestBody(SESSION, { ...INITIAL_TAB_STATE, sortOrder: { column: 'str_id', direction: 'asc' }, similarity });
    expect(body).toMatchObject({
      sortSmiles: 'c1ccccc1O',
      smilesSortCategory: 'similarity',
      minValue: 0.4,
      maxValue: null,
      sortOrder: { column: 'similarity', direction: 'desc' },
    });
    const off = tabRequestBody(SESSION, {
      ...INITIAL_TAB_STATE,
      sortOrder: { column: 'str_id', direction: 'asc' },
      similarity: { ...similarity, status: false },
    });
    expect(off).not.toHaveProperty('sortSmiles');
    expect(off.sortOrder).toEqual({ column: 'str_id', direction: 'asc' });
  });

  it('restricts the tab to the structures of a "go to"', () => {
    const body = tabRequestBody(SESSION, { ...INITIAL_TAB_STATE, goto: { strIdList: [5, 6], fromTab: 'activitiestab' } });
    expect(body.strIdList).toEqual([5, 6]);
  });
});

describe('header sorts', () => {
  it('starts again from the first page with the new sort', () => {
    const next = applyHeaderSort({ ...INITIAL_TAB_STATE, pageNumber: 4 }, { column: 'psa', direction: 'asc' });
    expect(next).toMatchObject({ pageNumber: 0, sortOrder: { column: 'psa', direction: 'asc' } });
  });

  it('turns the similarity order around from the similarity header, and ends the similarity sort from any other', () => {
    const state: TabState = { ...INITIAL_TAB_STATE, similarity };
    expect(applyHeaderSort(state, { column: 'similarity', direction: 'asc' }).similarity).toMatchObject({ status: true, order: 'asc' });
    const other = applyHeaderSort(state, { column: 'mol_weight', direction: 'desc' });
    expect(other.similarity).toMatchObject({ status: false, smiles: 'c1ccccc1O' });
    expect(other.sortOrder).toEqual({ column: 'mol_weight', direction: 'desc' });
  });

  it("sorts by the similarity header without a SMILES (a similarity search's own score)", () => {
    const next = applyHeaderSort({ ...INITIAL_TAB_STATE, pageNumber: 2 }, { column: 'similarity', direction: 'asc' });
    expect(next).toMatchObject({ pageNumber: 0, sortOrder: { column: 'similarity', direction: 'asc' }, similarity: null });
    expect(tabRequestBody(SESSION, next).sortOrder).toEqual({ column: 'similarity', direction: 'asc' });
  });
});

describe('paging and the similarity window', () => {
  it('moves back to the last page that still has rows', () => {
    expect(clampPage(7, 10, 35)).toBe(3);
    expect(clampPage(2, 10, 35)).toBe(2);
    expect(clampPage(2, 10, 0)).toBe(0);
  });

  it('refuses a window outside 0–1 or upside down', () => {
    expect(similarityWindowError(null, null)).toBeNull();
    expect(similarityWindowError(0.2, 0.9)).toBeNull();
    expect(similarityWindowError(0.9, 0.2)).toBe('The minimum similarity is above the maximum');
    expect(similarityWindowError(-0.1, null)).toBe('Similarity limits are between 0 and 1');
    expect(similarityWindowError(null, 1.5)).toBe('Similarity limits are between 0 and 1');
  });
});
