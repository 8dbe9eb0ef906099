import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { AdminRole, AdminRoleGrant, AdminRoleHolder, AdminRoleHolders, UserSearchResult } from '@kb/contracts/superadmin';
import { ADMIN_GRANTABLE_ROLES, ADMIN_ROLE_MAX_DAYS } from '@kb/contracts/superadmin';
import { ERROR_CODES } from '@kb/contracts/errors';
import { DAY_MS, endInstant, lastDay, startInstant } from '@kb/contracts/plain-date';
import type { Database } from '../../db/schema.ts';
import { HttpError, badRequest, notFound } from '../../http/errors.ts';
import type { AuditActor } from '../audit/audit-log.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { containsPattern } from '../../db/like-pattern.ts';

/*
 * Admin roles (GOSTAR_ADMIN, FLAT_FILE_ADMIN, SUPER_ADMIN) are subscriptions like any other: a role
 * runs while start_date <= now() < end_date, and the auth hook reads the running ones on every
 * request, so a grant or a revoke applies from the holder's next request. Only the super admin's
 * endpoints write them.
 */

type Db = Kysely<Database>;

const name = (first: string, last: string) => `${first} ${last}`.trim();

function holder(row: {
  id: number;
  user_id: number;
  email: string;
  first_name: string;
  last_name: string;
  role_name: string;
  start_date: Date;
  end_date: Date;
  mfa_enrolled: boolean;
}): AdminRoleHolder {
  return {
    subscriptionId: row.id,
    userId: row.user_id,
    email: row.email,
    name: name(row.first_name, row.last_name),
    role: row.role_name as AdminRole,
    startDate: row.start_date.toISOString(),
    endDate: row.end_date.toISOString(),
    status: row.start_date.getTime() > Date.now() ? 'scheduled' : 'active',
    mfaEnrolled: row.mfa_enrolled === true,
  };
}

function holdersQuery(db: Db) {
  return db
    .selectFrom('subscriptions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id', 's.user_id', 'u.email', 'u.first_name', 'u.last_name', 's.role_name', 's.start_date', 's.end_date'])
    .select(sql<boolean>`exists (select 1 from user_mfa m where m.user_id = s.user_id and m.confirmed_at is not null)`.as('mfa_enrolled'))
    .where('s.role_name', 'in', [...ADMIN_GRANTABLE_ROLES]);
}

/** Holders whose period has not ended, by role then address. */
export async function listAdminRoles(db: Db): Promise<AdminRoleHolders> {
  const rows = await holdersQuery(db)
    .where('s.end_date', '>', sql<Date>`now()`)
    .orderBy('s.role_name')
    .orderBy('u.email')
    .orderBy('s.start_date')
    .execute();
  return { rows: rows.map(holder) };
}

/** Users whose address contains `text` (at most 20), to pick whom to grant a role to. */
export async function findUsers(db: Db, text: string): Promise<UserSearchResult> {
  const pattern = containsPattern(text.toLowerCase());
  const rows = await db
    .selectFrom('users')
    .select(['id', 'email', 'first_name', 'last_name', 'active'])
    .where('email', 'like', pattern)
    .orderBy('email')
    .limit(20)
    .execute();
  return { rows: rows.map((r) => ({ userId: r.id, email: r.email, name: name(r.first_name, r.last_name), active: r.active })) };
}

