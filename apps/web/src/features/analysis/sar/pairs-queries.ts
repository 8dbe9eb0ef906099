import { useQuery } from '@tanstack/react-query';
import type { SarEndpoint } from '@kb/contracts/sar';
import { sarPairsEndpoints } from '@kb/contracts/sar-pairs';
import { endpointQuery } from '../../../app/query.ts';

export function useSarPairs(sessionId: string, endpoint: SarEndpoint | null, minPairs: number, enabled: boolean) {
  const body = { sessionid: sessionId, endpoint: endpoint ?? { targetId: 1, activityType: '' }, minPairs, limit: 200 };
  return useQuery({ ...endpointQuery(sarPairsEndpoints.sarPairs, { body }), enabled: enabled && endpoint !== null, staleTime: Number.POSITIVE_INFINITY, retry: false });
}
