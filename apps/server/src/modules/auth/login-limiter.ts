import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { tooManyRequests } from '../../http/errors.ts';

export type LoginLimits = AppConfig['loginLimits'];

/** `login_attempts.failure_reason` of the rows that count as a wrong password. */
export const WRONG_PASSWORD = {
  /** A login with a wrong password (or an unknown address). */
  login: 'bad_credentials',
  /** A wrong current password when changing the password (re-authentication). */
  reauthentication: 'wrong_current_password',
} as const;

interface Counts {
  pair_n: number;
  pair_oldest: Date | null;
  address_n: number;
  address_oldest: Date | null;
  account_n: number;
  account_oldest: Date | null;
  known_address: boolean;
}

/**
 * Limits on wrong passwords, counted from the login history in the database so that every API
 * process agrees. Three counts, so that guessing is slow but a stranger cannot lock an owner out:
 *
 * - per account and address (5 in 15 minutes): the lock an attacker runs into first; it ends with
 *   a successful login from that address;
 * - per address across accounts (20 in 15 minutes): password spraying from one place;
 * - per account across all addresses (50 in an hour): guessing from many addresses.
 *
 * The last two do not apply on an address the account logged in from within `knownAddressDays`:
 * failures elsewhere, or of other accounts behind the same address, never lock the owner out of a
 * place they use. Failures before the account's last password change do not count; a refused (429)
 * attempt is not a failure, so waiting always ends the lock. An administrator can lift a lock
 * (`users.lockout_lifted_at`): failures before that moment no longer count for the account, on the
 * address count included (for this account's logins only: others behind the address stay limited).
 */
export class LoginLimiter {
  constructor(
    private readonly db: Kysely<Database>,
    /** Fixed limits, or a read of the current ones (a super admin changes them at run time: settings module). */
    private readonly limits: LoginLimits | (() => Promise<LoginLimits>),
  ) {}

  private async currentLimits(): Promise<LoginLimits> {
    return typeof this.limits === 'function' ? this.limits() : this.limits;
  }

  /** Throws 429 when `username` may not try a password from `ipAddress` now. */
  async assertAllowed(username: string, ipAddress: string | null): Promise<void> {
    const limits = await this.currentLimits();
    const counts = await this.counts(limits, username, ipAddress);
    if (counts.pair_n >= limits.perAccountAddress) {
      throw tooManyRequests(
        `Too many wrong passwords for this account from your network address. Try again in ${this.wait(counts.pair_oldest, limits.windowMinutes)}, or reset your password.`,
        this.secondsLeft(counts.pair_oldest, limits.windowMinutes),
      );
    }
    if (counts.known_address) return;
    if (counts.account_n >= limits.perAccount) {
      throw tooManyRequests(
        `Too many wrong passwords for this account. Try again in ${this.wait(counts.account_oldest, limits.accountWindowMinutes)}, from a network where you logged in before, or reset your password.`,
        this.secondsLeft(counts.account_oldest, limits.accountWindowMinutes),
      );
    }
    if (counts.address_n >= limits.perAddress) {
      throw tooManyRequests(
        `Too many failed logins from your network address. Try again in ${this.wait(counts.address_oldest, limits.windowMinutes)}.`,
        this.secondsLeft(counts.address_oldest, limits.windowMinutes),
      );
    }
  }

