import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { ERROR_CODES } from './errors.ts';
import { ADMIN_ROLES } from './roles.ts';

/**
 * Second factor of the admin roles (ASVS 4.0.3 V2.8, docs/security.md "Second factor"): a TOTP
 * authenticator (RFC 6238: SHA-1, 6 digits, 30-second steps) and single-use recovery codes. A
 * session of an admin opens with the second step pending; admin-only calls refuse it (403
 * MFA_REQUIRED, or MFA_ENROLMENT_REQUIRED without an authenticator) until `verify` accepts a code.
 */

/** RFC 6238 parameters every authenticator app understands. */
export const TOTP_PARAMETERS = { algorithm: 'SHA1', digits: 6, periodSeconds: 30 } as const;
/** Recovery codes issued at enrolment and on regeneration. */
export const RECOVERY_CODE_COUNT = 10;
/** The issuer an authenticator app shows next to the account. */
export const TOTP_ISSUER = 'KB Search';

/** The login answer's word on the second step (LoginResult.secondFactor). */
export const SecondFactorStateSchema = z.enum([
  /** The account needs none (no admin role). */
  'not_required',
  /** This session passed the second step. */
  'passed',
  /** Enrolled: answer `POST /api/account/mfa/verify` with a code. */
  'code_required',
  /** An admin without an authenticator: enrol at /account/mfa before using admin pages. */
  'enrolment_required',
]);
export type SecondFactorState = z.infer<typeof SecondFactorStateSchema>;

/** Error codes of the admin-only calls refused for want of the second step (403). */
export const MFA_ERROR_CODES = {
  required: ERROR_CODES.mfaRequired,
  enrolmentRequired: ERROR_CODES.mfaEnrolmentRequired,
  /** 400 answer to a wrong, used or replayed code. */
  wrongCode: 'MFA_WRONG_CODE',
} as const;

/** The text a wrong code gets, in the web app and the API alike. */
export const WRONG_CODE_MESSAGE = 'That code is not right. Codes change every 30 seconds.';

/** A 6-digit TOTP code or a recovery code; spaces and dashes as people type them are allowed. */
export const MfaCodeSchema = z
  .string()
  .trim()
  .min(1, 'Enter the 6-digit code from your authenticator app, or a recovery code.')
  .max(32, 'A code has 6 digits; a recovery code 10 letters and digits.');

export const MfaCodeRequestSchema = z.object({ code: MfaCodeSchema });
export type MfaCodeRequest = z.infer<typeof MfaCodeRequestSchema>;

/** A TOTP code only (enrolment confirmation, regeneration of recovery codes). */
export const TotpCodeRequestSchema = z.object({
  code: z
    .string()
    .trim()
    .transform((value) => value.replace(/\s+/g, ''))
    .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code your authenticator app shows now.')),
});
export type TotpCodeRequest = z.infer<typeof TotpCodeRequestSchema>;

export const MfaStatusSchema = z.object({
  /** The account holds an admin role, so admin pages need the second step. */
  required: z.boolean(),
  /** An authenticator is confirmed. */
  enrolled: z.boolean(),
  state: SecondFactorStateSchema,
  /** Unused recovery codes; null without enrolment. */
  recoveryCodesLeft: z.number().int().nullable(),
});
export type MfaStatus = z.infer<typeof MfaStatusSchema>;

export const MfaEnrolmentSchema = z.object({
  /** Base32 secret for typing into an app by hand (shown until the enrolment is confirmed). */
  secret: z.string(),
  /** `otpauth://totp/...` URI the QR code holds. */
  otpauthUri: z.string(),
  /** PNG data URL of the QR code. */
  qrDataUrl: z.string(),
});
export type MfaEnrolment = z.infer<typeof MfaEnrolmentSchema>;

export const RecoveryCodesSchema = z.object({
  /** Shown once: only their hashes are kept. */
  recoveryCodes: z.array(z.string()),
});
export type RecoveryCodes = z.infer<typeof RecoveryCodesSchema>;

export const MfaVerifyResultSchema = z.object({
  method: z.enum(['totp', 'recovery_code']),
  recoveryCodesLeft: z.number().int(),
});
export type MfaVerifyResult = z.infer<typeof MfaVerifyResultSchema>;

export const MfaResetParamsSchema = z.object({ userId: z.coerce.number().int().positive().max(2_147_483_647) });

export const MfaResetResultSchema = z.object({ message: z.string() });

const ADMINS = ADMIN_ROLES;

export const mfaEndpoints = {
  status: defineEndpoint({
    method: 'GET',
    path: '/api/account/mfa',
    access: 'authenticated',
    // Describes the pending step, so it sees the admin roles of a session that has not passed it.
    beforeSecondFactor: true,
    summary: 'Second factor of the caller: needed or not, enrolled or not, passed by this session or not.',
    response: MfaStatusSchema,
  }),
  enrolStart: defineEndpoint({
    method: 'POST',
    path: '/api/account/mfa/enrol',
    access: ADMINS,
    beforeSecondFactor: true,
    summary: 'Starts enrolment of an authenticator: a new secret, its otpauth URI and QR code (refused once one is confirmed).',
    response: MfaEnrolmentSchema,
  }),
  enrolConfirm: defineEndpoint({
    method: 'POST',
    path: '/api/account/mfa/enrol/confirm',
    access: ADMINS,
    beforeSecondFactor: true,
    summary: 'Confirms enrolment with the first code; answers the recovery codes (once) and marks the session as passed.',
    body: TotpCodeRequestSchema,
    response: RecoveryCodesSchema,
  }),
  verify: defineEndpoint({
    method: 'POST',
    path: '/api/account/mfa/verify',
    access: ADMINS,
    beforeSecondFactor: true,
    summary: 'Second login step: a TOTP code (each 30-second code works once) or a single-use recovery code.',
    body: MfaCodeRequestSchema,
    response: MfaVerifyResultSchema,
  }),
  regenerateRecoveryCodes: defineEndpoint({
    method: 'POST',
    path: '/api/account/mfa/recovery-codes',
    access: ADMINS,
    summary: 'Replaces the recovery codes (the old ones stop working); needs a current TOTP code.',
    body: TotpCodeRequestSchema,
    response: RecoveryCodesSchema,
  }),
  reset: defineEndpoint({
    method: 'POST',
    path: '/api/superadmin/users/:userId/mfa/reset',
    access: ['SUPER_ADMIN'],
    summary: "Removes another account's authenticator and recovery codes (audited); it enrols again at its next admin page.",
    params: MfaResetParamsSchema,
    response: MfaResetResultSchema,
  }),
};
