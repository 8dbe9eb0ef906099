import { PasswordSchema } from '@kb/contracts/auth';

/** The first rule a new password breaks (contract rule: 8+ characters, a letter and a digit), or null. */
export function passwordProblem(password: string): string | null {
  const result = PasswordSchema.safeParse(password);
  return result.success ? null : (result.error.issues[0]?.message ?? 'Choose a stronger password.');
}

/** Validation of a "new password + confirm" pair. */
export function confirmProblem(password: string, confirm: string): string | null {
  if (!confirm) return 'Repeat the new password.';
  return password === confirm ? null : 'The passwords do not match.';
}

/** The show/hide button of password fields is named without the word "password" so a field's label stays unique. */
export const TOGGLE_PROPS = { 'aria-label': 'Show or hide the characters' } as const;
