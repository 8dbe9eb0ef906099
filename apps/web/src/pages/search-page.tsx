import { SearchPage as SearchFeature } from '../features/search/search-page.tsx';
import { StructureActionsProvider } from '../features/search/rows/structure-actions.tsx';
import { STRUCTURE_ACTIONS } from './feature-slots.ts';

/** /search: the search builder, its structure rows offering target prediction. */
export function SearchPage() {
  return (
    <StructureActionsProvider value={STRUCTURE_ACTIONS}>
      <SearchFeature />
    </StructureActionsProvider>
  );
}
