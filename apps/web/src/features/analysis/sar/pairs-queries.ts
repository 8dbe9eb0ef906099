import { useQuery } from '@tanstack/react-query';
import type { SarEndpoint } from '@kb/contracts/sar';
import { sarPairsEndpoints } from '@kb/contracts/sar-pairs';
import { endpointQuery } from '../../../app/query.ts';

/** What the transformations are filtered by (the server filters before its limit of 200). */
export interface PairsFilter {
  minPairs: number;
  /** Environment radius around the cut: 0 none, 1, 2 (mmpdb's). */
  radius: number;
  minMeanDelta: number;
  sign: 'any' | 'consistent' | 'mixed';
}

export function useSarPairs(sessionId: string, endpoint: SarEndpoint | null, filter: PairsFilter, enabled: boolean) {
  const body = { sessionid: sessionId, endpoint: endpoint ?? { targetId: 1, activityType: '' }, ...filter, limit: 200 };
  return useQuery({
    ...endpointQuery(sarPairsEndpoints.sarPairs, { body }),
    enabled: enabled && endpoint !== null,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}
