import { beforeEach, describe, expect, it } from 'vitest';
import { INITIAL_TAB_STATE, toggleRow } from './tab-state.ts';
import { selectTabState, useResultsStore } from './results-store.ts';
import { resetAllStores } from '../../app/stores/store-registry.ts';

const store = () => useResultsStore.getState();
const tabOf = (scope: 'search' | 'selection', session: string, tab: 'structuretab' | 'activitiestab' = 'structuretab') =>
  selectTabState(store(), scope, session, tab);

describe('results store (spec §4 results tab state)', () => {
  beforeEach(() => resetAllStores());

  it('keeps each tab of a session apart, and the two scopes apart', () => {
    store().updateTab('search', 's1', 'structuretab', (state) => ({ ...state, pageNumber: 3 }));
    store().updateTab('search', 's1', 'activitiestab', (state) => ({ ...state, selection: toggleRow(state.selection, 8, true) }));
    expect(tabOf('search', 's1').pageNumber).toBe(3);
    expect(tabOf('search', 's1', 'activitiestab').selection.selectedIds).toEqual([8]);
    expect(tabOf('selection', 's1')).toBe(INITIAL_TAB_STATE);
  });

  it('starts every tab afresh for a new session of the scope', () => {
    store().updateTab('search', 's1', 'structuretab', (state) => ({
      ...state,
      pageNumber: 3,
      selection: toggleRow(state.selection, 1, true),
    }));
    expect(tabOf('search', 's2')).toBe(INITIAL_TAB_STATE);
    store().updateTab('search', 's2', 'activitiestab', (state) => ({ ...state, pageSize: 50 }));
    // The first session's tabs are gone, not merely hidden.
    expect(tabOf('search', 's1')).toBe(INITIAL_TAB_STATE);
    expect(tabOf('search', 's2', 'activitiestab').pageSize).toBe(50);
  });

  it('resets a scope for a new search by selection and keeps column choices until "Reset columns"', () => {
    store().updateTab('selection', 'old', 'structuretab', (state) => ({ ...state, pageNumber: 2 }));
    store().setColumnVisible('structuretab', 'pka_value', true);
    store().resetScope('selection', 'new');
    expect(tabOf('selection', 'old')).toBe(INITIAL_TAB_STATE);
    expect(store().columnChoices.structuretab).toEqual({ pka_value: true });
    store().resetColumnChoices();
    expect(store().columnChoices).toEqual({});
  });

  it('forgets everything on logout (all stores reset)', () => {
    store().updateTab('search', 's1', 'structuretab', (state) => ({ ...state, pageNumber: 3 }));
    store().setColumnVisible('structuretab', 'psa', false);
    store().setSelectionSearch({ criteria: { rows: [] }, summary: 'x' });
    resetAllStores();
    expect(tabOf('search', 's1')).toBe(INITIAL_TAB_STATE);
    expect(store().columnChoices).toEqual({});
    expect(store().selectionSearch).toBeNull();
  });
});
