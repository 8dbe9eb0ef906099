import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../../app/api-client.ts';
import type { UserCreateFormValues } from './account-forms.ts';
import {
  apiErrorField,
  EMPTY_ORGANISATION,
  extendDateError,
  toCreditChange,
  toOrganisationInput,
  toOrganisationUpdate,
  toUserCreate,
  userFieldOf,
} from './account-forms.ts';

const user: UserCreateFormValues = {
  email: ' Ada@Example.ORG ',
  firstName: 'Ada',
  lastName: 'Lovelace',
  organisationId: '7',
  invite: true,
  role: '',
  startDate: '',
  endDate: '',
  credits: '',
};

describe('organisation form', () => {
  it('sends an empty seats field as "no limit" and an empty contact as none', () => {
    expect(toOrganisationInput({ ...EMPTY_ORGANISATION, name: 'Acme' })).toEqual({
      ok: true,
      value: { name: 'Acme', seats: null, contactEmail: null, notes: '' },
    });
  });

  it('refuses a missing name, a fractional seat count and a bad contact address, each at its field', () => {
    const result = toOrganisationInput({ ...EMPTY_ORGANISATION, name: ' ', seats: '2.5', contactEmail: 'nobody' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.name).toBe('Name the organisation.');
    expect(result.errors.seats).toMatch(/whole number/);
    expect(result.errors.contactEmail).toBe('Enter a valid e-mail address.');
  });

  it('carries the active flag and "1,000" seats on an edit', () => {
    expect(toOrganisationUpdate({ ...EMPTY_ORGANISATION, name: 'Acme', seats: '1,000', active: false })).toMatchObject({
      ok: true,
      value: { seats: 1000, active: false },
    });
  });
});

describe('create-user form', () => {
  it('builds the request body: trimmed lower-case e-mail, the organisation as a number, no subscription or credits when left empty', () => {
    expect(toUserCreate(user)).toEqual({
      ok: true,
      value: { email: 'ada@example.org', firstName: 'Ada', lastName: 'Lovelace', organisationId: 7, invite: true },
    });
  });

  it('adds the subscription and opening credits when given', () => {
    const result = toUserCreate({
      ...user,
      organisationId: null,
      role: 'FULL_USER',
      startDate: '2030-01-01',
      endDate: '2030-12-31',
      credits: '500',
    });
    expect(result).toEqual({
      ok: true,
      value: {
        email: 'ada@example.org',
        firstName: 'Ada',
        lastName: 'Lovelace',
        organisationId: null,
        invite: true,
        subscription: { role: 'FULL_USER', startDate: '2030-01-01', endDate: '2030-12-31' },
        credits: 500,
      },
    });
  });

  it('puts each problem at its field: e-mail, names, end before start, credits', () => {
    const result = toUserCreate({
      ...user,
      email: 'not-an-address',
      firstName: '',
      role: 'FULL_USER',
      startDate: '2030-05-01',
      endDate: '2030-04-01',
      credits: '-3',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toMatchObject({
      email: 'Enter a valid e-mail address.',
      firstName: 'Enter a first name.',
      endDate: 'The end date (the last day) must not be before the start date.',
    });
    expect(result.errors.credits).toMatch(/at least 1/);
  });

  it('accepts a one-day subscription: the end date is its last day, inclusive', () => {
    const result = toUserCreate({ ...user, role: 'FULL_USER', startDate: '2030-05-01', endDate: '2030-05-01' });
    expect(result.ok).toBe(true);
  });

  it('asks for a role when dates are given without one, and for an end date when a role is chosen', () => {
    expect(toUserCreate({ ...user, endDate: '2030-12-31' })).toMatchObject({ ok: false, errors: { role: expect.stringMatching(/role/) } });
    expect(toUserCreate({ ...user, role: 'EVALUATE_USER' })).toMatchObject({ ok: false, errors: { endDate: 'Choose the end date.' } });
  });
});

describe('credit form', () => {
  it('adds credits as a grant and adjusts either way', () => {
    expect(toCreditChange({ mode: 'add', amount: '1,000', reason: 'Annual top-up' })).toEqual({
      ok: true,
      value: { kind: 'grant', delta: 1000, reason: 'Annual top-up' },
    });
    expect(toCreditChange({ mode: 'adjust', amount: '-250', reason: 'Refund reversed' })).toEqual({
      ok: true,
      value: { kind: 'adjustment', delta: -250, reason: 'Refund reversed' },
    });
  });

  it('refuses zero, a negative addition, too many credits and a missing reason', () => {
    expect(toCreditChange({ mode: 'adjust', amount: '0', reason: 'x' })).toMatchObject({
      ok: false,
      errors: { amount: 'Credits must not be zero.' },
    });
    expect(toCreditChange({ mode: 'add', amount: '-5', reason: 'x' })).toMatchObject({
      ok: false,
      errors: { amount: expect.stringMatching(/Adjust/) },
    });
    expect(toCreditChange({ mode: 'add', amount: '10000001', reason: 'x' })).toMatchObject({
      ok: false,
      errors: { amount: expect.stringMatching(/^At most 10,000,000/) },
    });
    expect(toCreditChange({ mode: 'add', amount: '10', reason: ' ' })).toMatchObject({
      ok: false,
      errors: { reason: expect.stringMatching(/^Give a reason/) },
    });
    expect(toCreditChange({ mode: 'add', amount: 'ten', reason: 'x' })).toMatchObject({
      ok: false,
      errors: { amount: 'Credits must be a whole number.' },
    });
  });
});

describe('extend date', () => {
  it('wants a real day, today or later and not before the start (the end date is the last day, inclusive)', () => {
    expect(extendDateError('2030-05-31', '2030-01-01', '2030-06-01')).toMatch(/today or a later day/);
    // The end date is the last day, inclusive: today and the start day itself are allowed.
    expect(extendDateError('2030-06-01', '2030-01-01', '2030-06-01')).toBeNull();
    expect(extendDateError('2030-08-01', '2030-08-01', '2030-06-01')).toBeNull();
    expect(extendDateError('2030-13-01', '2030-01-01', '2030-06-01')).toBe('Pick the new end date.');
    expect(extendDateError('2030-07-01', '2030-08-01', '2030-06-01')).toMatch(/not be before the start/);
    expect(extendDateError('2030-07-01', '2030-01-01', '2030-06-01')).toBeNull();
  });
});

describe('apiErrorField', () => {
  it('names the field of a request-validation 400, in the form’s terms', () => {
    const error = new ApiRequestError({
      status: 400,
      code: 'VALIDATION',
      message: 'Invalid date (subscription.endDate)',
      details: [{ instancePath: '/subscription/endDate', message: 'Invalid date' }],
    });
    expect(apiErrorField(error, userFieldOf)).toBe('endDate');
  });

  it('answers null for a 400 that names no field and for other statuses', () => {
    expect(
      apiErrorField(new ApiRequestError({ status: 400, code: 'VALIDATION', message: 'That e-mail address already has an account.' })),
    ).toBeNull();
    expect(
      apiErrorField(new ApiRequestError({ status: 409, code: 'CONFLICT', message: 'x', details: [{ instancePath: '/email' }] })),
    ).toBeNull();
  });
});