  /**
   * The users among `userIds` whom the limits refuse now from somewhere: five wrong passwords from
   * one address since the last success there, or the per-account ceiling (which refuses every
   * address they did not log in from lately). What the administrators' user list shows.
   */
  async lockedOut(userIds: readonly number[]): Promise<Set<number>> {
    if (userIds.length === 0) return new Set();
    const { windowMinutes, accountWindowMinutes, perAccountAddress, perAccount } = await this.currentLimits();
    const reasons = [WRONG_PASSWORD.login, WRONG_PASSWORD.reauthentication];
    const { rows } = await sql<{ id: number }>`
      WITH target AS (
        SELECT id, email, greatest(coalesce(password_changed_at, 'epoch'::timestamptz), coalesce(lockout_lifted_at, 'epoch'::timestamptz)) AS changed
        FROM users WHERE id IN (${sql.join(userIds)})
      ), failures AS (
        SELECT t.id, f.ip_address, f.login_date, t.changed FROM target t
        JOIN login_attempts f ON f.username = t.email
        WHERE f.failure_reason IN (${sql.join(reasons)})
          AND f.login_date > greatest(t.changed, now() - make_interval(mins => ${Math.max(windowMinutes, accountWindowMinutes)}))
      ), pairs AS (
        SELECT f.id FROM failures f
        WHERE f.ip_address IS NOT NULL
          AND f.login_date > now() - make_interval(mins => ${windowMinutes})
          AND f.login_date > coalesce((SELECT max(s.login_date) FROM login_attempts s JOIN target t ON t.id = f.id
                                       WHERE s.username = t.email AND s.ip_address = f.ip_address AND s.failed = false), 'epoch'::timestamptz)
        GROUP BY f.id, f.ip_address HAVING count(*) >= ${perAccountAddress}
      ), accounts AS (
        SELECT id FROM failures WHERE login_date > now() - make_interval(mins => ${accountWindowMinutes})
        GROUP BY id HAVING count(*) >= ${perAccount}
      )
      SELECT id FROM pairs UNION SELECT id FROM accounts
    `.execute(this.db);
    return new Set(rows.map((r) => Number(r.id)));
  }

  private async counts(limits: LoginLimits, username: string, ipAddress: string | null): Promise<Counts> {
    const { windowMinutes, accountWindowMinutes, knownAddressDays } = limits;
    const reasons = [WRONG_PASSWORD.login, WRONG_PASSWORD.reauthentication];
    // A null address (no socket address) matches nothing: only the account ceiling applies then.
    const { rows } = await sql<Counts>`
      WITH changed AS (
        SELECT coalesce(max(greatest(password_changed_at, lockout_lifted_at)), 'epoch'::timestamptz) AS at,
               coalesce(max(lockout_lifted_at), 'epoch'::timestamptz) AS lifted
        FROM users WHERE email = ${username}
      ), pair_success AS (
        SELECT coalesce(max(login_date), 'epoch'::timestamptz) AS at
        FROM login_attempts WHERE username = ${username} AND ip_address = ${ipAddress} AND failed = false
      ), bounds AS (
        SELECT greatest(now() - make_interval(mins => ${windowMinutes}), pair_success.at, changed.at) AS pair_since,
               greatest(now() - make_interval(mins => ${windowMinutes}), changed.lifted) AS address_since,
               greatest(now() - make_interval(mins => ${accountWindowMinutes}), changed.at) AS account_since,
               pair_success.at > now() - make_interval(days => ${knownAddressDays}) AS known_address
        FROM changed, pair_success
      ), failures AS (
        SELECT username, ip_address, login_date FROM login_attempts
        WHERE failure_reason IN (${sql.join(reasons)})
          AND login_date > now() - make_interval(mins => ${Math.max(windowMinutes, accountWindowMinutes)})
          AND (username = ${username} OR ip_address = ${ipAddress})
      )
      SELECT
        count(*) FILTER (WHERE f.username = ${username} AND f.ip_address = ${ipAddress} AND f.login_date > b.pair_since)::int AS pair_n,
        min(f.login_date) FILTER (WHERE f.username = ${username} AND f.ip_address = ${ipAddress} AND f.login_date > b.pair_since) AS pair_oldest,
        count(*) FILTER (WHERE f.ip_address = ${ipAddress} AND f.login_date > b.address_since)::int AS address_n,
        min(f.login_date) FILTER (WHERE f.ip_address = ${ipAddress} AND f.login_date > b.address_since) AS address_oldest,
        count(*) FILTER (WHERE f.username = ${username} AND f.login_date > b.account_since)::int AS account_n,
        min(f.login_date) FILTER (WHERE f.username = ${username} AND f.login_date > b.account_since) AS account_oldest,
        bool_or(b.known_address) AS known_address
      FROM bounds b LEFT JOIN failures f ON true
    `.execute(this.db);
    const row = rows[0];
    if (!row) throw new Error('login limit counts: no row');
    return { ...row, known_address: row.known_address === true };
  }

  private secondsLeft(oldest: Date | null, windowMinutes: number): number {
    const until = (oldest ? new Date(oldest).getTime() : Date.now()) + windowMinutes * 60_000;
    return Math.max(1, Math.ceil((until - Date.now()) / 1000));
  }

  private wait(oldest: Date | null, windowMinutes: number): string {
    const minutes = Math.max(1, Math.ceil(this.secondsLeft(oldest, windowMinutes) / 60));
    return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  }
}
