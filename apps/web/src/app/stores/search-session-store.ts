import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { sessionStore } from './memory-storage.ts';
import { registerStoreReset } from './store-registry.ts';

/**
 * The current search session (spec §3 "Search session"). Its id travels as `x-custom-session`
 * on every call; the search feature fills it when a search runs.
 */
interface SearchSessionState {
  searchSessionId: string | null;
  setSearchSessionId: (id: string | null) => void;
  reset: () => void;
}

export const useSearchSessionStore = create<SearchSessionState>()(
  persist(
    (set) => ({
      searchSessionId: null,
      setSearchSessionId: (searchSessionId) => set({ searchSessionId }),
      reset: () => set({ searchSessionId: null }),
    }),
    {
      name: 'kb-search-session',
      storage: createJSONStorage(() => sessionStore()),
      partialize: (state) => ({ searchSessionId: state.searchSessionId }),
    },
  ),
);

registerStoreReset(() => useSearchSessionStore.getState().reset());
