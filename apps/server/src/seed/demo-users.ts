import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { DEMO_PASSWORD } from '@kb/contracts/roles';
import type { Database } from '../db/schema.ts';
import { DEMO_USERS } from '../modules/auth/demo-accounts.ts';
import { hashPassword } from '../modules/auth/passwords.ts';
import { changeCredits } from '../modules/credits/credit-ledger.ts';
import { seedDemoOrganisation } from './demo-organisation.ts';

/**
 * Adds the demo users that are missing (existing accounts are left as they are) and, on a first
 * start, the organisation they belong to. Returns those added.
 */
export async function seedDemoUsers(db: Kysely<Database>): Promise<string[]> {
  const added = await addMissingDemoUsers(db);
  await seedDemoOrganisation(
    db,
    DEMO_USERS.map((u) => u.email),
  );
  return added;
}

async function addMissingDemoUsers(db: Kysely<Database>): Promise<string[]> {
  const existing = new Set((await db.selectFrom('users').select('email').execute()).map((r) => r.email));
  const missing = DEMO_USERS.filter((u) => !existing.has(u.email));
  if (missing.length === 0) return [];
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction().execute(async (trx) => {
    for (const user of missing) {
      const { id } = await trx
        .insertInto('users')
        .values({
          email: user.email,
          password_hash: passwordHash,
          first_name: user.firstName,
          last_name: user.lastName,
          is_new_user: false,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // Through the ledger, so balance = SUM(ledger) from the first start.
      if (user.credits > 0) await changeCredits(trx, { userId: id, delta: user.credits, kind: 'opening', reason: 'Demo account' });
      await trx
        .insertInto('subscriptions')
        .values({
          user_id: id,
          role_name: user.role,
          contract_id: `DEMO-${String(id).padStart(4, '0')}`,
          // Started a month ago, so an ended demo subscription still ends after it started.
          start_date: sql<Date>`now() - interval '30 days'`,
          end_date: sql<Date>`now() + make_interval(days => ${user.endsInDays})`,
          having_flat_file_access: user.flatFile,
        })
        .execute();
    }
  });
  return missing.map((u) => u.email);
}
