import { mfaEndpoints } from '@kb/contracts/api';
import type { MfaVerifyResult, RecoveryCodes } from '@kb/contracts/mfa';
import { WRONG_CODE_MESSAGE } from '@kb/contracts/mfa';
import { ApiRequestError, callApi } from '../../app/api-client.ts';
import { useSessionStore } from '../../app/stores/session-store.ts';
import { formatWait } from './auth-service.ts';

/** The second login step: a TOTP or recovery code; the session may then open admin pages. */
export async function verifySecondFactor(code: string): Promise<MfaVerifyResult> {
  const result = await callApi(mfaEndpoints.verify, { body: { code } });
  useSessionStore.getState().passSecondFactor();
  return result;
}

/** Confirms a started enrolment with the first code: answers the recovery codes (shown once). */
export async function confirmEnrolment(code: string): Promise<RecoveryCodes> {
  const result = await callApi(mfaEndpoints.enrolConfirm, { body: { code } });
  useSessionStore.getState().passSecondFactor();
  return result;
}

/** What a failed code step says: the server's words, a wait for 429. */
export function codeErrorMessage(error: unknown): string {
  if (error instanceof ApiRequestError) {
    if (error.status === 429)
      return error.retryAfterSeconds === undefined
        ? error.message
        : `Too many wrong codes. Try again in ${formatWait(error.retryAfterSeconds)}.`;
    if (error.status === 0) return 'The server cannot be reached. Check your connection and try again.';
    return error.message || WRONG_CODE_MESSAGE;
  }
  return 'The code could not be checked. Please try again.';
}

/** Recovery codes as a text file: one a line, with what they are for. */
export function recoveryCodesText(codes: readonly string[], account: string | null): string {
  return [
    `KB Search recovery codes${account ? ` for ${account}` : ''}`,
    'Each code works once, in place of the 6-digit code of your authenticator app.',
    '',
    ...codes,
    '',
  ].join('\n');
}
