import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { SarEndpoint } from '@kb/contracts/sar';
import { CLIFF_PAGE_MAX, sarCliffsEndpoints } from '@kb/contracts/sar-cliffs';
import { endpointQuery } from '../../../app/query.ts';

/** Cliffs shown per page: each page's differences are computed when it is opened. */
export const CLIFFS_PER_PAGE = CLIFF_PAGE_MAX;

/** One page of the activity cliffs (ranked by SALI) of an endpoint, or of the difference endpoint − minus, each pair with what differs; `core` (the SAR table's, a SMILES) seeds the pairs' MCS. */
export function useSarCliffs(
  sessionId: string,
  endpoint: SarEndpoint | null,
  minus: SarEndpoint | null,
  minSimilarity: number,
  minDelta: number,
  page: number,
  core: string | null,
  enabled: boolean,
) {
  const body = {
    sessionid: sessionId,
    endpoint: endpoint ?? { targetId: 1, activityType: '' },
    minus,
    minSimilarity,
    minDelta,
    limit: 200,
    offset: page * CLIFFS_PER_PAGE,
    pageSize: CLIFFS_PER_PAGE,
    core,
  };
  return useQuery({
    ...endpointQuery(sarCliffsEndpoints.sarCliffs, { body }),
    enabled: enabled && endpoint !== null,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
    placeholderData: keepPreviousData,
  });
}
