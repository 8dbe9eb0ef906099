import type { ResultsSlots } from '../features/results/results-slots.tsx';
import type { StructureAction } from '../features/search/rows/structure-actions.tsx';
import { lazySlot } from './slot-components.tsx';

/** Beside every structure editor: "Predict targets" for the drawn or typed structure. */
export const STRUCTURE_ACTIONS: readonly StructureAction[] = [
  lazySlot(() => import('../features/prediction/predict-targets-button.tsx').then((m) => m.PredictTargetsButton)),
];

/** In every results tab: target prediction of the selection, the workspace's tools (sheet, collections, saved sets), and an activity row's measurement list. */
export const RESULTS_SLOTS: ResultsSlots = {
  selectionTools: [lazySlot(() => import('../features/prediction/selection-prediction.tsx').then((m) => m.SelectionPrediction))],
  resultsTools: [lazySlot(() => import('../features/workspace/results-tools.tsx').then((m) => m.WorkspaceResultsTools))],
  MeasurementDrawer: lazySlot(() => import('../features/leaflets/measurement-list.tsx').then((m) => m.MeasurementListDrawer)),
};
