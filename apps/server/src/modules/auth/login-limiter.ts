import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { tooManyRequests } from '../../http/errors.ts';

export interface LoginLimits {
  perAccount: number;
  perAddress: number;
  windowMinutes: number;
}

/**
 * Failed-login limits per account and per address, counted from the login history in the database
 * so that every API process agrees. Only wrong passwords count: a refused (429) attempt does not
 * extend the lock, and a successful login ends an account's run of failures.
 */
export class LoginLimiter {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly limits: LoginLimits,
  ) {}

  async assertAllowed(username: string, ipAddress: string | null): Promise<void> {
    const window = sql<Date>`now() - make_interval(mins => ${this.limits.windowMinutes})`;
    const account = await this.db
      .selectFrom('login_attempts')
      .select([sql<number>`count(*)::int`.as('n'), sql<Date | null>`min(login_date)`.as('oldest')])
      .where('username', '=', username)
      .where('failure_reason', '=', 'bad_credentials')
      .where('login_date', '>', window)
      .where(({ eb, selectFrom }) =>
        eb(
          'login_date',
          '>',
          selectFrom('login_attempts')
            .select(sql<Date>`coalesce(max(login_date), 'epoch'::timestamptz)`.as('d'))
            .where('username', '=', username)
            .where('failed', '=', false),
        ),
      )
      .executeTakeFirstOrThrow();
    if (account.n >= this.limits.perAccount) {
      throw tooManyRequests(
        `Too many failed logins for this account. Try again in ${this.minutesLeft(account.oldest)} minutes or reset your password.`,
        this.secondsLeft(account.oldest),
      );
    }
    if (ipAddress === null) return;
    const address = await this.db
      .selectFrom('login_attempts')
      .select([sql<number>`count(*)::int`.as('n'), sql<Date | null>`min(login_date)`.as('oldest')])
      .where('ip_address', '=', ipAddress)
      .where('failure_reason', '=', 'bad_credentials')
      .where('login_date', '>', window)
      .executeTakeFirstOrThrow();
    if (address.n >= this.limits.perAddress) {
      throw tooManyRequests(
        `Too many failed logins from your network address. Try again in ${this.minutesLeft(address.oldest)} minutes.`,
        this.secondsLeft(address.oldest),
      );
    }
  }

  private secondsLeft(oldest: Date | null): number {
    const until = (oldest?.getTime() ?? Date.now()) + this.limits.windowMinutes * 60_000;
    return Math.max(1, Math.ceil((until - Date.now()) / 1000));
  }

  private minutesLeft(oldest: Date | null): number {
    return Math.max(1, Math.ceil(this.secondsLeft(oldest) / 60));
  }
}
