import type { Role } from '@kb/contracts/roles';
import { useSessionStore } from '../../app/stores/session-store.ts';

/**
 * Whether the user holds a role. The server lets a caller act under any role its session holds,
 * so an administrator's tools show whichever role is current.
 */
export function useHasRole(role: Role): boolean {
  return useSessionStore((state) => state.userRoles.includes(role));
}
