import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Role } from '@kb/contracts/roles';
import { DEMO_PASSWORD, ROLES, demoEmailForRole } from '@kb/contracts/roles';
import type { Database } from '../db/schema.ts';
import { hashPassword } from '../modules/auth/passwords.ts';

export interface DemoUser {
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  /** Days until the subscription ends; negative means it has ended. */
  endsInDays: number;
  credits: number;
  flatFile: boolean;
  note: string;
}

const titleCase = (word: string) => word.charAt(0) + word.slice(1).toLowerCase();

/** One login per role of spec §6, plus an expired and a low-credit account (issue: foundation). */
export const DEMO_USERS: readonly DemoUser[] = [
  ...ROLES.map((role) => {
    const [first = role, ...rest] = role.split('_');
    return {
      email: demoEmailForRole(role),
      firstName: titleCase(first),
      lastName: `${rest.map(titleCase).join(' ')} (demo)`.trim(),
      role,
      endsInDays: 365,
      credits: role === 'FULL_USER' || role === 'DOWNLOAD_EVALUATOR' ? 5000 : 500,
      flatFile: role === 'FULL_USER',
      note: role,
    } satisfies DemoUser;
  }),
  { email: 'expired@demo.test', firstName: 'Expired', lastName: 'Subscription (demo)', role: 'FULL_USER', endsInDays: -10, credits: 500, flatFile: false, note: 'subscription ended' },
  { email: 'lowcredit@demo.test', firstName: 'Low', lastName: 'Credit (demo)', role: 'FULL_USER', endsInDays: 3, credits: 50, flatFile: false, note: '50 credits, ends in 3 days' },
];

/** Adds the demo users that are missing; existing accounts are left as they are. Returns those added. */
export async function seedDemoUsers(db: Kysely<Database>): Promise<string[]> {
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
          credit_balance: user.credits,
          is_new_user: false,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('subscriptions')
        .values({
          user_id: id,
          role_name: user.role,
          contract_id: `DEMO-${String(id).padStart(4, '0')}`,
          end_date: sql<Date>`now() + make_interval(days => ${user.endsInDays})`,
          // An ended demo subscription started before it ended (0016 subscriptions_period).
          start_date: sql<Date>`least(now(), now() + make_interval(days => ${user.endsInDays})) - interval '30 days'`,
          having_flat_file_access: user.flatFile,
        })
        .execute();
    }
  });
  return missing.map((u) => u.email);
}
