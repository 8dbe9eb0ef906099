import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { SarCoreInput, SarDifference, SarEndpoint, SarMeasure } from '@kb/contracts/sar';
import { sessionStore } from '../../../app/stores/memory-storage.ts';
import { registerStoreReset } from '../../../app/stores/store-registry.ts';

/** The tabs of the SAR view, in their order on screen. */
export const SAR_TABS = ['table', 'matrix', 'freewilson', 'cliffs', 'pairs'] as const;
export type SarTabKey = (typeof SAR_TABS)[number];

/** Cliff thresholds: measured on the demo data (docs/sar.md "Activity cliffs"), 0.8 found none or a handful in a 500-compound series. */
const DEFAULT_MIN_SIMILARITY = 0.7;
const DEFAULT_MIN_DELTA = 1;
const DEFAULT_MIN_PAIRS = 2;

/**
 * What the user chose in the SAR view of one search session and source tab: the endpoint, the
 * cores, the table run with them, the cliff thresholds, the matrix axes and the tab on screen.
 * Persisted to session storage like the results store, so a reload shows the same view (the
 * table is asked again with the same choices). Another session or source tab starts afresh.
 */
export interface SarChoices {
  /** `${sessionId}/${tab}` the choices belong to. */
  key: string | null;
  endpoint: SarEndpoint | null;
  /** Endpoints shown beside the first (B, C, D) and the difference columns between them. */
  moreEndpoints: SarEndpoint[];
  differences: SarDifference[];
  cores: SarCoreInput[];
  /** The endpoints and cores of the table on screen (null: none run yet). */
  run: SarRun | null;
  minSimilarity: number;
  minDelta: number;
  /** Matched-pair transformations seen in fewer pairs are left out. */
  minPairs: number;
  activeTab: SarTabKey;
  /** R positions on the matrix's rows and columns (null: the two with most distinct groups). */
  matrixAxes: [string, string] | null;
  /** What the matrix and the Free-Wilson fit read (null: the first endpoint). */
  measure: SarMeasure | null;
  /** What the activity cliffs compare: an endpoint (A, B …) or a difference column (null: A). */
  cliffsMeasure: SarMeasure | null;
}

/** A table as asked for. Stored before several endpoints existed, a run has no `moreEndpoints` or `differences`: read them with runBody. */
export interface SarRun {
  endpoint: SarEndpoint;
  moreEndpoints?: SarEndpoint[];
  differences?: SarDifference[];
  cores: SarCoreInput[];
}

interface SarState extends SarChoices {
  /** Opens the choices of a session and tab (a different one starts afresh). */
  open: (key: string) => void;
  update: (change: Partial<Omit<SarChoices, 'key'>>) => void;
  reset: () => void;
}

const INITIAL: SarChoices = {
  key: null,
  endpoint: null,
  moreEndpoints: [],
  differences: [],
  cores: [],
  run: null,
  minSimilarity: DEFAULT_MIN_SIMILARITY,
  minDelta: DEFAULT_MIN_DELTA,
  minPairs: DEFAULT_MIN_PAIRS,
  activeTab: 'table',
  matrixAxes: null,
  measure: null,
  cliffsMeasure: null,
};

export function sarKey(sessionId: string, tab: string): string {
  return `${sessionId}/${tab}`;
}

export const useSarStore = create<SarState>()(
  persist(
    (set) => ({
      ...INITIAL,
      open: (key) => set((state) => (state.key === key ? state : { ...INITIAL, key })),
      update: (change) => set(change),
      reset: () => set(INITIAL),
    }),
    {
      name: 'kb-sar-view',
      version: 1,
      storage: createJSONStorage(() => sessionStore()),
      partialize: ({
        key,
        endpoint,
        moreEndpoints,
        differences,
        cores,
        run,
        minSimilarity,
        minDelta,
        minPairs,
        activeTab,
        matrixAxes,
        measure,
        cliffsMeasure,
      }) => ({
        key,
        endpoint,
        moreEndpoints,
        differences,
        measure,
        cores,
        run,
        minSimilarity,
        minDelta,
        minPairs,
        activeTab,
        matrixAxes,
        cliffsMeasure,
      }),
    },
  ),
);

registerStoreReset(() => useSarStore.getState().reset());
