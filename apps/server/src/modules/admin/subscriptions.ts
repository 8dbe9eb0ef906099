import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { AdminUser, SubscriptionGrant, SubscriptionUpdate } from '@kb/contracts/admin-accounts';
import type { Database } from '../../db/schema.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { AuditActor } from '../audit/audit-log.ts';
import type { AdminDeps } from './admin-context.ts';
import { endInstant, lastDay, startInstant, utcDay } from '@kb/contracts/plain-date';
import { adminAccountRefused, adminRoleRefused, changedFields, conflict, isAdminRole } from './admin-context.ts';
import { adminUser } from './user-queries.ts';

/*
 * Subscriptions: a role between a start and an end date. Granted, renewed or extended, and ended
 * early here; the session check reads the dates on every request, so a change counts from the
 * user's next call. Admin roles are not granted here (the super-admin page does).
 */

type Db = Kysely<Database>;

/** 400 unless the period ends after it starts and, for a new or renewed period, after now. */
function assertPeriod(start: Date, end: Date): void {
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) throw badRequest('Give dates as YYYY-MM-DD or an ISO timestamp.');
  if (end.getTime() <= start.getTime())
    throw badRequest(`The end date (${lastDay(end)}) must not be before the start date (${utcDay(start)}).`, { field: 'endDate' });
  if (end.getTime() <= Date.now()) {
    throw badRequest(`The end date (${lastDay(end)}) has passed: give a future end date, or use "End now" to stop a subscription.`, {
      field: 'endDate',
    });
  }
}

/** 409 when the user already holds this role for part of the period (one subscription per role at a time). */
async function assertNoOverlap(trx: Db, userId: number, role: string, start: Date, end: Date, exceptId: number | null): Promise<void> {
  const overlapping = await trx
    .selectFrom('subscriptions')
    .select(['id', 'start_date', 'end_date'])
    .where('user_id', '=', userId)
    .where('role_name', '=', role)
    .where('start_date', '<', end)
    .where('end_date', '>', start)
    .$if(exceptId !== null, (q) => q.where('id', '!=', exceptId as number))
    .executeTakeFirst();
  if (overlapping) {
    throw conflict(
      `This user already holds ${role} from ${utcDay(overlapping.start_date)} to ${lastDay(overlapping.end_date)}, which overlaps: extend or renew that subscription instead.`,
      { subscriptionId: overlapping.id },
    );
  }
}

/** The user row locked for the change; 404 when there is none. */
async function lockUser(trx: Db, userId: number) {
  const user = await trx
    .selectFrom('users')
    .select(['id', 'email', 'active', 'password_hash'])
    .where('id', '=', userId)
    .forNoKeyUpdate()
    .executeTakeFirst();
  if (!user) throw notFound(`There is no user ${userId}.`);
  return user;
}

/** Whether the user holds an admin role that has not ended (running or scheduled). */
async function holdsAdminRole(trx: Db, userId: number): Promise<boolean> {
  const roles = await trx
    .selectFrom('subscriptions')
    .select('role_name')
    .where('user_id', '=', userId)
    .where('end_date', '>', sql<Date>`now()`)
    .execute();
  return roles.some((r) => isAdminRole(r.role_name));
}

/**
 * The user row locked for a KB administrator's change to the account (its details, actions,
 * subscriptions, credits): 404 when there is none, 403 when it holds an admin role. Such accounts —
 * the caller's own, the super admins' — are the super-admin page's business, so an administrator
 * cannot grant themselves a subscription or credits.
 */
export async function lockManagedUser(trx: Db, userId: number) {
  const user = await lockUser(trx, userId);
  if (await holdsAdminRole(trx, userId)) throw adminAccountRefused();
  return user;
}

/**
 * Inserts a subscription after checking it (inside the caller's transaction; the caller writes the
 * audit row). It goes last in the user's list, so it becomes the default current role (spec §6).
 */
