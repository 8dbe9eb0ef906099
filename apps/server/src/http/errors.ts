import type { ApiError } from '@kb/contracts/errors';
import { ERROR_CODES, TOKEN_MISSING_MESSAGE } from '@kb/contracts/errors';

/** An error the API answers with its own status and the one error shape `{ message, code }`. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: ApiError,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.message);
  }
}

export const badRequest = (message: string, details?: unknown) =>
  new HttpError(400, { message, code: ERROR_CODES.validation, ...(details === undefined ? {} : { details }) });

export const forbidden = (message = 'Your role may not do this.') => new HttpError(403, { message, code: ERROR_CODES.forbidden });

export const notFound = (message: string) => new HttpError(404, { message, code: ERROR_CODES.notFound });

/** Spec §8: a missing, expired or revoked token answers "token is missing"; idle expiry adds `timeout: true`. */
export const tokenMissing = (idle = false) =>
  new HttpError(401, {
    message: TOKEN_MISSING_MESSAGE,
    code: idle ? ERROR_CODES.sessionIdle : ERROR_CODES.tokenMissing,
    ...(idle ? { timeout: true } : {}),
  });

/** 401 for a session past its absolute lifetime: the spec's "token is missing", with a code the web app words. */
export const sessionExpired = () => new HttpError(401, { message: TOKEN_MISSING_MESSAGE, code: ERROR_CODES.sessionExpired });

export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new HttpError(429, { message, code: ERROR_CODES.rateLimited, retryAfterSeconds }, { 'retry-after': String(retryAfterSeconds) });
