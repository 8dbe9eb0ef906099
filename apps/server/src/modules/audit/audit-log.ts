import type { FastifyRequest } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AuthContext } from '../../http/auth-hook.ts';

/** Who made a change: the administrator's account and address (kept as text with the row). */
export interface AuditActor {
  userId: number;
  email: string;
  ipAddress: string | null;
}

/**
 * The caller of an authenticated request as the audit log records them. Only for endpoints whose
 * access requires a session (the auth hook has set `request.auth`); a public one is a bug.
 */
export function auditActor(request: FastifyRequest): AuditActor {
  const auth: AuthContext | undefined = request.auth;
  if (!auth) throw new Error('auditActor on a request without a session');
  return { userId: auth.userId, email: auth.email, ipAddress: request.ip ?? null };
}

/** One administrative change. `before`/`after` hold only the fields that matter to a reader. */
export interface AuditEntry {
  /** Dotted verb, e.g. `subscription.grant`, `credits.adjust`, `user.deactivate`. */
  action: string;
  targetType:
    | 'organisation'
    | 'user'
    | 'subscription'
    | 'credits'
    | 'session'
    | 'role'
    | 'setting'
    | 'term'
    | 'dataset'
    | 'mfa'
    | 'collection'
    | 'result_set';
  targetId: string | number | null;
  /** What a reader recognises the target by (an address, a name). */
  targetLabel?: string | null;
  before?: unknown;
  after?: unknown;
}

/**
 * Writes one audit row. Call it inside the transaction that makes the change, so a change and its
 * audit row are committed (or rolled back) together: there is no change without its row.
 */
export async function recordAudit(db: Kysely<Database> | Transaction<Database>, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      actor_id: actor.userId,
      actor_email: actor.email,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId === null ? null : String(entry.targetId),
      target_label: entry.targetLabel ?? null,
      before: entry.before === undefined ? null : JSON.stringify(entry.before),
      after: entry.after === undefined ? null : JSON.stringify(entry.after),
      ip_address: actor.ipAddress,
    })
    .execute();
}
