import { createContext, useContext } from 'react';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import type { ResultRow, StructureHighlight } from '@kb/contracts/results';
import type { GridDensity, ResultsScope } from '../results-store.ts';
import type { TabState } from '../tab-state.ts';

/**
 * What the grid's cell and header components need beyond their row: they render inside the grid
 * through React portals, so a context provider around the grid reaches them, and a change of
 * session or tab re-renders them without rebuilding the column definitions.
 */
export interface ResultsGridContextValue {
  scope: ResultsScope;
  sessionId: string;
  tab: ResultTabKey;
  /** The column whose value identifies a row of this tab (RESULT_TABS idColumn). */
  idColumn: string;
  rowCount: number;
  updateTab: (change: (state: TabState) => TabState) => void;
  openDetails: (row: ResultRow) => void;
  /** Every measurement of an activity row's compound on its target (the measurement list). */
  openMeasurements: (row: ResultRow) => void;
  density: GridDensity;
  /** The substructure query of the search, highlighted in the drawings and passed on to the leaflet. */
  highlight: StructureHighlight | null;
}

export const ResultsGridContext = createContext<ResultsGridContextValue | null>(null);

export function useResultsGridContext(): ResultsGridContextValue {
  const value = useContext(ResultsGridContext);
  if (!value) throw new Error('Results grid cells render inside ResultsGridContext');
  return value;
}
