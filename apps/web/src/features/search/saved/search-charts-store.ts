import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { AppliedFilter } from '@kb/contracts/search';
import { DEFAULT_CHART_KEYS, chartsForSavedQuery } from './chart-selection.ts';
import { sessionStore } from '../../../app/stores/memory-storage.ts';
import { registerStoreReset } from '../../../app/stores/store-registry.ts';

/**
 * Charts of the results page (spec §3 "Charts", §4): which charts are enabled, the filters a query
 * is saved with, and the filters an opened saved query still has to apply. The search page fills
 * it when a saved query is opened; the results page's chart panel reads and updates it.
 */
interface ChartsState {
  enabledCharts: string[];
  /**
   * The filters "Save query" keeps: those of the opened saved query, then those of the results
   * the user last looked at (every tab, each naming its tab).
   */
  appliedFilters: AppliedFilter[];
  /**
   * A saved query's filters not yet applied: the next results session opened without filters of
   * its own gets them, once (kept apart from `appliedFilters` so that saving still keeps them).
   */
  pendingFilters: AppliedFilter[];
  /** Spec §4: a saved query's applied filters decide the charts. */
  applySavedQuery: (filters: AppliedFilter[]) => void;
  setAppliedFilters: (filters: AppliedFilter[]) => void;
  setEnabledCharts: (chartKeys: string[]) => void;
  /** Answers the pending filters and forgets them, in one step, so that two callers cannot both apply them. */
  takePendingFilters: () => AppliedFilter[];
  reset: () => void;
}

export const useSearchChartsStore = create<ChartsState>()(
  persist(
    (set, get) => ({
      enabledCharts: [...DEFAULT_CHART_KEYS],
      appliedFilters: [],
      pendingFilters: [],
      applySavedQuery: (filters) => set({ enabledCharts: chartsForSavedQuery(filters), appliedFilters: filters, pendingFilters: filters }),
      setAppliedFilters: (appliedFilters) => set({ appliedFilters }),
      setEnabledCharts: (enabledCharts) => set({ enabledCharts: [...new Set(enabledCharts)] }),
      takePendingFilters: () => {
        const pending = get().pendingFilters;
        if (pending.length > 0) set({ pendingFilters: [] });
        return pending;
      },
      reset: () => set({ enabledCharts: [...DEFAULT_CHART_KEYS], appliedFilters: [], pendingFilters: [] }),
    }),
    {
      name: 'kb-search-charts',
      storage: createJSONStorage(() => sessionStore()),
      partialize: (state) => ({
        enabledCharts: state.enabledCharts,
        appliedFilters: state.appliedFilters,
        pendingFilters: state.pendingFilters,
      }),
    },
  ),
);

registerStoreReset(() => useSearchChartsStore.getState().reset());
