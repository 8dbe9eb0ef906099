import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { sessionStore } from './memory-storage.ts';
import { registerStoreReset } from './store-registry.ts';

/**
 * The current search session (spec §3 "Search session"). Its id travels as `x-custom-session`
 * on every call; the search feature fills it when a search runs. A new search by selection runs
 * in a session of its own (`selectionSessionId`, shown at /new-search-results), so the results of
 * the search it came from stay open at /results.
 */
interface SearchSessionState {
  searchSessionId: string | null;
  selectionSessionId: string | null;
  setSearchSessionId: (id: string | null) => void;
  setSelectionSessionId: (id: string | null) => void;
  reset: () => void;
}

export const useSearchSessionStore = create<SearchSessionState>()(
  persist(
    (set) => ({
      searchSessionId: null,
      selectionSessionId: null,
      setSearchSessionId: (searchSessionId) => set({ searchSessionId }),
      setSelectionSessionId: (selectionSessionId) => set({ selectionSessionId }),
      reset: () => set({ searchSessionId: null, selectionSessionId: null }),
    }),
    {
      name: 'kb-search-session',
      storage: createJSONStorage(() => sessionStore()),
      partialize: (state) => ({ searchSessionId: state.searchSessionId, selectionSessionId: state.selectionSessionId }),
    },
  ),
);

registerStoreReset(() => useSearchSessionStore.getState().reset());
