import { Center, Loader } from '@mantine/core';
import { Suspense, lazy } from 'react';

// AG Grid and the charts are loaded with the results page, not with every page of the app.
const ResultsWorkspace = lazy(() => import('./results-workspace.tsx').then((module) => ({ default: module.ResultsWorkspace })));

function Loading() {
  return (
    <Center py="xl" aria-busy="true" aria-label="Loading the results">
      <Loader size="sm" />
    </Center>
  );
}

/** /results and /results/{tabid}: the results of the current search. */
export function ResultsPage() {
  return (
    <Suspense fallback={<Loading />}>
      <ResultsWorkspace scope="search" />
    </Suspense>
  );
}

/** /new-search-results and /new-search-results/{tabid}: the results of a new search by selection. */
export function NewSearchResultsPage() {
  return (
    <Suspense fallback={<Loading />}>
      <ResultsWorkspace scope="selection" />
    </Suspense>
  );
}
