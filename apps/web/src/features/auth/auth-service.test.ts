import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../app/api-client.ts';
import { formatWait, loginErrorMessage } from './auth-service.ts';
import { confirmProblem, passwordProblem } from './password-form.ts';

describe('login errors', () => {
  it('returns the server message of a 403', () => {
    expect(
      loginErrorMessage(new ApiRequestError({ status: 403, message: 'Your subscription has ended.', code: 'SUBSCRIPTION_INACTIVE' })),
    ).toBe('Your subscription has ended.');
  });

  it('returns a rate-limit text with the wait of a 429', () => {
    expect(loginErrorMessage(new ApiRequestError({ status: 429, message: 'x', code: 'RATE_LIMITED', retryAfterSeconds: 30 }))).toBe(
      'Too many login attempts. Try again in 30 seconds.',
    );
    expect(loginErrorMessage(new ApiRequestError({ status: 429, message: 'x', code: 'RATE_LIMITED', retryAfterSeconds: 600 }))).toBe(
      'Too many login attempts. Try again in 10 minutes.',
    );
    expect(loginErrorMessage(new ApiRequestError({ status: 429, message: 'x', code: 'RATE_LIMITED' }))).toMatch(/Too many login attempts/);
  });

  it('explains an unreachable server', () => {
    expect(loginErrorMessage(new ApiRequestError({ status: 0, message: 'Network Error', code: 'NETWORK' }))).toMatch(/cannot be reached/);
  });

  it('formats waits in seconds and minutes', () => {
    expect(formatWait(1)).toBe('1 second');
    expect(formatWait(61)).toBe('2 minutes');
    expect(formatWait(60)).toBe('1 minute');
  });
});

describe('password form rules', () => {
  it('applies the contract password rule: 12 characters as a person counts them, spaces allowed', () => {
    expect(passwordProblem('Short!pass1')).toMatch(/^Use at least 12 characters \(this one has 11\)/);
    expect(passwordProblem('🔑🔑🔑🔑🔑🔑')).toMatch(/this one has 6/);
    expect(passwordProblem('a'.repeat(129))).toBe('Use at most 128 characters (this one has 129).');
    expect(passwordProblem('plum tractor velvet')).toBeNull();
    expect(passwordProblem('onlylowercaseletters')).toBeNull();
  });

  it('refuses a password containing the e-mail name', () => {
    expect(passwordProblem('hello Ada.Tester 2024', 'ada.tester@lab.test')).toMatch(/e-mail name \("ada.tester"\)/);
    expect(passwordProblem('hello Ada.Tester 2024', 'someone@lab.test')).toBeNull();
  });

  it('requires a matching confirmation', () => {
    expect(confirmProblem('Good!pass1', '')).toBe('Repeat the new password.');
    expect(confirmProblem('Good!pass1', 'Good!pass2')).toBe('The passwords do not match.');
    expect(confirmProblem('Good!pass1', 'Good!pass1')).toBeNull();
  });
});
