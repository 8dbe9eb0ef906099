import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { SearchCriteria, SearchOperator, SelectedOption, TreeView } from '@kb/contracts/search';
import type { CountFigures } from '../counts/count-figures.ts';
import { ZERO_COUNTS } from '../counts/count-figures.ts';
import type { RowDraft } from './row-drafts.ts';
import { newDraft } from './row-drafts.ts';
import { sessionStore } from '../../../app/stores/memory-storage.ts';
import { registerStoreReset } from '../../../app/stores/store-registry.ts';

/**
 * The search builder (spec §3 "Search row", §4 "Search builder"): the rows being edited and the
 * outcome of the last search. Persisted to session storage (spec §4: stores persist there) so a
 * reload, a visit to the results and back, or a failed call never loses a row.
 */

/** A search that ran: what was asked and what came back. */
interface SearchRun {
  sessionId: string;
  criteria: SearchCriteria;
  summary: string;
  counts: CountFigures;
  ranAt: string;
}

type RunStatus = 'idle' | 'running' | 'failed';

interface BuilderValues {
  rows: RowDraft[];
  /** True until the user (or a saved default) put anything in the builder this session. */
  pristine: boolean;
  /** Rows changed since the last search, save or load. */
  dirty: boolean;
  /** Counts on show: null before any search (the whole knowledge base is shown then). */
  counts: CountFigures | null;
  lastRun: SearchRun | null;
  status: RunStatus;
  error: string | null;
}

interface BuilderActions {
  addRow: (option: SelectedOption, tree?: TreeView) => string;
  updateRow: (key: string, update: (draft: RowDraft) => RowDraft) => void;
  setOperator: (key: string, operator: SearchOperator) => void;
  removeRow: (key: string) => { draft: RowDraft; index: number } | null;
  /** Puts a removed row back where it was (undo). */
  restoreRow: (draft: RowDraft, index: number) => void;
  moveRow: (key: string, delta: -1 | 1) => void;
  /** Replaces every row (a saved query, saved criteria or a recent search was loaded). */
  replaceRows: (rows: RowDraft[]) => void;
  clearRows: () => void;
  markClean: () => void;
  startRun: () => void;
  finishRun: (run: SearchRun) => void;
  /** Spec §4: a count request with no data keeps the old counts. */
  keepCounts: () => void;
  /** Spec §8: a failed count sets every count to zero and stops the loader. */
  failRun: (message: string) => void;
  /** A newer search took over; nothing to show for this one. */
  cancelRun: () => void;
  reset: () => void;
}

const INITIAL: BuilderValues = { rows: [], pristine: true, dirty: false, counts: null, lastRun: null, status: 'idle', error: null };

/** The row before a new last row needs an operator again (it had none while it was last). */
function withOperatorBeforeLast(rows: RowDraft[]): RowDraft[] {
  return rows.map((row, index) => (index < rows.length - 1 && row.operator === null ? { ...row, operator: 'AND' } : row));
}

export const useSearchBuilderStore = create<BuilderValues & BuilderActions>()(
  persist(
    (set, get) => ({
      ...INITIAL,
      addRow: (option, tree) => {
        const draft = option === 'treeview' ? newDraft('treeview', tree ?? 'Target') : newDraft(option);
        set((state) => ({ rows: withOperatorBeforeLast([...state.rows, draft]), pristine: false, dirty: true }));
        return draft.key;
      },
      updateRow: (key, update) =>
        set((state) => ({ rows: state.rows.map((row) => (row.key === key ? update(row) : row)), pristine: false, dirty: true })),
      setOperator: (key, operator) =>
        set((state) => ({ rows: state.rows.map((row) => (row.key === key ? { ...row, operator } : row)), dirty: true })),
      removeRow: (key) => {
        const index = get().rows.findIndex((row) => row.key === key);
        const draft = get().rows[index];
        if (!draft) return null;
        set((state) => ({ rows: state.rows.filter((row) => row.key !== key), dirty: true }));
        return { draft, index };
      },
      restoreRow: (draft, index) =>
        set((state) => {
          const rows = [...state.rows];
          rows.splice(Math.min(index, rows.length), 0, draft);
          return { rows: withOperatorBeforeLast(rows), dirty: true };
        }),
      moveRow: (key, delta) =>
        set((state) => {
          const from = state.rows.findIndex((row) => row.key === key);
          const to = from + delta;
          if (from < 0 || to < 0 || to >= state.rows.length) return {};
          const rows = [...state.rows];
          const [moved] = rows.splice(from, 1);
          if (moved) rows.splice(to, 0, moved);
          return { rows: withOperatorBeforeLast(rows), dirty: true };
        }),
      replaceRows: (rows) => set({ rows: withOperatorBeforeLast(rows), pristine: false, dirty: false }),
      clearRows: () => set({ rows: [], pristine: false, dirty: false }),
      markClean: () => set({ dirty: false }),
      startRun: () => set({ status: 'running', error: null }),
      finishRun: (run) => set({ status: 'idle', error: null, counts: run.counts, lastRun: run, dirty: false }),
      keepCounts: () => set({ status: 'idle', error: null }),
      failRun: (message) => set({ status: 'failed', error: message, counts: { ...ZERO_COUNTS } }),
      cancelRun: () => set({ status: 'idle' }),
      reset: () => set({ ...INITIAL }),
    }),
    {
      name: 'kb-search-builder',
      version: 1,
      storage: createJSONStorage(() => sessionStore()),
      // A search that was running when the page closed is not running any more.
      partialize: (state) => ({
        rows: state.rows,
        pristine: state.pristine,
        dirty: state.dirty,
        counts: state.counts,
        lastRun: state.lastRun,
        status: state.status === 'running' ? 'idle' : state.status,
        error: state.error,
      }),
    },
  ),
);

registerStoreReset(() => useSearchBuilderStore.getState().reset());
