import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as zxcvbnCommon from '@zxcvbn-ts/language-common';
import * as zxcvbnEnglish from '@zxcvbn-ts/language-en';
import { passwordProblem } from '@kb/contracts/auth';
import { DEMO_PASSWORD } from '@kb/contracts/roles';

/**
 * zxcvbn's score (0–4) a new password needs. 3 means about 10^8 guesses or more: with argon2id
 * and the login limits that is out of reach online, and it refuses every password of the common
 * (breach-derived) list, dictionary words with a digit appended, keyboard walks and repetitions.
 */
const MIN_PASSWORD_SCORE = 3;

/**
 * Characters zxcvbn looks at. Its matching grows faster than linearly with length (a 128-character
 * password costs ~0.4 s of CPU); the first 64 decide whether a password is a common one or a pattern.
 */
const CHECKED_LENGTH = 64;

let estimator: ZxcvbnFactory | undefined;

/** Built on first use: the dictionaries take ~0.2 s and ~45 MB, which only a password change needs. */
function passwordEstimator(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...zxcvbnCommon.dictionary, ...zxcvbnEnglish.dictionary },
    graphs: zxcvbnCommon.adjacencyGraphs,
    translations: zxcvbnEnglish.translations,
    maxLength: CHECKED_LENGTH,
  });
  return estimator;
}

export interface PasswordOwner {
  email: string;
  firstName?: string | null;
  lastName?: string | null;
}

/**
 * Why a new password is refused, as a message saying what to change, or null when it may be set:
 * the shared rule of the contract (length, e-mail name), then the common / breached password check
 * with the account's own details as extra dictionary words.
 */
export function newPasswordProblem(password: string, owner: PasswordOwner): string | null {
  const ruleProblem = passwordProblem(password, owner.email);
  if (ruleProblem) return ruleProblem;
  // Printed in the README and on the console of every demo start.
  if (password === DEMO_PASSWORD)
    return "This is the demo accounts' published password. Choose another one, for example a few unrelated words.";
  const [emailName = '', domain = ''] = owner.email.toLowerCase().split('@');
  const userInputs = [
    owner.email,
    emailName,
    ...emailName.split(/[._+-]+/),
    domain.split('.')[0] ?? '',
    owner.firstName ?? '',
    owner.lastName ?? '',
  ].filter((word) => word.length >= 3);
  const checked = [...password].slice(0, CHECKED_LENGTH).join('');
  const result = passwordEstimator().check(checked, userInputs);
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  const why = result.feedback.warning ?? 'This password is easy to guess: it follows a common pattern.';
  return `${why} Choose another one, for example a few unrelated words.`;
}
