import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type {
  ChangePasswordRequest,
  LoginRequest,
  LoginResult,
  MessageResponse,
  RegisterRequest,
  VerifyCodeInfo,
} from '@kb/contracts/auth';
import { ERROR_CODES } from '@kb/contracts/errors';
import type { SecondFactorState } from '@kb/contracts/mfa';
import { DEMO_PASSWORD } from '@kb/contracts/roles';
import type { Database } from '../../db/schema.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { IssuedTokens, TokenService, TokenSubject } from '../../http/tokens.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import type { SessionRepository } from '../sessions/session-repository.ts';
import { WRONG_PASSWORD } from './login-limiter.ts';
import type { LoginLimiter } from './login-limiter.ts';
import type { Mail, Mailer } from './mailer.ts';
import { securityNotice } from './security-notices.ts';
import type { MfaService } from './mfa-service.ts';
import { newPasswordProblem } from './password-policy.ts';
import type { PasswordOwner } from './password-policy.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

/** Whom a login's tokens name, and the account's public id the answer carries. */
type LoginSubject = TokenSubject & { userHashId: string };

const LINK_TTL_HOURS = { register: 72, reset: 2 } as const;

/** A link issued by `issueLink`: a registration link for an account without a password yet, else a reset link. */
interface IssuedLink {
  url: string;
  purpose: 'register' | 'reset';
}
/** Self-registered accounts start a 14-day evaluation once the e-mail link is used. */
const EVALUATION_DAYS = 14;
/** The audit action of an account an administrator opened: such an account gets no evaluation. */
export const ADMIN_CREATED_ACTION = 'user.create';

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

export interface AuthServiceDeps {
  db: Kysely<Database>;
  tokens: TokenService;
  sessions: SessionRepository;
  limiter: LoginLimiter;
  mailer: Mailer;
  mfa: MfaService;
  serverName: string;
  publicUrl: string | undefined;
  /** Whether the published demo password logs in (config.demoAccounts: demo mode on loopback, or DEMO_ACCOUNTS=on). */
  demoPasswordAccepted: boolean;
}

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

function refused(message: string, code: string): HttpError {
  return new HttpError(403, { message, code });
}

export class AuthService {
  constructor(private readonly deps: AuthServiceDeps) {}

  /** Spec §4 "Login": checks limits, password and subscription, opens a session, issues both tokens. */
  async login(request: LoginRequest, client: ClientInfo): Promise<LoginResult> {
    const { db, limiter, sessions } = this.deps;
    const username = request.username.trim().toLowerCase();
    // Side by side, so that a login under load waits for the database three times, not seven:
    // the limits with the account, and the password hash with the account's roles (the roles are
    // only used once the password is right; an unknown address reads them too, for user 0, so
    // that the SQL of a login does not tell whether an address has an account).
    const [, user] = await Promise.all([
      limiter.assertAllowed(username, client.ip),
      db.selectFrom('users').selectAll().where('email', '=', username).executeTakeFirst(),
    ]);
    const [passwordOk, roles] = await Promise.all([
      verifyPassword(user?.password_hash ?? null, request.password),
      this.activeRoles(user?.id ?? 0),
    ]);
    const record = (failed: boolean, reason: string | null, sessionId: string | null = null) =>
      db
        .insertInto('login_attempts')
        .values({ user_id: user?.id ?? null, username, ip_address: client.ip, failed, failure_reason: reason, session_id: sessionId })
        .execute();

    // The published demo password is a wrong password where demo accounts are off (a demo account
    // carried onto a server others reach): the same answer and count, so that nobody can list which
    // accounts still hold it.
    const demoRefused = !this.deps.demoPasswordAccepted && request.password === DEMO_PASSWORD;
    if (!user || !passwordOk || demoRefused) {
      await record(true, WRONG_PASSWORD.login);
      throw refused('The e-mail address or password is not correct.', ERROR_CODES.badCredentials);
    }
    if (!user.active) {
      await record(true, 'inactive');
      throw refused('This account is disabled. Contact your administrator.', ERROR_CODES.subscriptionInactive);
    }
    if (roles.length === 0) {
      await record(true, 'subscription_inactive');
      throw refused('Your subscription has ended. Contact your account manager to renew it.', ERROR_CODES.subscriptionInactive);
    }
    // The session's id is made here, so that the tokens are signed while the session and the
    // attempt's row are written in one statement: a login waits for the database three times.
    const subject = { userId: user.id, sessionId: crypto.randomUUID(), email: user.email, userHashId: user.user_hash_id, roles };
    const [, issued] = await Promise.all([
      sessions.openForLogin(subject.sessionId, user.id, client, username),
      this.deps.tokens.issue(subject),
    ]);
    // An administrator's second step reads the session row, so only after it is written.
    return this.resultOf(subject, issued, await this.deps.mfa.state(user.id, subject.sessionId, roles));
  }

