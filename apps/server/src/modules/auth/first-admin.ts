import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { DEMO_PASSWORD } from '@kb/contracts/roles';
import { DEMO_USERS } from './demo-accounts.ts';
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
/** How long the public status call's answer is kept. */
const STATUS_CACHE_MS = 5_000;
/** The demo accounts: the only ones whose password hash is worth checking against the published one. */
const DEMO_EMAILS = new Set(DEMO_USERS.map((user) => user.email));

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest();

/**
 * The first super administrator of a server whose demo accounts are off (contracts setup.ts): while
 * no super administrator can log in, the process holds a one-time token that it prints on its
 * console (as Grafana, Jenkins and GitLab print theirs); the token, given once at /setup, makes the
 * account. Only its hash is kept, in memory: a restart prints a new one, and a server started by
 * someone else cannot read it.
 */
export class FirstAdminSetup {
  /** The token this process printed, and when: a set-up finished anywhere after that voids it. */
  private issued: { hash: Buffer; at: Date } | null = null;
  /** The status call's last answer, for a few seconds: it is public, and deciding may check a password hash. */
  private statusCache: { answer: SetupStatus; until: number } | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    /** Whether the published demo password logs in here: when not, a demo super admin still holding it does not count. */
    private readonly demoPasswordAccepted: boolean,
  ) {}

  /** A new token when no super administrator can log in (printed by main.ts); null otherwise. */
  async issueTokenIfNeeded(): Promise<string | null> {
    this.statusCache = null;
    if (!(await this.required(this.db))) {
      this.issued = null;
      return null;
    }
    const token = crypto.randomBytes(24).toString('base64url');
    // The database's clock, which the audit rows it is compared with carry.
    const { rows } = await sql<{ now: Date }>`SELECT now() AS now`.execute(this.db);
    this.issued = { hash: sha256(token), at: new Date(rows[0]!.now) };
    return token;
  }

  async status(): Promise<SetupStatus> {
    if (this.statusCache && this.statusCache.until > Date.now()) return this.statusCache.answer;
    const answer = { required: this.issued !== null && (await this.tokenLive(this.db)) && (await this.required(this.db)) };
    this.statusCache = { answer, until: Date.now() + STATUS_CACHE_MS };
    return answer;
  }

  async createFirstSuperAdmin(input: FirstSuperAdminRequest, client: ClientInfo): Promise<FirstSuperAdminResult> {
    if (!this.tokenMatches(input.token)) throw wrongToken();
    const problem = newPasswordProblem(input.password, input);
    if (problem) throw new HttpError(400, { message: problem, code: ERROR_CODES.validation, details: { field: 'password' } });
    const passwordHash = await hashPassword(input.password);
    const userId = await this.db.transaction().execute(async (trx) => {
      // One at a time across every server on the database: the second finds the set-up done.
      await sql`SELECT pg_advisory_xact_lock(hashtext('kb:first-super-admin'))`.execute(trx);
      if (!(await this.tokenLive(trx))) throw wrongToken();
      if (!(await this.required(trx))) throw setupDone();
      return insertFirstSuperAdmin(trx, input, passwordHash, client);
    });
    this.issued = null;
    this.statusCache = null;
    return {
      email: input.email,
      message: `Super administrator ${input.email} is ready (account ${userId}). Log in: you will set up an authenticator app first.`,
    };
  }

  /**
   * Whether this process's token may still be used: no set-up finished after it was issued, here or
   * on another server of the database (each prints its own token; the first used voids the rest,
   * so a token left in a console cannot make a super admin later).
   */
  private async tokenLive(db: Kysely<Database>): Promise<boolean> {
    if (!this.issued) return false;
    const later = await db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', FIRST_SUPER_ADMIN_ACTION)
      .where('created_at', '>=', this.issued.at)
      .executeTakeFirst();
    if (later) this.issued = null;
    return !later;
  }

  private tokenMatches(token: string): boolean {
    if (!this.issued) return false;
    return crypto.timingSafeEqual(sha256(token), this.issued.hash);
  }

  /**
   * Whether no super administrator can log in: none with an active account and a running
   * subscription, or only demo ones still holding the published password where it is refused. Only
   * a demo account's hash is checked (at most one argon2 check): any other super admin settles it.
   */
  private async required(db: Kysely<Database>): Promise<boolean> {
    const admins = await db
      .selectFrom('users as u')
      .innerJoin('subscriptions as s', 's.user_id', 'u.id')
      .select(['u.email', 'u.password_hash'])
      .where('s.role_name', '=', 'SUPER_ADMIN')
      .where('u.active', '=', true)
      .where('u.password_hash', 'is not', null)
      .where('s.start_date', '<=', sql<Date>`now()`)
      .where('s.end_date', '>', sql<Date>`now()`)
      .execute();
    if (admins.length === 0) return true;
    if (this.demoPasswordAccepted || admins.some((admin) => !DEMO_EMAILS.has(admin.email))) return false;
    for (const admin of admins) if (!(await verifyPassword(admin.password_hash, DEMO_PASSWORD))) return false;
    return true;
  }
}

/** The account, its SUPER_ADMIN subscription and its audit row, inside the set-up's transaction; answers its id. */
async function insertFirstSuperAdmin(
  trx: Kysely<Database>,
  input: FirstSuperAdminRequest,
  passwordHash: string,
  client: ClientInfo,
): Promise<number> {
  const taken = await trx.selectFrom('users').select('id').where('email', '=', input.email).executeTakeFirst();
  if (taken)
    throw new HttpError(409, {
      message: `${input.email} already has an account: choose another address for the super administrator.`,
      code: ERROR_CODES.conflict,
      details: { field: 'email' },
    });
  const { id } = await trx
    .insertInto('users')
    .values({
      email: input.email,
      password_hash: passwordHash,
      first_name: input.firstName,
      last_name: input.lastName,
      is_new_user: false,
      password_changed_at: sql`now()`,
    })
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
  await recordAudit(
    trx,
    { userId: id, email: input.email, ipAddress: client.ip },
    {
      action: FIRST_SUPER_ADMIN_ACTION,
      targetType: 'user',
      targetId: id,
      targetLabel: input.email,
      after: { email: input.email, firstName: input.firstName, lastName: input.lastName, role: 'SUPER_ADMIN' },
    },
  );
  return id;
}

function wrongToken(): HttpError {
  return new HttpError(403, {
    message:
      'The set-up token is not right, or it was used already. Copy it from the console of the server you opened this page on (each start prints one while set-up is needed; with several servers, open the page on the one whose token you paste).',
    code: ERROR_CODES.forbidden,
  });
}

function setupDone(): HttpError {
  return new HttpError(409, { message: 'This server has a super administrator already: log in instead.', code: ERROR_CODES.conflict });
}
