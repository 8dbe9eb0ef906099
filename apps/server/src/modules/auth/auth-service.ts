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
import type { Database } from '../../db/schema.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { TokenService } from '../../http/tokens.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import type { SessionRepository } from '../sessions/session-repository.ts';
import type { LoginLimiter } from './login-limiter.ts';
import type { Mailer } from './mailer.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

const LINK_TTL_HOURS = { register: 72, reset: 2 } as const;
/** Self-registered accounts start a 14-day evaluation once the e-mail link is used. */
const EVALUATION_DAYS = 14;

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
  serverName: string;
  publicUrl: string | undefined;
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
    await limiter.assertAllowed(username, client.ip);

    const user = await db.selectFrom('users').selectAll().where('email', '=', username).executeTakeFirst();
    const passwordOk = await verifyPassword(user?.password_hash ?? null, request.password);
    const record = (failed: boolean, reason: string | null, sessionId: string | null = null) =>
      db
        .insertInto('login_attempts')
        .values({ user_id: user?.id ?? null, username, ip_address: client.ip, failed, failure_reason: reason, session_id: sessionId })
        .execute();

    if (!user || !passwordOk) {
      await record(true, 'bad_credentials');
      throw refused('The e-mail address or password is not correct.', ERROR_CODES.badCredentials);
    }
    if (!user.active) {
      await record(true, 'inactive');
      throw refused('This account is disabled. Contact your administrator.', ERROR_CODES.subscriptionInactive);
    }
    const roles = await this.activeRoles(user.id);
    if (roles.length === 0) {
      await record(true, 'subscription_inactive');
      throw refused(
        'Your subscription has ended. Contact your account manager to renew it.',
        ERROR_CODES.subscriptionInactive,
      );
    }
    const sessionId = await sessions.open(user.id, client.ip, client.userAgent);
    await record(false, null, sessionId);
    return this.loginResult({ userId: user.id, sessionId, email: user.email, userHashId: user.user_hash_id, roles });
  }

  /** Fresh tokens for the caller's open session (spec §4: "the token can be regenerated before expiry"). */
  async regenerate(auth: AuthContext): Promise<LoginResult> {
    return this.loginResult(auth);
  }

  async loginResult(subject: { userId: number; sessionId: string; email: string; userHashId: string; roles: readonly string[] }): Promise<LoginResult> {
    const issued = await this.deps.tokens.issue(subject);
    return {
      id: subject.userId,
      username: subject.email,
      token: issued.token,
      nodeToken: issued.nodeToken,
      userHashId: subject.userHashId,
      applicationDiff: this.deps.serverName,
      sessionId: subject.sessionId,
      tokenExpiresAt: issued.expiresAt.toISOString(),
    };
  }

  async activeRoles(userId: number): Promise<string[]> {
    const rows = await this.deps.db
      .selectFrom('subscriptions')
      .select('role_name')
      .where('user_id', '=', userId)
      .where('end_date', '>', sql<Date>`now()`)
      .orderBy('position')
      .orderBy('id')
      .execute();
    return rows.map((r) => r.role_name);
  }

  /**
   * Registration. The answer is the same whether or not the address already has an account, so
   * the form cannot be used to discover customers; the owner of an existing account is told by mail.
   */
  async register(request: RegisterRequest): Promise<MessageResponse> {
    const { db, mailer } = this.deps;
    const email = request.email.trim().toLowerCase();
    const existing = await db.selectFrom('users').select(['id', 'password_hash']).where('email', '=', email).executeTakeFirst();
    if (existing?.password_hash) {
      const link = await this.createLink(existing.id, 'reset');
      await mailer.send({
        to: email,
        subject: 'You already have an account',
        body: `Someone asked to register ${email}, which already has an account. If you forgot your password, set a new one here: ${link}`,
      });
    } else {
      const userId =
        existing?.id ??
        (
          await db
            .insertInto('users')
            .values({
              email,
              password_hash: null,
              first_name: request.firstName,
              last_name: request.lastName,
              organisation: request.organisation ?? null,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      const link = await this.createLink(userId, 'register');
      await mailer.send({
        to: email,
        subject: 'Confirm your registration',
        body: `Welcome, ${request.firstName}. Set your password to start your ${EVALUATION_DAYS}-day evaluation: ${link} (valid for ${LINK_TTL_HOURS.register} hours).`,
      });
    }
    return { message: `Thank you. We have sent a link to ${email}: open it to set your password.` };
  }

  async forgotPassword(emailInput: string): Promise<MessageResponse> {
    const email = emailInput.trim().toLowerCase();
    const user = await this.deps.db.selectFrom('users').select(['id']).where('email', '=', email).executeTakeFirst();
    if (user) {
      const link = await this.createLink(user.id, 'reset');
      await this.deps.mailer.send({
        to: email,
        subject: 'Reset your password',
        body: `Set a new password here: ${link} (valid for ${LINK_TTL_HOURS.reset} hours). If you did not ask for this, ignore this e-mail.`,
      });
    }
    return { message: `If ${email} has an account, we have sent it a link to set a new password.` };
  }

  async verifyInfo(code: string): Promise<VerifyCodeInfo> {
    const row = await this.validCode(code);
    return { email: row.email, purpose: row.purpose, expiresAt: row.expires_at.toISOString() };
  }

  /** Sets the password from a link; a registration link also starts the evaluation subscription. */
  async setPasswordFromLink(code: string, password: string): Promise<MessageResponse> {
    const row = await this.validCode(code);
    const passwordHash = await hashPassword(password);
    await this.deps.db.transaction().execute(async (trx) => {
      const used = await trx
        .updateTable('verification_codes')
        .set({ used_at: sql`now()` })
        .where('code_hash', '=', sha256(code))
        .where('used_at', 'is', null)
        .returning('user_id')
        .executeTakeFirst();
      if (!used) throw invalidLink();
      await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', row.user_id).execute();
      if (row.purpose === 'register') {
        const subscriptions = await trx.selectFrom('subscriptions').select('id').where('user_id', '=', row.user_id).execute();
        if (subscriptions.length === 0) {
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
    if (row.purpose === 'reset') await this.deps.sessions.closeOthers(row.user_id, null, 'password_changed');
    return { message: 'Your password is set. You can log in now.' };
  }

  async changePassword(auth: AuthContext, request: ChangePasswordRequest): Promise<MessageResponse> {
    const user = await this.deps.db.selectFrom('users').select('password_hash').where('id', '=', auth.userId).executeTakeFirstOrThrow();
    if (!(await verifyPassword(user.password_hash, request.currentPassword))) {
      throw new HttpError(400, { message: 'Your current password is not correct.', code: ERROR_CODES.badCredentials });
    }
    if (request.currentPassword === request.newPassword) {
      throw new HttpError(400, { message: 'Choose a new password that differs from the current one.', code: ERROR_CODES.validation });
    }
    await this.deps.db.updateTable('users').set({ password_hash: await hashPassword(request.newPassword) }).where('id', '=', auth.userId).execute();
    const closed = await this.deps.sessions.closeOthers(auth.userId, auth.sessionId, 'password_changed');
    return { message: closed > 0 ? `Password changed. ${closed} other session(s) were logged out.` : 'Password changed.' };
  }

  private async createLink(userId: number, purpose: 'register' | 'reset'): Promise<string> {
    const code = crypto.randomBytes(24).toString('base64url');
    await this.deps.db
      .insertInto('verification_codes')
      .values({
        code_hash: sha256(code),
        user_id: userId,
        purpose,
        expires_at: sql<Date>`now() + make_interval(hours => ${LINK_TTL_HOURS[purpose]})`,
      })
      .execute();
    return `${this.deps.publicUrl ?? ''}/pub/account/verify/${code}`;
  }

  private async validCode(code: string) {
    const row = await this.deps.db
      .selectFrom('verification_codes as v')
      .innerJoin('users as u', 'u.id', 'v.user_id')
      .select(['v.user_id', 'v.purpose', 'v.expires_at', 'v.used_at', 'u.email'])
      .where('v.code_hash', '=', sha256(code))
      .executeTakeFirst();
    if (!row || row.used_at || row.expires_at.getTime() <= Date.now()) throw invalidLink();
    return row;
  }
}

function invalidLink(): HttpError {
  const error = notFound('This link is invalid, already used or expired. Ask for a new one on the "Forgot password" page.');
  error.body.code = ERROR_CODES.invalidLink;
  return error;
}
