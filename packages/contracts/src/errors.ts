import { z } from 'zod';

/** The one error shape of the API. `timeout: true` marks an idle-expired session (spec §8). */
export const ApiErrorSchema = z.object({
  message: z.string(),
  code: z.string(),
  timeout: z.boolean().optional(),
  retryAfterSeconds: z.number().int().optional(),
  details: z.unknown().optional(),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;

/** Spec §8: the root API answers this text when a token is missing, expired or revoked. */
export const TOKEN_MISSING_MESSAGE = 'token is missing';

export const ERROR_CODES = {
  tokenMissing: 'TOKEN_MISSING',
  sessionIdle: 'SESSION_IDLE',
  forbidden: 'FORBIDDEN',
  badCredentials: 'BAD_CREDENTIALS',
  subscriptionInactive: 'SUBSCRIPTION_INACTIVE',
  rateLimited: 'RATE_LIMITED',
  validation: 'VALIDATION',
  notFound: 'NOT_FOUND',
  conflict: 'CONFLICT',
  invalidLink: 'INVALID_LINK',
  /** An export needs more download credits than the balance holds (answered 402 before any work). */
  insufficientCredits: 'INSUFFICIENT_CREDITS',
  /** 401: the session reached its absolute lifetime (SESSION_MAX_AGE_MS); log in again. */
  sessionExpired: 'SESSION_EXPIRED',
  /** Any call but the login and code steps from an admin's session that has not passed the second factor (contracts mfa.ts). */
  mfaRequired: 'MFA_REQUIRED',
  /** An admin-only call from an admin without an authenticator: enrol at /account/mfa. */
  mfaEnrolmentRequired: 'MFA_ENROLMENT_REQUIRED',
} as const;

/** Spec §8: messages of requests cancelled by a newer one. */
export const CANCELLED_MESSAGES = {
  byUser: 'Request canceled by user',
  byNewRequest: 'Operation canceled due to new request.',
} as const;
