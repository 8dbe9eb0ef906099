import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import type { SearchCriteria } from '@kb/contracts/search';
import type { TabState } from './tab-state.ts';
import { INITIAL_TAB_STATE } from './tab-state.ts';
import { sessionStore } from '../../app/stores/memory-storage.ts';
import { registerStoreReset } from '../../app/stores/store-registry.ts';

/**
 * The results workspace (spec §4 "Results tab state"): per tab its page, sort, similarity sort,
 * "go to" restriction and selection, for the search's results (/results) and for a new search by
 * selection (/new-search-results) apart. Each scope remembers the session its tabs belong to: a
 * new session id starts every tab afresh, so a new search (or a new search by selection, spec §4)
 * resets the tab state without the search flow having to know about this store.
 *
 * Column choices are the user's, per tab, across searches; "Reset columns" drops them. So is the
 * grids' row density (compact by default: at least 15 activity rows on a laptop screen).
 */
export type ResultsScope = 'search' | 'selection';

interface ScopeState {
  sessionId: string | null;
  tabs: Partial<Record<ResultTabKey, TabState>>;
}

/** Visible (true) or hidden (false) by the user's choice, per column key; absent = the column's default. */
export type ColumnChoices = Record<string, boolean>;

/** Row height of the results grids: compact (small drawings, many rows) or comfortable (big drawings). */
export type GridDensity = 'compact' | 'comfortable';
const DEFAULT_GRID_DENSITY: GridDensity = 'compact';

/** The search a selection session ran, kept to run it again once the session expired. */
interface SelectionSearch {
  criteria: SearchCriteria;
  summary: string;
}

interface ResultsState {
  scopes: Record<ResultsScope, ScopeState>;
  columnChoices: Partial<Record<ResultTabKey, ColumnChoices>>;
  density: GridDensity;
  selectionSearch: SelectionSearch | null;
  /** Changes one tab of a scope's session (a different session first starts the scope afresh). */
  updateTab: (scope: ResultsScope, sessionId: string, tab: ResultTabKey, change: (state: TabState) => TabState) => void;
  /** Clears the tab state of a scope, e.g. after its rows started a new search by selection. */
  resetScope: (scope: ResultsScope, sessionId: string | null) => void;
  setColumnVisible: (tab: ResultTabKey, key: string, visible: boolean) => void;
  resetColumnChoices: () => void;
  setDensity: (density: GridDensity) => void;
  setSelectionSearch: (search: SelectionSearch | null) => void;
  reset: () => void;
}

const EMPTY_SCOPES: Record<ResultsScope, ScopeState> = {
  search: { sessionId: null, tabs: {} },
  selection: { sessionId: null, tabs: {} },
};

/** The state of one tab: what the store holds for that session, else the initial state. */
/** The structures a tab of this session is narrowed to by a "go to" (either scope), or null. */
export function relatedStructures(state: Pick<ResultsState, 'scopes'>, sessionId: string, tab: ResultTabKey): number[] | null {
  for (const held of Object.values(state.scopes)) {
    if (held.sessionId === sessionId) return held.tabs[tab]?.goto?.strIdList ?? null;
  }
  return null;
}

export function selectTabState(
  state: Pick<ResultsState, 'scopes'>,
  scope: ResultsScope,
  sessionId: string | null,
  tab: ResultTabKey,
): TabState {
  const held = state.scopes[scope];
  if (sessionId === null || held.sessionId !== sessionId) return INITIAL_TAB_STATE;
  return held.tabs[tab] ?? INITIAL_TAB_STATE;
}

export const useResultsStore = create<ResultsState>()(
  persist(
    (set) => ({
      scopes: EMPTY_SCOPES,
      columnChoices: {},
      density: DEFAULT_GRID_DENSITY,
      selectionSearch: null,
      updateTab: (scope, sessionId, tab, change) =>
        set((state) => {
          const held = state.scopes[scope];
          const tabs = held.sessionId === sessionId ? held.tabs : {};
          return { scopes: { ...state.scopes, [scope]: { sessionId, tabs: { ...tabs, [tab]: change(tabs[tab] ?? INITIAL_TAB_STATE) } } } };
        }),
      resetScope: (scope, sessionId) => set((state) => ({ scopes: { ...state.scopes, [scope]: { sessionId, tabs: {} } } })),
      setColumnVisible: (tab, key, visible) =>
        set((state) => ({ columnChoices: { ...state.columnChoices, [tab]: { ...state.columnChoices[tab], [key]: visible } } })),
      resetColumnChoices: () => set({ columnChoices: {} }),
      setDensity: (density) => set({ density }),
      setSelectionSearch: (selectionSearch) => set({ selectionSearch }),
      reset: () => set({ scopes: EMPTY_SCOPES, columnChoices: {}, density: DEFAULT_GRID_DENSITY, selectionSearch: null }),
    }),
    {
      name: 'kb-results',
      version: 1,
      storage: createJSONStorage(() => sessionStore()),
      partialize: (state) => ({
        scopes: state.scopes,
        columnChoices: state.columnChoices,
        density: state.density,
        selectionSearch: state.selectionSearch,
      }),
    },
  ),
);

registerStoreReset(() => useResultsStore.getState().reset());
