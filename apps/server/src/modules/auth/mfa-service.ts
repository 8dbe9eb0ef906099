import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import QRCode from 'qrcode';
import { ERROR_CODES } from '@kb/contracts/errors';
import type { MfaEnrolment, MfaStatus, MfaVerifyResult, RecoveryCodes, SecondFactorState } from '@kb/contracts/mfa';
import { MFA_ERROR_CODES, RECOVERY_CODE_COUNT, WRONG_CODE_MESSAGE } from '@kb/contracts/mfa';
import { ADMIN_ROLES } from '@kb/contracts/roles';
import type { Database } from '../../db/schema.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import { HttpError, badRequest, notFound, tooManyRequests } from '../../http/errors.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Mail } from './mailer.ts';
import type { CredentialChange } from './security-notices.ts';
import { securityNotice } from './security-notices.ts';
import type { SecretBox } from './mfa-secret-box.ts';
import { matchingStep, newTotpSecret, otpauthUri } from './mfa-totp.ts';

/**
 * Wrong second-factor codes before the step answers 429 (docs/security.md "Second factor"), counted
 * as wrong passwords are, so that someone holding an admin's password cannot lock the admin out:
 * per account and address (`perAccountAddress` within `windowMinutes`; a good code from that
 * address ends the count), and per account across addresses (`perAccount` within
 * `accountWindowMinutes`), a ceiling that does not apply on an address where the account passed the
 * second factor within `knownAddressDays`, nor to recovery codes (49 random bits each: guessing one
 * is hopeless, so a wrong code elsewhere must not keep the owner's out).
 */
export interface MfaLimits {
  perAccountAddress: number;
  windowMinutes: number;
  perAccount: number;
  accountWindowMinutes: number;
  knownAddressDays: number;
}

/** A six-digit code from the authenticator, or a recovery code: only the first meets the per-account ceiling. */
type CodeKind = 'totp' | 'recovery';
const codeKind = (code: string): CodeKind => (/^\d{6}$/.test(code) ? 'totp' : 'recovery');

/** Recovery codes: 10 characters of an alphabet without look-alikes (0/O, 1/I/L), shown as xxxxx-xxxxx. */
const RECOVERY_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const RECOVERY_LENGTH = 10;

