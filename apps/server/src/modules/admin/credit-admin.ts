import type { CreditChange, CreditLedger } from '@kb/contracts/admin-accounts';
import { badRequest, notFound } from '../../http/errors.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { AuditActor } from '../audit/audit-log.ts';
import { CreditBalanceTooHigh, CreditBalanceTooLow, MAX_CREDIT_BALANCE, changeCredits, creditLedger } from '../credits/credit-ledger.ts';
import type { AdminDeps } from './admin-context.ts';
import { lockManagedUser } from './subscriptions.ts';

/** A user's credit ledger as the administrators see it, and their grants and adjustments. */

export async function userLedger(deps: AdminDeps, userId: number, page: number, pageSize: number): Promise<CreditLedger> {
  const user = await deps.db.selectFrom('users').select('credit_balance').where('id', '=', userId).executeTakeFirst();
  if (!user) throw notFound(`There is no user ${userId}.`);
  const { rows, total } = await creditLedger(deps.db, userId, page, pageSize);
  return { balance: user.credit_balance, rows, total };
}

/** A grant adds; an adjustment adds or takes away, never below zero. One ledger row and one audit row. */
export async function changeUserCredits(deps: AdminDeps, actor: AuditActor, userId: number, change: CreditChange): Promise<CreditLedger> {
  if (change.kind === 'grant' && change.delta < 0)
    throw badRequest('A grant adds credits: to take credits away, make an adjustment.', { field: 'delta' });
  await deps.db.transaction().execute(async (trx) => {
    const user = await lockManagedUser(trx, userId);
    try {
      const moved = await changeCredits(trx, {
        userId,
        delta: change.delta,
        kind: change.kind,
        reason: change.reason,
        actorId: actor.userId,
      });
      await recordAudit(trx, actor, {
        action: change.kind === 'grant' ? 'credits.grant' : 'credits.adjust',
        targetType: 'credits',
        targetId: userId,
        targetLabel: user.email,
        before: { balance: moved.balance - change.delta },
        after: { balance: moved.balance, delta: change.delta, reason: change.reason, ledgerId: moved.entryId },
      });
    } catch (error) {
      if (error instanceof CreditBalanceTooLow) {
        throw badRequest(
          `${user.email} has ${error.balance.toLocaleString('en-GB')} credits: taking ${(-change.delta).toLocaleString('en-GB')} would leave fewer than zero.`,
          {
            field: 'delta',
            balance: error.balance,
          },
        );
      }
      if (error instanceof CreditBalanceTooHigh) {
        throw badRequest(
          `${user.email} has ${error.balance.toLocaleString('en-GB')} credits: an account may hold at most ${MAX_CREDIT_BALANCE.toLocaleString('en-GB')}.`,
          { field: 'delta' },
        );
      }
      throw error;
    }
  });
  return userLedger(deps, userId, 1, 50);
}
