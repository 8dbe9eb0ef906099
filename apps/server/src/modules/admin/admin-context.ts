import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { ERROR_CODES } from '@kb/contracts/errors';
import type { Role } from '@kb/contracts/roles';
import { ADMIN_ROLES, isRole } from '@kb/contracts/roles';
import type { Database } from '../../db/schema.ts';
import { HttpError, forbidden } from '../../http/errors.ts';
import type { AuthService, ClientInfo } from '../auth/auth-service.ts';
import type { SessionRepository } from '../sessions/session-repository.ts';

/** What the account-administration services share: the database and the two modules they use. */
export interface AdminDeps {
  db: Kysely<Database>;
  auth: AuthService;
  sessions: SessionRepository;
}

export function clientOf(request: FastifyRequest): ClientInfo {
  const agent = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: typeof agent === 'string' ? agent.slice(0, 300) : null };
}

export const conflict = (message: string, details?: unknown) =>
  new HttpError(409, { message, code: ERROR_CODES.conflict, ...(details === undefined ? {} : { details }) });

/**
 * Admin roles are another administrator's business (the super-admin page): a KB administrator may
 * not grant, change or end them, nor act on the accounts that hold them.
 */
export function isAdminRole(role: string): role is Role {
  return isRole(role) && ADMIN_ROLES.includes(role);
}
export const ADMIN_ROLE_REFUSAL = 'Admin roles are granted on the super-admin page.';
export const adminRoleRefused = () => forbidden(ADMIN_ROLE_REFUSAL);
export const adminAccountRefused = () => forbidden('This account holds an admin role: it is managed on the super-admin page.');

/** The fields whose values differ, as before/after objects for the audit log. */
export function changedFields<T extends Record<string, unknown>>(
  before: T,
  after: Partial<T>,
): { before: Partial<T>; after: Partial<T> } | null {
  const was: Partial<T> = {};
  const now: Partial<T> = {};
  for (const key of Object.keys(after) as (keyof T)[]) {
    const next = after[key];
    if (next === undefined) continue;
    const previous = before[key];
    const same = previous instanceof Date && next instanceof Date ? previous.getTime() === next.getTime() : previous === next;
    if (!same) {
      was[key] = previous instanceof Date ? (previous.toISOString() as T[keyof T]) : previous;
      now[key] = next instanceof Date ? (next.toISOString() as T[keyof T]) : next;
    }
  }
  return Object.keys(now).length ? { before: was, after: now } : null;
}
