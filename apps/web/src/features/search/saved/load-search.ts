import { searchEndpoints } from '@kb/contracts/search-api';
import type { AppliedFilter, CriteriaOption, SearchCriteria } from '@kb/contracts/search';
import { callApi } from '../../../app/api-client.ts';

/** A search to put into the builder: from a file, the account, or a recent search. */
export interface LoadedSearch {
  name: string;
  criteria: SearchCriteria;
  appliedFilters: AppliedFilter[];
}

/**
 * Reads one saved search of the account. The contract's only call that answers a saved search's
 * rows is `bu/criteria/select`, which also makes it the default; when another search was the
 * default, it is made the default again right after, so loading never changes the user's default.
 */
export async function loadSavedCriteria(criteriaId: number, known: readonly CriteriaOption[]): Promise<LoadedSearch> {
  const previous = known.find((option) => option.is_active);
  const detail = await callApi(searchEndpoints.criteriaSelect, { body: { criteriaId } });
  if (previous && previous.criteria_id !== criteriaId) {
    await callApi(searchEndpoints.criteriaSelect, { body: { criteriaId: previous.criteria_id } });
  }
  return { name: detail.criteria_name, criteria: detail.searchcriteria, appliedFilters: detail.appliedFilters };
}
