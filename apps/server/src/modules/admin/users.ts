import type { Kysely } from 'kysely';
import type { AdminUser, UserAction, UserCreate, UserUpdate } from '@kb/contracts/admin-accounts';
import type { Database } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { AuditActor } from '../audit/audit-log.ts';
import { ADMIN_CREATED_ACTION } from '../auth/auth-service.ts';
import type { ClientInfo } from '../auth/auth-service.ts';
import type { Mail } from '../auth/mailer.ts';
import { changeCredits } from '../credits/credit-ledger.ts';
import type { AdminDeps } from './admin-context.ts';
import { changedFields, conflict } from './admin-context.ts';
import { assertSeatFree } from './organisations.ts';
import { insertSubscription, lockManagedUser } from './subscriptions.ts';
import { adminUser } from './user-queries.ts';

/** Users: created (optionally with a subscription, opening credits and an invitation), edited, acted on. */

type Db = Kysely<Database>;

/** 409 when the address already has an account. */
async function assertEmailFree(trx: Db, email: string): Promise<void> {
  const taken = await trx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  if (taken) throw conflict(`${email} already has an account (user ${taken.id}).`, { field: 'email', userId: taken.id });
}

/**
 * Creates one account inside the caller's transaction and writes its one audit row; answers its id
 * and the invitation mail to send once the transaction has committed (the bulk import shares it).
 */
