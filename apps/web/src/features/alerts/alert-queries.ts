import { alertEndpoints } from '@kb/contracts/alerts';
import { authEndpoints } from '@kb/contracts/api';
import { endpointKey, queryClient } from '../../app/query.ts';

/** How often the header's bell asks for the unread count (alerts arrive after a load, not by the second). */
export const BELL_REFRESH_MS = 60_000;

/** After reading or opening notifications: the bell, the list and the profile's count change together. */
export function invalidateNotifications(): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: endpointKey(alertEndpoints.notifications) }),
    queryClient.invalidateQueries({ queryKey: endpointKey(authEndpoints.profile) }),
  ]).then(() => undefined);
}

export function invalidateSavedSearchAlerts(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: endpointKey(alertEndpoints.savedSearchAlerts) });
}
