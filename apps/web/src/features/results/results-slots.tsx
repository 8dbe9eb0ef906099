import type { ComponentType } from 'react';
import { createContext, useContext } from 'react';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import type { TabState } from './tab-state.ts';
import type { ResultsScope } from './results-store.ts';

/** What a selection tool in a tab's toolbar is given: the tab, its state and its counts. */
export interface SelectionToolProps {
  tab: ResultTabKey;
  sessionId: string;
  state: TabState;
  /** Rows selected (all rows when "select all" is on). */
  count: number;
  rowCount: number;
}

/**
 * What a results tool is given: everything a selection tool is, and the scope (the search's results
 * or a new search by selection's). It reads the session (criteria, filters, counts) from the query
 * cache and the other tabs' states from the results store, as the page holds them.
 */
export interface ResultsToolProps extends SelectionToolProps {
  scope: ResultsScope;
}

/** Whose measurements to list: one activity row stands for its compound and target. */
export interface MeasurementRequest {
  actId: number;
  /** Said in the title while the list loads ("this compound on EGFR"). */
  label: string;
}

interface MeasurementDrawerProps {
  subject: MeasurementRequest | null;
  onClose: () => void;
}

/**
 * What the page around the results adds to them. Results sit below the features built on a result
 * set (target prediction of a selection, the measurement list of the leaflets), so they cannot import
 * them: the page hands them in (apps/web/src/pages/results-page.tsx).
 */
export interface ResultsSlots {
  /** Buttons beside "SAR view" acting on the tab's selection. */
  selectionTools: readonly ComponentType<SelectionToolProps>[];
  /** Tools acting on the whole results page or the tab's rows (the workspace: sheet, collections, saved sets). */
  resultsTools: readonly ComponentType<ResultsToolProps>[];
  /** The list of every measurement of an activity row's compound and target; null: no such button. */
  MeasurementDrawer: ComponentType<MeasurementDrawerProps> | null;
}

const ResultsSlotsContext = createContext<ResultsSlots>({ selectionTools: [], resultsTools: [], MeasurementDrawer: null });

export const ResultsSlotsProvider = ResultsSlotsContext.Provider;

export function useResultsSlots(): ResultsSlots {
  return useContext(ResultsSlotsContext);
}
