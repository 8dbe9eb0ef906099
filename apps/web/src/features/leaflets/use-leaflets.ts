import { useQuery } from '@tanstack/react-query';
import { leafletEndpoints } from '@kb/contracts/leaflets';
import type { LeafletIdType } from '@kb/contracts/leaflets';
import { endpointQuery } from '../../app/query.ts';

/** The compound leaflet of what the route names; nothing is asked for a link that names nothing. */
export function useCompoundLeaflet(route: { idType: LeafletIdType; id: number } | null) {
  return useQuery({
    ...endpointQuery(leafletEndpoints.compoundLeaflet, { params: { id: route?.id ?? 0 }, query: { idType: route?.idType ?? 'structure' } }),
    enabled: route !== null,
  });
}

/**
 * The reference leaflet, optionally restricted to the search it was opened from. Switching the
 * restriction keeps the previous answer on screen until the new one arrives.
 */
export function useReferenceLeaflet(route: { refId: number; sessionId: string | null } | null, inSearchOnly: boolean) {
  const query = { inSearchOnly, ...(route?.sessionId ? { sessionid: route.sessionId } : {}) };
  return useQuery({
    ...endpointQuery(leafletEndpoints.referenceLeaflet, { params: { rid: route?.refId ?? 0 }, query }),
    enabled: route !== null,
    // Only the same reference stays on screen while the filter changes; another reference shows its skeleton.
    placeholderData: (previous) => (previous && previous.document.ref_id === route?.refId ? previous : undefined),
  });
}