  /** Fresh tokens for the caller's open session (spec §4: "the token can be regenerated before expiry"). */
  async regenerate(auth: AuthContext): Promise<LoginResult> {
    return this.loginResult(auth);
  }

  /**
   * Tokens for a session, and where it stands on the second factor: an admin's login opens its
   * session with the second step pending (admin-only calls refuse it until `mfa/verify`).
   */
  async loginResult(subject: LoginSubject): Promise<LoginResult> {
    const [issued, secondFactor] = await Promise.all([
      this.deps.tokens.issue(subject),
      this.deps.mfa.state(subject.userId, subject.sessionId, subject.roles),
    ]);
    return this.resultOf(subject, issued, secondFactor);
  }

  private resultOf(subject: LoginSubject, issued: IssuedTokens, secondFactor: SecondFactorState): LoginResult {
    return {
      id: subject.userId,
      username: subject.email,
      token: issued.token,
      nodeToken: issued.nodeToken,
      userHashId: subject.userHashId,
      applicationDiff: this.deps.serverName,
      sessionId: subject.sessionId,
      tokenExpiresAt: issued.expiresAt.toISOString(),
      secondFactor,
    };
  }

  async activeRoles(userId: number): Promise<string[]> {
    const rows = await this.deps.db
      .selectFrom('subscriptions')
      .select('role_name')
      .where('user_id', '=', userId)
      .where('start_date', '<=', sql<Date>`now()`)
      .where('end_date', '>', sql<Date>`now()`)
      .orderBy('position')
      .orderBy('id')
      .execute();
    return rows.map((r) => r.role_name);
  }

