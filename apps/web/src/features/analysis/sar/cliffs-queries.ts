import { useQuery } from '@tanstack/react-query';
import type { SarEndpoint } from '@kb/contracts/sar';
import { sarCliffsEndpoints } from '@kb/contracts/sar-cliffs';
import { endpointQuery } from '../../../app/query.ts';

export function useSarCliffs(sessionId: string, endpoint: SarEndpoint | null, minSimilarity: number, minDelta: number, enabled: boolean) {
  const body = { sessionid: sessionId, endpoint: endpoint ?? { targetId: 1, activityType: '' }, minSimilarity, minDelta, limit: 200 };
  return useQuery({ ...endpointQuery(sarCliffsEndpoints.sarCliffs, { body }), enabled: enabled && endpoint !== null, staleTime: Number.POSITIVE_INFINITY, retry: false });
}
