import crypto from 'node:crypto';
import { HOTP, Secret, TOTP } from 'otpauth';
import { TOTP_ISSUER, TOTP_PARAMETERS } from '@kb/contracts/mfa';

/**
 * RFC 6238 codes through `otpauth`: SHA-1, 6 digits, 30-second steps. A code is checked against
 * the step of now and one step either side (clocks of phones drift; a code typed at the end of its
 * 30 seconds arrives in the next step), and the step it matched is answered, so that the caller
 * can refuse a step already used (replay protection).
 */
export const STEP_WINDOW = 1;

/** A new random secret (160 bits, RFC 4226's recommendation), as base32 text. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The 30-second step of a moment (Unix seconds / 30). */
export function totpStep(at: number = Date.now()): number {
  return Math.floor(at / 1000 / TOTP_PARAMETERS.periodSeconds);
}

/** The code of one step. */
export function totpCodeAt(secretBase32: string, step: number): string {
  return HOTP.generate({
    secret: Secret.fromBase32(secretBase32),
    algorithm: TOTP_PARAMETERS.algorithm,
    digits: TOTP_PARAMETERS.digits,
    counter: step,
  });
}

/** The step (now ± STEP_WINDOW) whose code `code` is, or null. Compared in constant time. */
export function matchingStep(secretBase32: string, code: string, at: number = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const now = totpStep(at);
  let found: number | null = null;
  for (let step = now - STEP_WINDOW; step <= now + STEP_WINDOW; step += 1) {
    const expected = Buffer.from(totpCodeAt(secretBase32, step));
    if (crypto.timingSafeEqual(expected, Buffer.from(code)) && found === null) found = step;
  }
  return found;
}

/** The `otpauth://totp/...` URI an authenticator app reads from the QR code. */
export function otpauthUri(secretBase32: string, account: string): string {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label: account,
    secret: Secret.fromBase32(secretBase32),
    algorithm: TOTP_PARAMETERS.algorithm,
    digits: TOTP_PARAMETERS.digits,
    period: TOTP_PARAMETERS.periodSeconds,
  }).toString();
}
