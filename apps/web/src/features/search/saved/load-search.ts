import { searchEndpoints } from '@kb/contracts/search-api';
import type { AppliedFilter, SearchCriteria } from '@kb/contracts/search';
import { callApi } from '../../../app/api-client.ts';

/** A search to put into the builder: from a file, the account, or a recent search. */
export interface LoadedSearch {
  name: string;
  criteria: SearchCriteria;
  appliedFilters: AppliedFilter[];
}

/** Reads one saved search of the account (loading never changes the user's default). */
export async function loadSavedCriteria(criteriaId: number): Promise<LoadedSearch> {
  const detail = await callApi(searchEndpoints.criteriaGet, { params: { criteriaId } });
  return { name: detail.criteria_name, criteria: detail.searchcriteria, appliedFilters: detail.appliedFilters };
}
