import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { AppliedFilter } from '@kb/contracts/search';
import { DEFAULT_CHART_KEYS, chartsForSavedQuery } from '../../features/search/saved/chart-selection.ts';
import { sessionStore } from './memory-storage.ts';
import { registerStoreReset } from './store-registry.ts';

/**
 * Charts of the results page (spec §3 "Charts", §4): which charts are enabled and the filters a
 * saved query brought with it. The search page fills it when a saved query is opened; the results
 * page reads it.
 */
interface ChartsState {
  enabledCharts: string[];
  appliedFilters: AppliedFilter[];
  /** Spec §4: a saved query's applied filters decide the charts. */
  applySavedQuery: (filters: AppliedFilter[]) => void;
  setAppliedFilters: (filters: AppliedFilter[]) => void;
  reset: () => void;
}

export const useSearchChartsStore = create<ChartsState>()(
  persist(
    (set) => ({
      enabledCharts: [...DEFAULT_CHART_KEYS],
      appliedFilters: [],
      applySavedQuery: (filters) => set({ enabledCharts: chartsForSavedQuery(filters), appliedFilters: filters }),
      setAppliedFilters: (appliedFilters) => set({ appliedFilters }),
      reset: () => set({ enabledCharts: [...DEFAULT_CHART_KEYS], appliedFilters: [] }),
    }),
    {
      name: 'kb-search-charts',
      storage: createJSONStorage(() => sessionStore()),
      partialize: (state) => ({ enabledCharts: state.enabledCharts, appliedFilters: state.appliedFilters }),
    },
  ),
);

registerStoreReset(() => useSearchChartsStore.getState().reset());
