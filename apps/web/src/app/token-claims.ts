import type { Role } from '@kb/contracts/roles';
import { isRole } from '@kb/contracts/roles';

function decodeBase64Url(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** The payload of a JWT, without verifying it (the server verifies; the client only reads). */
export function readTokenPayload(token: string): Record<string, unknown> | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const parsed: unknown = JSON.parse(decodeBase64Url(payload));
    return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Spec §4: roles are read from the token (claim `roles`); unknown names are dropped. */
export function readTokenRoles(token: string): Role[] {
  const roles = readTokenPayload(token)?.['roles'];
  return Array.isArray(roles) ? roles.filter(isRole) : [];
}
