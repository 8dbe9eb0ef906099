import type { ReactNode } from 'react';
import { NewSearchResultsPage as NewSearchResultsFeature, ResultsPage as ResultsFeature } from '../features/results/results-page.tsx';
import { ResultsSlotsProvider } from '../features/results/results-slots.tsx';
import { StructureActionsProvider } from '../features/search/rows/structure-actions.tsx';
import { RESULTS_SLOTS, STRUCTURE_ACTIONS } from './feature-slots.ts';

/** The results with what the features above them add: selection prediction, measurement lists, structure actions. */
function Composed({ children }: { children: ReactNode }) {
  return (
    <ResultsSlotsProvider value={RESULTS_SLOTS}>
      <StructureActionsProvider value={STRUCTURE_ACTIONS}>{children}</StructureActionsProvider>
    </ResultsSlotsProvider>
  );
}

/** /results and /results/{tabid}. */
export function ResultsPage() {
  return (
    <Composed>
      <ResultsFeature />
    </Composed>
  );
}

/** /new-search-results and /new-search-results/{tabid}. */
export function NewSearchResultsPage() {
  return (
    <Composed>
      <NewSearchResultsFeature />
    </Composed>
  );
}