function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < RECOVERY_LENGTH; i += 1) code += RECOVERY_ALPHABET[crypto.randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** What a person may type for a recovery code: any case, with or without the dash and spaces. */
function normaliseRecoveryCode(code: string): string {
  return code.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/**
 * Codes carry 49 random bits and work once, so a fast keyed hash is enough (no slow hash): HMAC
 * under a key derived from the MFA key, bound to the account. Codes stored before the HMAC (plain
 * SHA-256, never deployed) no longer match: their holders regenerate codes or ask for a reset.
 */
function recoveryHash(box: SecretBox, userId: number, code: string): string {
  return box.mac(`${userId}:${normaliseRecoveryCode(code)}`);
}

/** Whether roles need the second factor: any admin role. */
function needsSecondFactor(roles: readonly string[]): boolean {
  return roles.some((role) => (ADMIN_ROLES as readonly string[]).includes(role));
}

const wrongCode = (message = WRONG_CODE_MESSAGE) => new HttpError(400, { message, code: MFA_ERROR_CODES.wrongCode });

/** What one code attempt came to: a value, or the refusal that counts as a failure. */
type Attempt<T> = { ok: true; value: T } | { ok: false; error: HttpError };
const refused = (error: HttpError): Attempt<never> => ({ ok: false, error });

/**
 * The second factor of the admin roles (contracts mfa.ts, docs/security.md "Second factor"):
 * enrolment, the second login step, recovery codes and a super admin's reset.
 */
export class MfaService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: SecretBox,
    /** Fixed limits, or a reader of the run-time ones (the super admin's login-limit settings). */
    private readonly limits: MfaLimits | (() => Promise<MfaLimits>),
    /** Queues a mail after the change committed: the owner hears of every change to their second factor (ASVS 2.5.5). */
    private readonly mail: (mail: Mail) => void,
  ) {}

  private notify(to: string, change: CredentialChange, ip: string | null): void {
    this.mail(securityNotice({ to, change, at: new Date(), ip }));
  }

  /** Where a session stands: what the login answer and the status call say. */
  async state(userId: number, sessionId: string, roles: readonly string[]): Promise<SecondFactorState> {
    if (!needsSecondFactor(roles)) return 'not_required';
    const row = await this.db
      .selectFrom('user_sessions as s')
      .leftJoin('user_mfa as m', 'm.user_id', 's.user_id')
      .select(['s.mfa_passed_at', 'm.confirmed_at'])
      .where('s.id', '=', sessionId)
      .where('s.user_id', '=', userId)
      .executeTakeFirst();
    if (row?.mfa_passed_at) return 'passed';
    return row?.confirmed_at ? 'code_required' : 'enrolment_required';
  }

  async status(auth: AuthContext): Promise<MfaStatus> {
    const state = await this.state(auth.userId, auth.sessionId, auth.roles);
    const mfa = await this.db.selectFrom('user_mfa').select('confirmed_at').where('user_id', '=', auth.userId).executeTakeFirst();
    const enrolled = Boolean(mfa?.confirmed_at);
    return {
      required: needsSecondFactor(auth.roles),
      enrolled,
      state,
      recoveryCodesLeft: enrolled ? await this.recoveryCodesLeft(auth.userId) : null,
    };
  }

  /**
   * A new secret for an account without a confirmed authenticator (a started, unconfirmed one is
   * replaced). The secret is answered here only; once confirmed, no call shows it again.
   */
  async startEnrolment(auth: AuthContext): Promise<MfaEnrolment> {
    const existing = await this.db.selectFrom('user_mfa').select('confirmed_at').where('user_id', '=', auth.userId).executeTakeFirst();
    if (existing?.confirmed_at) {
      throw new HttpError(409, {
        message:
          'Your authenticator is already set up. If you lost it, log in with a recovery code, or ask a super administrator to reset it.',
        code: ERROR_CODES.conflict,
      });
    }
    const secret = newTotpSecret();
    const sealed = this.box.seal(secret);
    await this.db
      .insertInto('user_mfa')
      .values({ user_id: auth.userId, secret_encrypted: sealed })
      .onConflict((oc) =>
        oc
          .column('user_id')
          .doUpdateSet({ secret_encrypted: sealed, confirmed_at: null, last_step: null, last_verified_at: null, created_at: sql`now()` }),
      )
      .execute();
    const uri = otpauthUri(secret, auth.email);
    return { secret, otpauthUri: uri, qrDataUrl: await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 220 }) };
  }

  /** The first good code confirms the authenticator, passes this session and issues the recovery codes. */
  async confirmEnrolment(auth: AuthContext, code: string, ip: string | null): Promise<RecoveryCodes> {
    const row = await this.db
      .selectFrom('user_mfa')
      .select(['secret_encrypted', 'confirmed_at'])
      .where('user_id', '=', auth.userId)
      .executeTakeFirst();
    if (!row) throw badRequest('Start the set-up first: the page shows a QR code to scan.');
    if (row.confirmed_at) throw new HttpError(409, { message: 'Your authenticator is already set up.', code: ERROR_CODES.conflict });
    const codes = await this.attempt(auth.userId, ip, 'totp', async (trx) => {
      const step = matchingStep(this.box.open(row.secret_encrypted), code);
      if (step === null) return refused(wrongCode());
      const confirmed = await trx
        .updateTable('user_mfa')
        .set({ confirmed_at: sql`now()`, last_step: step, last_verified_at: sql`now()` })
        .where('user_id', '=', auth.userId)
        .where('confirmed_at', 'is', null)
        .where('secret_encrypted', '=', row.secret_encrypted)
        .returning('user_id')
        .executeTakeFirst();
      // A second tab confirmed (or restarted) the set-up meanwhile: this code no longer counts.
      if (!confirmed)
        throw new HttpError(409, { message: 'The set-up changed in another window. Reload the page.', code: ERROR_CODES.conflict });
      await trx.updateTable('user_sessions').set({ mfa_passed_at: sql`now()` }).where('id', '=', auth.sessionId).execute();
      return { ok: true, value: { recoveryCodes: await this.replaceRecoveryCodes(trx, auth.userId) } };
    });
    this.notify(auth.email, 'mfa_enrolled', ip);
    return codes;
  }

  /**
   * The second login step: a 6-digit code (each 30-second step works once per account) or a
   * recovery code (each works once). Wrong codes count towards the attempt limit.
   */
  async verify(auth: AuthContext, input: string, ip: string | null): Promise<MfaVerifyResult> {
    const row = await this.db
      .selectFrom('user_mfa')
      .select(['secret_encrypted', 'confirmed_at'])
      .where('user_id', '=', auth.userId)
      .executeTakeFirst();
    if (!row?.confirmed_at) {
      throw new HttpError(403, {
        message: 'Set up an authenticator app first (page "Two-step login").',
        code: ERROR_CODES.mfaEnrolmentRequired,
      });
    }
    const code = input.replace(/\s+/g, '');
    const kind = codeKind(code);
    const method = await this.attempt(auth.userId, ip, kind, async (trx): Promise<Attempt<MfaVerifyResult['method']>> => {
      if (kind === 'totp') {
        const taken = await this.takeTotp(trx, auth.userId, row.secret_encrypted, code);
        return taken ?? { ok: true, value: 'totp' };
      }
      const used = await trx
        .updateTable('mfa_recovery_codes')
        .set({ used_at: sql`now()` })
        .where('user_id', '=', auth.userId)
        .where('code_hash', '=', recoveryHash(this.box, auth.userId, code))
        .where('used_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      if (!used) return refused(wrongCode('That recovery code is not right, or it was used already. Each recovery code works once.'));
      await trx.updateTable('user_mfa').set({ last_verified_at: sql`now()` }).where('user_id', '=', auth.userId).execute();
      return { ok: true, value: 'recovery_code' };
    });
    await this.db.updateTable('user_sessions').set({ mfa_passed_at: sql`now()` }).where('id', '=', auth.sessionId).execute();
    return { method, recoveryCodesLeft: await this.recoveryCodesLeft(auth.userId) };
  }

  /** New recovery codes for a session that passed the second step, confirmed by a current code. */
  async regenerateRecoveryCodes(auth: AuthContext, code: string, ip: string | null): Promise<RecoveryCodes> {
    const row = await this.db
      .selectFrom('user_mfa')
      .select(['secret_encrypted', 'confirmed_at'])
      .where('user_id', '=', auth.userId)
      .executeTakeFirst();
    if (!row?.confirmed_at)
      throw new HttpError(403, { message: 'Set up an authenticator app first.', code: ERROR_CODES.mfaEnrolmentRequired });
    const codes = await this.attempt(auth.userId, ip, 'totp', async (trx) => {
      const taken = await this.takeTotp(trx, auth.userId, row.secret_encrypted, code);
      return taken ?? { ok: true, value: { recoveryCodes: await this.replaceRecoveryCodes(trx, auth.userId) } };
    });
    this.notify(auth.email, 'mfa_recovery_codes_replaced', ip);
    return codes;
  }

  /**
   * A super administrator removes another account's authenticator and recovery codes (it lost its
   * phone and its codes). Its open sessions lose the second step; it enrols again at its next admin
   * page. One audit row, in the same transaction.
   */
  async reset(actor: AuthContext, ip: string | null, userId: number): Promise<{ message: string }> {
    if (userId === actor.userId) {
      throw badRequest('You cannot reset your own second factor: log in with a recovery code, or ask another super administrator.');
    }
    const outcome = await this.db.transaction().execute(async (trx) => {
      const user = await trx.selectFrom('users').select(['id', 'email']).where('id', '=', userId).executeTakeFirst();
      if (!user) throw notFound(`There is no account ${userId}.`);
      const mfa = await trx.selectFrom('user_mfa').select(['confirmed_at']).where('user_id', '=', userId).forUpdate().executeTakeFirst();
      if (!mfa) throw notFound(`${user.email} has no authenticator set up: nothing to reset.`);
      const codesLeft = await trx
        .selectFrom('mfa_recovery_codes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow();
      await trx.deleteFrom('user_mfa').where('user_id', '=', userId).execute();
      await trx.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId).execute();
      await trx
        .updateTable('user_sessions')
        .set({ mfa_passed_at: null })
        .where('user_id', '=', userId)
        .where('closed_at', 'is', null)
        .execute();
      await recordAudit(
        trx,
        { userId: actor.userId, email: actor.email, ipAddress: ip },
        {
          action: 'mfa.reset',
          targetType: 'mfa',
          targetId: userId,
          targetLabel: user.email,
          before: {
            enrolled: mfa.confirmed_at !== null,
            confirmedAt: mfa.confirmed_at?.toISOString() ?? null,
            recoveryCodesLeft: Number(codesLeft.n),
          },
          after: { enrolled: false },
        },
      );
      return {
        email: user.email,
        message: `The second factor of ${user.email} is reset: they set up an authenticator again at their next login.`,
      };
    });
    // The administrator's address is not the owner's business: the notice names none.
    this.notify(outcome.email, 'mfa_reset', null);
    return { message: outcome.message };
  }

  /**
   * One code attempt, serialised per account: a transaction locks the account's user_mfa row, so
   * the failure count, the limit check and the failure's insert of parallel attempts cannot
   * interleave (without it, ten parallel wrong codes would all pass a count of zero). A refusal
   * commits its failure row and is thrown after the commit.
   */
  private async attempt<T>(
    userId: number,
    ip: string | null,
    kind: CodeKind,
    evaluate: (trx: Kysely<Database>) => Promise<Attempt<T>>,
  ): Promise<T> {
    const limits = typeof this.limits === 'function' ? await this.limits() : this.limits;
    const outcome = await this.db.transaction().execute(async (trx) => {
      await trx.selectFrom('user_mfa').select('user_id').where('user_id', '=', userId).forUpdate().executeTakeFirst();
      await assertAttemptsLeft(trx, userId, ip, kind, limits);
      const result = await evaluate(trx);
      if (!result.ok) await trx.insertInto('mfa_failures').values({ user_id: userId, ip_address: ip }).execute();
      return result;
    });
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  /** Checks a TOTP code and takes its step, refusing a step this account used already (replay); null when taken. */
  private async takeTotp(trx: Kysely<Database>, userId: number, sealed: string, code: string): Promise<Attempt<never> | null> {
    const step = matchingStep(this.box.open(sealed), code);
    if (step === null) return refused(wrongCode());
    // One statement: two requests with the same code cannot both take its step.
    const taken = await trx
      .updateTable('user_mfa')
      .set({ last_step: step, last_verified_at: sql`now()` })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
      .returning('user_id')
      .executeTakeFirst();
    return taken
      ? null
      : refused(wrongCode('That code was used already. Wait for the next code in your app (codes change every 30 seconds).'));
  }

  /** Replaces an account's recovery codes with new ones; answers them (only keyed hashes are stored). */
  private async replaceRecoveryCodes(trx: Kysely<Database>, userId: number): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await trx.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId).execute();
    await trx
      .insertInto('mfa_recovery_codes')
      .values(codes.map((code) => ({ user_id: userId, code_hash: recoveryHash(this.box, userId, code) })))
      .execute();
    return codes;
  }

  private async recoveryCodesLeft(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('mfa_recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

interface AttemptCounts {
  pair_n: number;
  pair_oldest: Date | null;
  account_n: number;
  account_oldest: Date | null;
  known_address: boolean;
}

/**
 * 429 when the account may not try a code from `ip` now (MfaLimits; counted in the database, so
 * every API process agrees). The per-address count ends with a good code from that address, the
 * account's ceiling with a good code anywhere, and waiting always ends both. An address is known
 * when a session of the account opened there passed the second factor within `knownAddressDays`.
 * A null address (no socket address) is never known, and its failures count together as one
 * address's, so that a recovery code from it still meets a limit. Called with the
 * account's user_mfa row locked (MfaService.attempt).
 */
async function assertAttemptsLeft(
  db: Kysely<Database>,
  userId: number,
  ip: string | null,
  kind: CodeKind,
  limits: MfaLimits,
): Promise<void> {
  const { perAccountAddress, windowMinutes, perAccount, accountWindowMinutes, knownAddressDays } = limits;
  const { rows } = await sql<AttemptCounts>`
    WITH passed AS (
      SELECT coalesce(max(mfa_passed_at), 'epoch'::timestamptz) AS here,
             coalesce(bool_or(mfa_passed_at > now() - make_interval(days => ${knownAddressDays})), false) AS known
      FROM user_sessions WHERE user_id = ${userId} AND ip_address = ${ip}::text AND mfa_passed_at IS NOT NULL
    ), bounds AS (
      SELECT greatest(now() - make_interval(mins => ${windowMinutes}), passed.here) AS pair_since,
             greatest(now() - make_interval(mins => ${accountWindowMinutes}),
                      coalesce((SELECT last_verified_at FROM user_mfa WHERE user_id = ${userId}), 'epoch'::timestamptz)) AS account_since,
             passed.known
      FROM passed
    )
    SELECT
      count(*) FILTER (WHERE f.ip_address IS NOT DISTINCT FROM ${ip}::text AND f.failed_at > b.pair_since)::int AS pair_n,
      min(f.failed_at) FILTER (WHERE f.ip_address IS NOT DISTINCT FROM ${ip}::text AND f.failed_at > b.pair_since) AS pair_oldest,
      count(*) FILTER (WHERE f.failed_at > b.account_since)::int AS account_n,
      min(f.failed_at) FILTER (WHERE f.failed_at > b.account_since) AS account_oldest,
      bool_or(b.known) AS known_address
    FROM bounds b
    LEFT JOIN mfa_failures f ON f.user_id = ${userId}
      AND f.failed_at > now() - make_interval(mins => ${Math.max(windowMinutes, accountWindowMinutes)})
  `.execute(db);
  const row = rows[0];
  if (!row) return;
  if (row.pair_n >= perAccountAddress) {
    throw tooManyRequests(
      `Too many wrong codes. Try again in ${waitFor(row.pair_oldest, windowMinutes).text}.`,
      waitFor(row.pair_oldest, windowMinutes).seconds,
    );
  }
  if (kind === 'recovery' || row.known_address === true || row.account_n < perAccount) return;
  const wait = waitFor(row.account_oldest, accountWindowMinutes);
  throw tooManyRequests(
    `Too many wrong codes for this account. Try again in ${wait.text}, from a network where you passed this step before, or use one of your recovery codes.`,
    wait.seconds,
  );
}

/** How long until the oldest counted failure leaves its window. */
function waitFor(oldest: Date | null, windowMinutes: number): { seconds: number; text: string } {
  const until = (oldest ? new Date(oldest).getTime() : Date.now()) + windowMinutes * 60_000;
  const seconds = Math.max(1, Math.ceil((until - Date.now()) / 1000));
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return { seconds, text: minutes === 1 ? '1 minute' : `${minutes} minutes` };
}