export async function insertSubscription(trx: Db, userId: number, grant: SubscriptionGrant) {
  if (isAdminRole(grant.role)) throw adminRoleRefused();
  const start = grant.startDate ? startInstant(grant.startDate) : new Date();
  const end = endInstant(grant.endDate);
  assertPeriod(start, end);
  await assertNoOverlap(trx, userId, grant.role, start, end, null);
  const { position } = await trx
    .selectFrom('subscriptions')
    .select(sql<number>`coalesce(max(position), 0)::int + 1`.as('position'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  // A contract id of our making names the subscription alone: the user, the start day and its place in
  // the user's list (two subscriptions granted on one day had the same id before).
  const contractId = grant.contractId || `SUB-${userId}-${utcDay(start).replace(/-/g, '')}-${position}`;
  const row = await trx
    .insertInto('subscriptions')
    .values({
      user_id: userId,
      role_name: grant.role,
      contract_id: contractId,
      start_date: start,
      end_date: end,
      having_flat_file_access: grant.havingFlatFileAccess ?? false,
      position,
    })
    .returning(['id'])
    .executeTakeFirstOrThrow();
  return {
    id: row.id,
    role: grant.role,
    contractId,
    startDate: start.toISOString(),
    endDate: end.toISOString(),
    havingFlatFileAccess: grant.havingFlatFileAccess ?? false,
  };
}

/** Closes the user's sessions when no subscription of theirs runs now (inside the change's transaction). */
async function closeSessionsWithoutSubscription(deps: AdminDeps, trx: Db, userId: number): Promise<number> {
  const running = await trx
    .selectFrom('subscriptions')
    .select('id')
    .where('user_id', '=', userId)
    .where('start_date', '<=', sql<Date>`now()`)
    .where('end_date', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return running ? 0 : deps.sessions.closeAllIn(trx, userId, 'subscription_ended');
}

export async function grantSubscription(deps: AdminDeps, actor: AuditActor, userId: number, grant: SubscriptionGrant): Promise<AdminUser> {
  await deps.db.transaction().execute(async (trx) => {
    const user = await lockManagedUser(trx, userId);
    const granted = await insertSubscription(trx, userId, grant);
    await recordAudit(trx, actor, {
      action: 'subscription.grant',
      targetType: 'subscription',
      targetId: granted.id,
      targetLabel: `${user.email} · ${granted.role}`,
      after: granted,
    });
  });
  return adminUser(deps, userId);
}

/**
 * The subscription row locked for a change, with its user's address; 404 when there is none, 403
 * for an admin role or any subscription of an account that holds one. Its user's row is locked first, as a grant locks it: a grant and an extension
 * of the same user and role made at once must not both pass the overlap check (and the user row
 * before the subscription row, in the same order as every other change, so none deadlock).
 */
async function lockSubscription(trx: Db, subscriptionId: number) {
  const owner = await trx.selectFrom('subscriptions').select('user_id').where('id', '=', subscriptionId).executeTakeFirst();
  if (owner) await lockManagedUser(trx, owner.user_id);
  const row = await trx
    .selectFrom('subscriptions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select([
      's.id',
      's.user_id',
      's.role_name',
      's.contract_id',
      's.start_date',
      's.end_date',
      's.having_flat_file_access',
      's.ended_at',
      'u.email',
    ])
    .where('s.id', '=', subscriptionId)
    .forUpdate('s')
    .executeTakeFirst();
  if (!row) throw notFound(`There is no subscription ${subscriptionId}.`);
  if (isAdminRole(row.role_name)) throw adminRoleRefused();
  return row;
}

/** Renews or extends: new dates, contract or flat-file flag. A renewed ended subscription runs again. */
export async function updateSubscription(
  deps: AdminDeps,
  actor: AuditActor,
  subscriptionId: number,
  update: SubscriptionUpdate,
): Promise<AdminUser> {
  if (Object.values(update).every((v) => v === undefined))
    throw badRequest('Nothing to change: give a new start or end date, a contract or the flat-file flag.');
  const userId = await deps.db.transaction().execute(async (trx) => {
    const current = await lockSubscription(trx, subscriptionId);
    const start = update.startDate ? startInstant(update.startDate) : current.start_date;
    const end = update.endDate ? endInstant(update.endDate) : current.end_date;
    if (update.startDate || update.endDate) {
      assertPeriod(start, end);
      await assertNoOverlap(trx, current.user_id, current.role_name, start, end, current.id);
    }
    const before = {
      startDate: current.start_date,
      endDate: current.end_date,
      contractId: current.contract_id,
      havingFlatFileAccess: current.having_flat_file_access,
    };
    const change = changedFields(before, {
      startDate: update.startDate ? start : undefined,
      endDate: update.endDate ? end : undefined,
      contractId: update.contractId,
      havingFlatFileAccess: update.havingFlatFileAccess,
    });
    if (!change) return current.user_id;
    // A new end date revives an ended subscription (ended early or run out): a renewal, no longer "ended early".
    const renewed = (current.ended_at !== null || current.end_date.getTime() <= Date.now()) && end.getTime() > Date.now();
    await trx
      .updateTable('subscriptions')
      .set({
        start_date: start,
        end_date: end,
        ...(update.contractId !== undefined ? { contract_id: update.contractId } : {}),
        ...(update.havingFlatFileAccess !== undefined ? { having_flat_file_access: update.havingFlatFileAccess } : {}),
        ...(renewed ? { ended_at: null, ended_by: null } : {}),
      })
      .where('id', '=', subscriptionId)
      .execute();
    await recordAudit(trx, actor, {
      action: renewed ? 'subscription.renew' : 'subscription.update',
      targetType: 'subscription',
      targetId: subscriptionId,
      targetLabel: `${current.email} · ${current.role_name}`,
      ...change,
    });
    // A start moved into the future can leave the user without a running subscription.
    await closeSessionsWithoutSubscription(deps, trx, current.user_id);
    return current.user_id;
  });
  return adminUser(deps, userId);
}

/**
 * Ends a subscription now (end date = now, stamped with who and when); a scheduled one is
 * cancelled (both dates now). A user left without a running subscription is logged out at once.
 */
export async function endSubscription(
  deps: AdminDeps,
  actor: AuditActor,
  subscriptionId: number,
  reason: string | undefined,
): Promise<AdminUser> {
  const userId = await deps.db.transaction().execute(async (trx) => {
    const current = await lockSubscription(trx, subscriptionId);
    const ended = await trx
      .updateTable('subscriptions')
      .set({
        end_date: sql<Date>`now()`,
        start_date: sql<Date>`least(start_date, now())`,
        ended_at: sql<Date>`now()`,
        ended_by: actor.userId,
      })
      .where('id', '=', subscriptionId)
      .where('end_date', '>', sql<Date>`now()`)
      .returning(['start_date', 'end_date'])
      .executeTakeFirst();
    if (!ended) throw conflict(`This subscription already ended on ${lastDay(current.end_date)}.`);
    const closedSessions = await closeSessionsWithoutSubscription(deps, trx, current.user_id);
    await recordAudit(trx, actor, {
      action: 'subscription.end',
      targetType: 'subscription',
      targetId: subscriptionId,
      targetLabel: `${current.email} · ${current.role_name}`,
      before: { startDate: current.start_date.toISOString(), endDate: current.end_date.toISOString() },
      after: { startDate: ended.start_date.toISOString(), endDate: ended.end_date.toISOString(), reason: reason ?? '', closedSessions },
    });
    return current.user_id;
  });
  return adminUser(deps, userId);
}