  /**
   * Registration. The answer is the same whether or not the address already has an account, so
   * the form cannot be used to discover customers; the owner of an existing account is told by mail.
   * Both cases do the same database work (an insert that does nothing for a known address, one link
   * statement) and the mail is written after the answer, so the time of the answer tells nothing either.
   */
  async register(request: RegisterRequest, client: ClientInfo): Promise<MessageResponse> {
    const email = request.email.trim().toLowerCase();
    const link = await this.deps.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('users')
        .values({
          email,
          password_hash: null,
          first_name: request.firstName,
          last_name: request.lastName,
          organisation: request.organisation ?? null,
        })
        .onConflict((oc) => oc.column('email').doNothing())
        .execute();
      return this.issueLink(trx, email, 'register', client);
    });
    if (link?.purpose === 'reset') {
      this.deps.mailer.sendLater({
        to: email,
        subject: 'You already have an account',
        body: `Someone asked to register ${email}, which already has an account. If you forgot your password, set a new one here: ${link.url} (valid for ${LINK_TTL_HOURS.reset} hours).`,
      });
    } else if (link) {
      this.deps.mailer.sendLater({
        to: email,
        subject: 'Confirm your registration',
        body: `Welcome, ${request.firstName}. Set your password to start your ${EVALUATION_DAYS}-day evaluation: ${link.url} (valid for ${LINK_TTL_HOURS.register} hours).`,
      });
    }
    return { message: `Thank you. We have sent a link to ${email}: open it to set your password.` };
  }

  /** Same answer, same database work and mail after the answer, whether or not the address has an account. */
  async forgotPassword(emailInput: string, client: ClientInfo): Promise<MessageResponse> {
    const email = emailInput.trim().toLowerCase();
    const link = await this.issueLink(this.deps.db, email, 'forgot', client);
    if (link?.purpose === 'reset') {
      this.deps.mailer.sendLater({
        to: email,
        subject: 'Reset your password',
        body: `Set a new password here: ${link.url} (valid for ${LINK_TTL_HOURS.reset} hours). If you did not ask for this, ignore this e-mail.`,
      });
    } else if (link) {
      // Registered but never confirmed: the registration link also starts the evaluation.
      this.deps.mailer.sendLater({
        to: email,
        subject: 'Confirm your registration',
        body: `Set your password to finish your registration: ${link.url} (valid for ${LINK_TTL_HOURS.register} hours).`,
      });
    }
    return { message: `If ${email} has an account, we have sent it a link to set a new password.` };
  }

  async verifyInfo(code: string): Promise<VerifyCodeInfo> {
    const row = await this.validCode(code);
    return { email: row.email, purpose: row.purpose, expiresAt: row.expires_at.toISOString() };
  }

  /** Sets the password from a link; a registration link also starts the evaluation subscription. */
  async setPasswordFromLink(code: string, password: string, client: ClientInfo): Promise<MessageResponse> {
    const row = await this.validCode(code);
    const passwordHash = await this.acceptableHash(password, { email: row.email, firstName: row.first_name, lastName: row.last_name });
    await this.deps.db.transaction().execute(async (trx) => {
      const used = await trx
        .updateTable('verification_codes')
        .set({ used_at: sql`now()` })
        .where('code_hash', '=', sha256(code))
        .where('used_at', 'is', null)
        .returning('user_id')
        .executeTakeFirst();
      if (!used) throw invalidLink();
      await storePassword(trx, row.user_id, passwordHash);
      if (row.purpose === 'register') {
        const subscriptions = await trx.selectFrom('subscriptions').select('id').where('user_id', '=', row.user_id).execute();
        // An account an administrator opened holds what the administrator granted, nothing more.
        const openedByAdministrator = await trx
          .selectFrom('audit_log')
          .select('id')
          .where('action', '=', ADMIN_CREATED_ACTION)
          .where('target_type', '=', 'user')
          .where('target_id', '=', String(row.user_id))
          .executeTakeFirst();
        if (subscriptions.length === 0 && !openedByAdministrator) {
          await trx
            .insertInto('subscriptions')
            .values({
              user_id: row.user_id,
              role_name: 'EVALUATE_USER',
              contract_id: `EVAL-${row.user_id}`,
              end_date: sql<Date>`now() + make_interval(days => ${EVALUATION_DAYS})`,
            })
            .execute();
        }
      }
    });
    // A registration sets the first password; any later one is a change its owner must hear of.
    if (row.purpose !== 'register') {
      this.deps.mailer.sendLater(
        securityNotice({ to: row.email, firstName: row.first_name, change: 'password_reset', at: new Date(), ip: client.ip }),
      );
    }
    // Whoever holds a session may be the reason for the reset: every session ends.
    await this.deps.sessions.closeOthers(row.user_id, null, 'password_changed');
    return { message: 'Your password is set. You can log in now.' };
  }

  /**
   * Changes the caller's password. The current password is checked under the same attempt limits
   * as a login (a stolen session must not become a password-guessing oracle); a wrong one counts
   * as a failure of this account from this address.
   */
  async changePassword(auth: AuthContext, request: ChangePasswordRequest, client: ClientInfo): Promise<MessageResponse> {
    const { db, limiter } = this.deps;
    const user = await db
      .selectFrom('users')
      .select(['email', 'password_hash', 'first_name', 'last_name'])
      .where('id', '=', auth.userId)
      .executeTakeFirstOrThrow();
    await limiter.assertAllowed(user.email, client.ip);
    if (!(await verifyPassword(user.password_hash, request.currentPassword))) {
      await db
        .insertInto('login_attempts')
        .values({
          user_id: auth.userId,
          username: user.email,
          ip_address: client.ip,
          failed: true,
          failure_reason: WRONG_PASSWORD.reauthentication,
          session_id: auth.sessionId,
        })
        .execute();
      throw new HttpError(400, { message: 'Your current password is not correct.', code: ERROR_CODES.badCredentials });
    }
    if (request.currentPassword === request.newPassword) {
      throw new HttpError(400, { message: 'Choose a new password that differs from the current one.', code: ERROR_CODES.validation });
    }
    const passwordHash = await this.acceptableHash(request.newPassword, {
      email: user.email,
      firstName: user.first_name,
      lastName: user.last_name,
    });
    await db.transaction().execute((trx) => storePassword(trx, auth.userId, passwordHash));
    this.deps.mailer.sendLater(
      securityNotice({ to: user.email, firstName: user.first_name, change: 'password_changed', at: new Date(), ip: client.ip }),
    );
    const closed = await this.deps.sessions.closeOthers(auth.userId, auth.sessionId, 'password_changed');
    return { message: closed > 0 ? `Password changed. ${closed} other session(s) were logged out.` : 'Password changed.' };
  }

  /** The hash of a new password, or 400 with what to change when the policy refuses it. */
  private async acceptableHash(password: string, owner: PasswordOwner): Promise<string> {
    const problem = newPasswordProblem(password, owner);
    if (problem) throw new HttpError(400, { message: problem, code: ERROR_CODES.validation });
    return hashPassword(password);
  }

  /**
   * Issues a link for the account of `email`, if there is one, revoking its older links (one live
   * link per account), and logs the request either way. One statement whatever the address: an
   * unknown one runs the same SQL, which then deletes and inserts no code.
   */
  private async issueLink(
    db: Kysely<Database>,
    email: string,
    requested: 'register' | 'forgot',
    client: ClientInfo,
  ): Promise<IssuedLink | null> {
    const code = crypto.randomBytes(24).toString('base64url');
    const { rows } = await sql<{ purpose: 'register' | 'reset' }>`
      WITH target AS (
        SELECT id, CASE WHEN password_hash IS NULL THEN 'register' ELSE 'reset' END AS purpose FROM users WHERE email = ${email}
      ), revoked AS (
        DELETE FROM verification_codes WHERE user_id IN (SELECT id FROM target) AND used_at IS NULL
      ), logged AS (
        INSERT INTO link_requests (email, purpose, ip_address) VALUES (${email}, ${requested}, ${client.ip})
      )
      INSERT INTO verification_codes (code_hash, user_id, purpose, expires_at)
      SELECT ${sha256(code)}, id, purpose,
             now() + make_interval(hours => CASE purpose WHEN 'register' THEN ${LINK_TTL_HOURS.register}::int ELSE ${LINK_TTL_HOURS.reset}::int END)
      FROM target
      RETURNING purpose
    `.execute(db);
    const purpose = rows[0]?.purpose;
    return purpose ? { url: `${this.deps.publicUrl ?? ''}/pub/account/verify/${code}`, purpose } : null;
  }

  /**
   * A password link an administrator sends (account administration, issue 16): a registration link
   * for an account that never set a password (an invitation), else a reset link. Issued inside the
   * administrator's transaction; hand the answered mail to `sendAfterCommit` once it is committed,
   * so no mail names a link that was rolled back. Null when the address has no account.
   */
  async issueAdminLink(
    trx: Kysely<Database>,
    email: string,
    client: ClientInfo,
  ): Promise<{ purpose: 'register' | 'reset'; mail: Mail } | null> {
    const account = await trx.selectFrom('users').select(['first_name', 'password_hash']).where('email', '=', email).executeTakeFirst();
    if (!account) return null;
    const link = await this.issueLink(trx, email, account.password_hash === null ? 'register' : 'forgot', client);
    if (!link) return null;
    const hello = account.first_name ? `Hello ${account.first_name},` : 'Hello,';
    const mail: Mail =
      link.purpose === 'register'
        ? {
            to: email,
            subject: 'Your account is ready: set your password',
            body: `${hello} an administrator has opened an account for you. Set your password here to start: ${link.url} (valid for ${LINK_TTL_HOURS.register} hours).`,
          }
        : {
            to: email,
            subject: 'Set a new password',
            body: `${hello} an administrator sent you a link to set a new password: ${link.url} (valid for ${LINK_TTL_HOURS.reset} hours). If you did not expect it, ignore this e-mail.`,
          };
    return { purpose: link.purpose, mail };
  }

  /** Queues mail prepared inside a transaction that has now committed. */
  sendAfterCommit(mail: Mail): void {
    this.deps.mailer.sendLater(mail);
  }

  /** Users among `userIds` whom the login limits refuse now (docs/security.md). */
  lockedOutUsers(userIds: readonly number[]): Promise<Set<number>> {
    return this.deps.limiter.lockedOut(userIds);
  }

  /** Lifts a login lock-out: wrong passwords made before now stop counting for the account. */
  async liftLockout(trx: Kysely<Database>, userId: number): Promise<void> {
    await trx.updateTable('users').set({ lockout_lifted_at: sql`now()` }).where('id', '=', userId).execute();
  }

  /** Waits for mail queued after answers (shutdown, tests). */
  async flushMail(): Promise<void> {
    await this.deps.mailer.flush();
    this.deps.mailer.close();
  }

  private async validCode(code: string) {
    const row = await this.deps.db
      .selectFrom('verification_codes as v')
      .innerJoin('users as u', 'u.id', 'v.user_id')
      .select(['v.user_id', 'v.purpose', 'v.expires_at', 'v.used_at', 'u.email', 'u.first_name', 'u.last_name'])
      .where('v.code_hash', '=', sha256(code))
      .executeTakeFirst();
    if (!row || row.used_at || row.expires_at.getTime() <= Date.now()) throw invalidLink();
    return row;
  }
}

/**
 * Stores a new password hash and revokes every unused link of the account: a link mailed before
 * the change must not set the password again. Callers then end the other sessions (ASVS 3.3.3).
 */
async function storePassword(trx: Kysely<Database>, userId: number, passwordHash: string): Promise<void> {
  await trx.updateTable('users').set({ password_hash: passwordHash, password_changed_at: sql`now()` }).where('id', '=', userId).execute();
  await trx.deleteFrom('verification_codes').where('user_id', '=', userId).where('used_at', 'is', null).execute();
}

function invalidLink(): HttpError {
  const error = notFound('This link is invalid, already used or expired. Ask for a new one on the "Forgot password" page.');
  error.body.code = ERROR_CODES.invalidLink;
  return error;
}
