import type { Mail } from './mailer.ts';

/**
 * Notices of changes to how an account logs in (ASVS 2.2.3 and 2.5.5): the owner learns of every
 * password or second-factor change, so one they did not make is noticed and reported. The notice
 * carries no link and no secret — only what changed, when and from which address — so it cannot be
 * used against the account if someone else reads it.
 */
export type CredentialChange =
  /** The owner changed it on the account page (current password given). */
  | 'password_changed'
  /** Set from a "Forgot password" or administrator's link (not the first password of a registration). */
  | 'password_reset'
  /** An authenticator app was set up for the second factor. */
  | 'mfa_enrolled'
  /** New recovery codes replaced the old ones. */
  | 'mfa_recovery_codes_replaced'
  /** A super administrator removed the authenticator and recovery codes. */
  | 'mfa_reset';

const WHAT: Record<CredentialChange, { subject: string; sentence: string }> = {
  password_changed: { subject: 'Your password was changed', sentence: 'the password of your KB Search account was changed' },
  password_reset: {
    subject: 'Your password was reset',
    sentence: 'a new password was set for your KB Search account from a password link',
  },
  mfa_enrolled: {
    subject: 'Two-step login was set up',
    sentence: 'an authenticator app was set up for the two-step login of your KB Search account',
  },
  mfa_recovery_codes_replaced: {
    subject: 'Your recovery codes were replaced',
    sentence: 'new recovery codes were issued for the two-step login of your KB Search account; the old ones no longer work',
  },
  mfa_reset: {
    subject: 'Your two-step login was reset',
    sentence:
      'a super administrator reset the two-step login of your KB Search account; you set up an authenticator app again at your next login',
  },
};

/** "2026-11-25 07:55 UTC": unambiguous for readers in any time zone. */
function utcMinute(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export interface NoticeInput {
  to: string;
  firstName?: string | null;
  change: CredentialChange;
  at: Date;
  /** The address the change came from, when a request made it. */
  ip: string | null;
}

/** The notice mail of one change. */
export function securityNotice({ to, firstName, change, at, ip }: NoticeInput): Mail {
  const what = WHAT[change];
  const hello = firstName ? `Hello ${firstName},` : 'Hello,';
  const where = ip ? ` from the address ${ip}` : '';
  return {
    to,
    subject: what.subject,
    body:
      `${hello}\n\n${what.sentence[0]?.toUpperCase()}${what.sentence.slice(1)} on ${utcMinute(at)}${where}.\n\n` +
      'If this was you, nothing needs doing. If it was not, reset your password at once with "Forgot password" on the login page ' +
      'and tell your administrator.',
  };
}