export async function insertUser(
  deps: AdminDeps,
  trx: Db,
  actor: AuditActor,
  client: ClientInfo,
  input: UserCreate,
  source: string | null = null,
): Promise<{ userId: number; mail: Mail | null }> {
  await assertEmailFree(trx, input.email);
  const organisationName = input.organisationId ? await assertSeatFree(trx, input.organisationId) : null;
  const { id } = await trx
    .insertInto('users')
    .values({
      email: input.email,
      password_hash: null,
      first_name: input.firstName,
      last_name: input.lastName,
      organisation_id: input.organisationId ?? null,
      organisation: organisationName,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const subscription = input.subscription ? await insertSubscription(trx, id, input.subscription) : null;
  if (input.credits)
    await changeCredits(trx, { userId: id, delta: input.credits, kind: 'grant', reason: 'Opening credits', actorId: actor.userId });
  const link = input.invite ? await deps.auth.issueAdminLink(trx, input.email, client) : null;
  await recordAudit(trx, actor, {
    action: ADMIN_CREATED_ACTION,
    targetType: 'user',
    targetId: id,
    targetLabel: input.email,
    after: {
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      organisationId: input.organisationId ?? null,
      subscription,
      credits: input.credits ?? 0,
      invited: link !== null,
      ...(source ? { source } : {}),
    },
  });
  return { userId: id, mail: link?.mail ?? null };
}

export async function createUser(deps: AdminDeps, actor: AuditActor, client: ClientInfo, input: UserCreate): Promise<AdminUser> {
  const created = await deps.db.transaction().execute((trx) => insertUser(deps, trx, actor, client, input));
  if (created.mail) deps.auth.sendAfterCommit(created.mail);
  return adminUser(deps, created.userId);
}

export async function updateUser(deps: AdminDeps, actor: AuditActor, userId: number, input: UserUpdate): Promise<AdminUser> {
  if (Object.values(input).every((v) => v === undefined))
    throw badRequest('Nothing to change: give a first name, last name or organisation.');
  await deps.db.transaction().execute(async (trx) => {
    await lockManagedUser(trx, userId);
    const current = await trx
      .selectFrom('users')
      .select(['email', 'first_name', 'last_name', 'organisation_id', 'active'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    const change = changedFields(
      { firstName: current.first_name, lastName: current.last_name, organisationId: current.organisation_id },
      { firstName: input.firstName, lastName: input.lastName, organisationId: input.organisationId },
    );
    if (!change) return;
    let organisationName: string | null | undefined;
    if (input.organisationId !== undefined && input.organisationId !== current.organisation_id) {
      organisationName = input.organisationId === null ? null : await assertSeatFree(trx, input.organisationId, current.active ? 1 : 0);
    }
    await trx
      .updateTable('users')
      .set({
        ...(input.firstName !== undefined ? { first_name: input.firstName } : {}),
        ...(input.lastName !== undefined ? { last_name: input.lastName } : {}),
        ...(organisationName !== undefined ? { organisation_id: input.organisationId ?? null, organisation: organisationName } : {}),
      })
      .where('id', '=', userId)
      .execute();
    await recordAudit(trx, actor, { action: 'user.update', targetType: 'user', targetId: userId, targetLabel: current.email, ...change });
  });
  return adminUser(deps, userId);
}

/** Deactivate, reactivate, close sessions, mail a password link, lift a lock-out: one audit row each. */
export async function userAction(
  deps: AdminDeps,
  actor: AuditActor,
  client: ClientInfo,
  userId: number,
  { action }: UserAction,
): Promise<{ message: string; user: AdminUser }> {
  if (userId === actor.userId && (action === 'deactivate' || action === 'closeSessions')) {
    throw badRequest(
      action === 'deactivate'
        ? 'You cannot deactivate your own account.'
        : 'Log out to close your own sessions; this closes another user’s.',
    );
  }
  const locked = action === 'liftLockout' ? await deps.auth.lockedOutUsers([userId]) : null;
  const outcome = await deps.db.transaction().execute(async (trx): Promise<{ message: string; mail?: Mail | null }> => {
    const user = await lockManagedUser(trx, userId);
    const audit = (name: string, before: unknown, after: unknown) =>
      recordAudit(trx, actor, { action: `user.${name}`, targetType: 'user', targetId: userId, targetLabel: user.email, before, after });
    switch (action) {
      case 'deactivate': {
        if (!user.active) return { message: `${user.email} is already deactivated.` };
        await trx.updateTable('users').set({ active: false }).where('id', '=', userId).execute();
        const closed = await deps.sessions.closeAllIn(trx, userId, 'deactivated');
        await audit('deactivate', { active: true }, { active: false, closedSessions: closed });
        return { message: `${user.email} is deactivated${closed ? ` and ${closed} open session(s) were closed` : ''}.` };
      }
      case 'reactivate': {
        if (user.active) return { message: `${user.email} is already active.` };
        const { organisation_id: organisationId } = await trx
          .selectFrom('users')
          .select('organisation_id')
          .where('id', '=', userId)
          .executeTakeFirstOrThrow();
        if (organisationId !== null) await assertSeatFree(trx, organisationId);
        await trx.updateTable('users').set({ active: true }).where('id', '=', userId).execute();
        await audit('reactivate', { active: false }, { active: true });
        return { message: `${user.email} is active again.` };
      }
      case 'closeSessions': {
        const closed = await deps.sessions.closeAllIn(trx, userId, 'closed_by_admin');
        if (closed === 0) return { message: `${user.email} has no open session.` };
        await audit('closeSessions', { openSessions: closed }, { openSessions: 0 });
        return { message: `${closed} session(s) of ${user.email} were closed; the next call from them asks to log in.` };
      }
      case 'sendPasswordLink': {
        if (!user.active) throw badRequest(`${user.email} is deactivated: reactivate the account before sending a link.`);
        const link = await deps.auth.issueAdminLink(trx, user.email, client);
        if (!link) throw new Error(`no link issued for ${user.email}`);
        await audit('sendPasswordLink', null, { link: link.purpose });
        return {
          message:
            link.purpose === 'register'
              ? `A registration link was mailed to ${user.email}.`
              : `A link to set a new password was mailed to ${user.email}.`,
          mail: link.mail,
        };
      }
      case 'liftLockout': {
        if (!locked?.has(userId)) return { message: `${user.email} is not locked out.` };
        await deps.auth.liftLockout(trx, userId);
        await audit('liftLockout', { lockedOut: true }, { lockedOut: false });
        return { message: `The login lock-out of ${user.email} is lifted: earlier wrong passwords no longer count.` };
      }
    }
  });
  if (outcome.mail) deps.auth.sendAfterCommit(outcome.mail);
  return { message: outcome.message, user: await adminUser(deps, userId) };
}
