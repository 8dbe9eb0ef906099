import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { DEMO_PASSWORD } from '@kb/contracts/roles';
import type { FirstSuperAdminRequest, FirstSuperAdminResult, SetupStatus } from '@kb/contracts/setup';
import type { Database } from '../../db/schema.ts';
import { ERROR_CODES } from '@kb/contracts/errors';
import { HttpError } from '../../http/errors.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { ClientInfo } from './auth-service.ts';
import { newPasswordProblem } from './password-policy.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

/** The audit action of the account the set-up token made. */
export const FIRST_SUPER_ADMIN_ACTION = 'user.setup_super_admin';
/** The first super administrator's subscription runs this long; a super admin changes it like any other. */
const SUBSCRIPTION_YEARS = 10;

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest();

/**
 * The first super administrator of a server whose demo accounts are off (contracts setup.ts): while
 * no super administrator can log in, the process holds a one-time token that it prints on its
 * console (as Grafana, Jenkins and GitLab print theirs); the token, given once at /setup, makes the
 * account. Only its hash is kept, in memory: a restart prints a new one, and a server started by
 * someone else cannot read it.
 */
export class FirstAdminSetup {
  private tokenHash: Buffer | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    /** Whether the published demo password logs in here: when not, a demo super admin still holding it does not count. */
    private readonly demoPasswordAccepted: boolean,
  ) {}

  /** A new token when no super administrator can log in (printed by main.ts); null otherwise. */
  async issueTokenIfNeeded(): Promise<string | null> {
    if (!(await this.required(this.db))) return null;
    const token = crypto.randomBytes(24).toString('base64url');
    this.tokenHash = sha256(token);
    return token;
  }

  async status(): Promise<SetupStatus> {
    return { required: this.tokenHash !== null && (await this.required(this.db)) };
  }

  async createFirstSuperAdmin(input: FirstSuperAdminRequest, client: ClientInfo): Promise<FirstSuperAdminResult> {
    if (!this.tokenMatches(input.token)) {
      throw new HttpError(403, {
        message: 'The set-up token is not right, or it was used already. Copy it from the server console (it is printed at each start while set-up is needed).',
        code: ERROR_CODES.forbidden,
      });
    }
    const problem = newPasswordProblem(input.password, input);
    if (problem) throw new HttpError(400, { message: problem, code: ERROR_CODES.validation, details: { field: 'password' } });
    const passwordHash = await hashPassword(input.password);
    const userId = await this.db.transaction().execute(async (trx) => {
      // One at a time across every server on the database: the second finds the set-up done.
      await sql`SELECT pg_advisory_xact_lock(hashtext('kb:first-super-admin'))`.execute(trx);
      if (!(await this.required(trx))) throw setupDone();
      const taken = await trx.selectFrom('users').select('id').where('email', '=', input.email).executeTakeFirst();
      if (taken) throw new HttpError(409, { message: `${input.email} already has an account: choose another address for the super administrator.`, code: ERROR_CODES.conflict, details: { field: 'email' } });
      const { id } = await trx
        .insertInto('users')
        .values({ email: input.email, password_hash: passwordHash, first_name: input.firstName, last_name: input.lastName, is_new_user: false, password_changed_at: sql`now()` })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('subscriptions')
        .values({
          user_id: id,
          role_name: 'SUPER_ADMIN',
          contract_id: `SETUP-${id}`,
          start_date: sql<Date>`now()`,
          end_date: sql<Date>`now() + make_interval(years => ${SUBSCRIPTION_YEARS})`,
          having_flat_file_access: false,
          position: 1,
        })
        .execute();
      await recordAudit(trx, { userId: id, email: input.email, ipAddress: client.ip }, {
        action: FIRST_SUPER_ADMIN_ACTION,
        targetType: 'user',
        targetId: id,
        targetLabel: input.email,
        after: { email: input.email, firstName: input.firstName, lastName: input.lastName, role: 'SUPER_ADMIN' },
      });
      return id;
    });
    this.tokenHash = null;
    return {
      email: input.email,
      message: `Super administrator ${input.email} is ready (account ${userId}). Log in: you will set up an authenticator app first.`,
    };
  }

  private tokenMatches(token: string): boolean {
    if (!this.tokenHash) return false;
    return crypto.timingSafeEqual(sha256(token), this.tokenHash);
  }

  /**
   * Whether no super administrator can log in: none with an active account and a running
   * subscription, or only demo ones still holding the published password where it is refused.
   */
  private async required(db: Kysely<Database>): Promise<boolean> {
    const admins = await db
      .selectFrom('users as u')
      .innerJoin('subscriptions as s', 's.user_id', 'u.id')
      .select(['u.password_hash'])
      .where('s.role_name', '=', 'SUPER_ADMIN')
      .where('u.active', '=', true)
      .where('s.start_date', '<=', sql<Date>`now()`)
      .where('s.end_date', '>', sql<Date>`now()`)
      .execute();
    for (const admin of admins) {
      if (!admin.password_hash) continue;
      if (this.demoPasswordAccepted || !(await verifyPassword(admin.password_hash, DEMO_PASSWORD))) return false;
    }
    return true;
  }
}

function setupDone(): HttpError {
  return new HttpError(409, { message: 'This server has a super administrator already: log in instead.', code: ERROR_CODES.conflict });
}
