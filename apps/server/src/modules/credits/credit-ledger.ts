import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { CreditEntry, CreditKind } from '@kb/contracts/admin-accounts';
import type { Database } from '../../db/schema.ts';

/**
 * The credit ledger (migration 0016): the ONLY way download credits move. Every movement is a
 * ledger row and users.credit_balance is their running sum, written in the same transaction, so
 * balance = SUM(delta) always and each row records the balance after it.
 */

export interface CreditMovement {
  userId: number;
  /** Credits added (positive) or taken (negative); never zero. */
  delta: number;
  kind: CreditKind;
  reason?: string;
  /** The administrator who made it; null for the user's own exports and their refunds. */
  actorId?: number | null;
  exportJobId?: number | null;
}

/** The movement would take the balance below zero; nothing was written. */
export class CreditBalanceTooLow extends Error {
  constructor(
    readonly balance: number,
    readonly delta: number,
  ) {
    super(`The balance is ${balance} credits; taking ${-delta} would leave it below zero.`);
  }
}

/** The largest balance an account may hold (the column is a 32-bit integer). */
export const MAX_CREDIT_BALANCE = 2_000_000_000;

/** The movement would take the balance over MAX_CREDIT_BALANCE; nothing was written. */
export class CreditBalanceTooHigh extends Error {
  constructor(readonly balance: number) {
    super(`The balance is ${balance} credits; an account may hold at most ${MAX_CREDIT_BALANCE}.`);
  }
}

/** There is no such user (deleted meanwhile); nothing was written. */
class CreditUserMissing extends Error {}

/**
 * Moves credits. Call it inside a transaction (`db.transaction().execute(trx => changeCredits(trx, …))`):
 * the user row is locked first (FOR NO KEY UPDATE, see below), so concurrent movements of one user
 * queue and none is lost; a movement that would go below zero throws CreditBalanceTooLow and
 * writes nothing. Answers the new balance.
 *
 * FOR NO KEY UPDATE rather than FOR UPDATE: a transaction that inserted a row referencing the user
 * (an export job, a ledger row) holds FOR KEY SHARE on it, which FOR UPDATE waits for — two exports
 * of one user would then deadlock. NO KEY UPDATE still excludes every other movement of that user.
 */
export async function changeCredits(trx: Kysely<Database>, movement: CreditMovement): Promise<{ balance: number; entryId: number }> {
  if (!trx.isTransaction) throw new Error('changeCredits must run inside a transaction');
  if (!Number.isSafeInteger(movement.delta) || movement.delta === 0) throw new Error(`changeCredits: bad delta ${movement.delta}`);
  const user = await trx.selectFrom('users').select('credit_balance').where('id', '=', movement.userId).forNoKeyUpdate().executeTakeFirst();
  if (!user) throw new CreditUserMissing(`There is no user ${movement.userId}.`);
  const balance = user.credit_balance + movement.delta;
  if (balance < 0) throw new CreditBalanceTooLow(user.credit_balance, movement.delta);
  if (balance > MAX_CREDIT_BALANCE) throw new CreditBalanceTooHigh(user.credit_balance);
  const entry = await trx
    .insertInto('credit_ledger')
    .values({
      user_id: movement.userId,
      delta: movement.delta,
      kind: movement.kind,
      reason: movement.reason ?? '',
      actor_id: movement.actorId ?? null,
      export_job_id: movement.exportJobId ?? null,
      balance_after: balance,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx.updateTable('users').set({ credit_balance: balance }).where('id', '=', movement.userId).execute();
  return { balance, entryId: Number(entry.id) };
}

/** A user's ledger page, newest first, with the number of rows. */
export async function creditLedger(
  db: Kysely<Database>,
  userId: number,
  page: number,
  pageSize: number,
): Promise<{ rows: CreditEntry[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('credit_ledger as l')
      .leftJoin('users as a', 'a.id', 'l.actor_id')
      .select(['l.id', 'l.delta', 'l.kind', 'l.reason', 'a.email as actor_email', 'l.export_job_id', 'l.balance_after', 'l.created_at'])
      .where('l.user_id', '=', userId)
      .orderBy('l.id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    db.selectFrom('credit_ledger').select(sql<number>`count(*)::int`.as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow(),
  ]);
  return {
    total: count.n,
    rows: rows.map((r) => ({
      id: Number(r.id),
      delta: r.delta,
      kind: r.kind,
      reason: r.reason,
      actorEmail: r.actor_email,
      exportJobId: r.export_job_id === null ? null : Number(r.export_job_id),
      balanceAfter: r.balance_after,
      createdAt: new Date(r.created_at).toISOString(),
    })),
  };
}