export async function grantAdminRole(db: Db, actor: AuditActor, grant: AdminRoleGrant): Promise<AdminRoleHolder> {
  const now = Date.now();
  const start = grant.startDate ? startInstant(grant.startDate) : new Date(now);
  const end = endInstant(grant.endDate);
  if (end.getTime() <= now) throw badRequest('The end date must be in the future.', { field: 'endDate' });
  if (end.getTime() <= start.getTime())
    throw badRequest('The end date (the last day, inclusive) must not be before the start date.', { field: 'endDate' });
  if (end.getTime() - Math.max(start.getTime(), now) > ADMIN_ROLE_MAX_DAYS * DAY_MS) {
    throw badRequest(`An admin role may be granted for at most ${ADMIN_ROLE_MAX_DAYS} days at once.`, { field: 'endDate' });
  }
  return db.transaction().execute(async (trx) => {
    // Locked so that two grants to one user cannot both pass the overlap check.
    const user = await trx
      .selectFrom('users')
      .select(['id', 'email', 'active'])
      .where('id', '=', grant.userId)
      .forUpdate()
      .executeTakeFirst();
    if (!user) throw notFound(`There is no user ${grant.userId}.`);
    if (!user.active) throw badRequest(`${user.email} is deactivated: reactivate the account first.`, { field: 'userId' });
    const overlapping = await trx
      .selectFrom('subscriptions')
      .select(['end_date'])
      .where('user_id', '=', user.id)
      .where('role_name', '=', grant.role)
      .where('end_date', '>', start)
      .where('start_date', '<', end)
      .executeTakeFirst();
    if (overlapping) {
      throw new HttpError(409, {
        message: `${user.email} already holds ${grant.role} in that period (until ${lastDay(overlapping.end_date)}). Revoke it first to change its dates.`,
        code: ERROR_CODES.conflict,
      });
    }
    const position = await trx
      .selectFrom('subscriptions')
      .select(sql<number>`coalesce(max(position), 0) + 1`.as('next'))
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    const row = await trx
      .insertInto('subscriptions')
      .values({
        user_id: user.id,
        role_name: grant.role,
        contract_id: 'ADMIN-ROLE',
        start_date: start,
        end_date: end,
        position: position.next,
      })
      .returning(['id'])
      .executeTakeFirstOrThrow();
    const created = await holdersQuery(trx).where('s.id', '=', row.id).executeTakeFirstOrThrow();
    await recordAudit(trx, actor, {
      action: 'role.grant',
      targetType: 'role',
      targetId: row.id,
      targetLabel: `${user.email} · ${grant.role}`,
      after: { user: user.email, role: grant.role, startDate: created.start_date.toISOString(), endDate: created.end_date.toISOString() },
    });
    return holder(created);
  });
}

/** Ends an admin role now. The last running SUPER_ADMIN cannot be revoked: someone must remain. */
export async function revokeAdminRole(db: Db, actor: AuditActor, subscriptionId: number): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const row = await holdersQuery(trx).where('s.id', '=', subscriptionId).forUpdate('s').executeTakeFirst();
    if (!row) throw notFound(`There is no admin role ${subscriptionId}.`);
    if (row.end_date.getTime() <= Date.now()) throw badRequest(`This ${row.role_name} role of ${row.email} has already ended.`);
    const running = row.start_date.getTime() <= Date.now();
    if (row.role_name === 'SUPER_ADMIN' && running) {
      // Every running super-admin period locked: two super admins revoking each other at once
      // cannot both pass this check. A deactivated account cannot log in, so it does not count.
      const others = await trx
        .selectFrom('subscriptions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .select(['s.id'])
        .where('s.role_name', '=', 'SUPER_ADMIN')
        .where('s.start_date', '<=', sql<Date>`now()`)
        .where('s.end_date', '>', sql<Date>`now()`)
        .where('u.active', '=', true)
        .forUpdate('s')
        .execute();
      if (!others.some((o) => o.id !== row.id)) {
        const who = row.user_id === actor.userId ? 'You are' : `${row.email} is`;
        throw badRequest(
          `${who} the last super admin with an active account: grant SUPER_ADMIN to someone else (or reactivate their account) before revoking this one.`,
        );
      }
    }
    await trx
      .updateTable('subscriptions')
      .set({ end_date: sql`now()`, start_date: sql`least(start_date, now())`, ended_at: sql`now()`, ended_by: actor.userId })
      .where('id', '=', subscriptionId)
      .execute();
    await recordAudit(trx, actor, {
      action: 'role.revoke',
      targetType: 'role',
      targetId: subscriptionId,
      targetLabel: `${row.email} · ${row.role_name}`,
      before: { user: row.email, role: row.role_name, startDate: row.start_date.toISOString(), endDate: row.end_date.toISOString() },
      after: { user: row.email, role: row.role_name, endDate: new Date().toISOString(), ended: true },
    });
    return `${row.role_name} of ${row.email} has ended: their next request no longer has it.`;
  });
}
