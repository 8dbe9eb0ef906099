import { useState } from 'react';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { errorMessage } from '../../../app/api-client.ts';
import { queryClient } from '../../../app/query.ts';
import { tabRowsQuery } from '../results-queries.ts';
import type { SimilaritySort, SortDirection, TabState } from '../tab-state.ts';
import { START_PAGE } from '@kb/contracts/result-tabs';
import { similarityWindowError, tabRequestBody } from '../tab-state.ts';

export interface SimilarityInput {
  smiles: string;
  min: number | null;
  max: number | null;
  order: SortDirection;
}

/**
 * Spec §4 similarity sort of one tab. A sort is only taken once the server accepted it: the first
 * page is fetched before the tab state changes, so an invalid SMILES (400) leaves the rows, the
 * input and the message on screen instead of an empty tab.
 */
export function useSimilaritySort(
  sessionId: string,
  tab: ResultTabKey,
  state: TabState,
  update: (change: (state: TabState) => TabState) => void,
) {
  const [error, setError] = useState<string | null>(null);
  const [applying, setApplying] = useState(false);

  const apply = async (input: SimilarityInput): Promise<boolean> => {
    const smiles = input.smiles.trim();
    const invalid = smiles ? similarityWindowError(input.min, input.max) : 'Enter a SMILES to sort by';
    if (invalid) {
      setError(invalid);
      return false;
    }
    const similarity: SimilaritySort = { status: true, category: 'similarity', smiles, order: input.order, min: input.min, max: input.max };
    const next: TabState = { ...state, pageNumber: START_PAGE, similarity };
    setApplying(true);
    setError(null);
    try {
      // Same key as the tab's own query: the answer is reused once the state changes.
      await queryClient.fetchQuery(tabRowsQuery(tab, tabRequestBody(sessionId, next)));
      update((current) => ({ ...current, pageNumber: START_PAGE, similarity }));
      return true;
    } catch (failure) {
      setError(errorMessage(failure));
      return false;
    } finally {
      setApplying(false);
    }
  };

  const clear = () => {
    setError(null);
    update((current) => ({
      ...current,
      pageNumber: START_PAGE,
      similarity: current.similarity ? { ...current.similarity, status: false } : null,
    }));
  };

  return { similarity: state.similarity, error, applying, apply, clear, clearError: () => setError(null) };
}
