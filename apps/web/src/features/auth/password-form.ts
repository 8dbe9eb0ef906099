import { PASSWORD_RULE_TEXT, passwordProblem as contractPasswordProblem } from '@kb/contracts/auth';

/** The password rule as the forms state it (the contract's text). */
export const PASSWORD_RULE = PASSWORD_RULE_TEXT;

/**
 * The first rule a new password breaks, or null: the contract's rule (12+ characters, at most 128,
 * not containing the e-mail name). The server also refuses common passwords and says why.
 */
export function passwordProblem(password: string, email?: string | null): string | null {
  return contractPasswordProblem(password, email ?? undefined);
}

/** Validation of a "new password + confirm" pair. */
export function confirmProblem(password: string, confirm: string): string | null {
  if (!confirm) return 'Repeat the new password.';
  return password === confirm ? null : 'The passwords do not match.';
}

/** The show/hide button of password fields is named without the word "password" so a field's label stays unique. */
export const TOGGLE_PROPS = { 'aria-label': 'Show or hide the characters' } as const;
