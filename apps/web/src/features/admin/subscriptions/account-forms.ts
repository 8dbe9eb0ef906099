import type { z } from 'zod';
import type { CreditChange, OrganisationInput, OrganisationUpdate, SubscriptionGrant, UserCreate } from '@kb/contracts/admin-accounts';
import {
  CreditChangeSchema,
  OrganisationInputSchema,
  OrganisationUpdateSchema,
  SubscriptionGrantSchema,
  UserCreateSchema,
} from '@kb/contracts/admin-accounts';
import type { Role } from '@kb/contracts/roles';
import { isApiRequestError } from '../../../app/api-client.ts';
import { isCalendarDay } from './account-format.ts';

/**
 * The forms of the account-administration page: what the fields hold (text, as inputs give it),
 * how they become the contract's request bodies, and the field each problem belongs to. The
 * contract's schemas do the checking, so the form and the server give the same messages.
 */

export type FieldErrors = Record<string, string>;
export type FormResult<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

/** The first message of each field a schema refuses, keyed by `rename(path)` (default: the path joined by dots). */
export function schemaErrors(error: z.ZodError, rename: (path: string) => string = (path) => path): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = rename(issue.path.map(String).join('.'));
    if (!(key in errors)) errors[key] = issue.message;
  }
  return errors;
}

function parseWith<T>(schema: z.ZodType<T>, data: unknown, rename?: (path: string) => string): FormResult<T> {
  const parsed = schema.safeParse(data);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, errors: schemaErrors(parsed.error, rename) };
}

/** A whole number typed into a text field: null when empty, NaN when not a whole number. */
function parseWholeNumber(text: string): number | null {
  const trimmed = text.trim().replace(/[,\s]/g, '');
  if (trimmed === '') return null;
  return /^[-+]?\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/* ---------- organisations ---------- */

export interface OrganisationFormValues {
  name: string;
  /** Empty: seats are not limited. */
  seats: string;
  contactEmail: string;
  notes: string;
  active: boolean;
}

export const EMPTY_ORGANISATION: OrganisationFormValues = { name: '', seats: '', contactEmail: '', notes: '', active: true };

function organisationBody(values: OrganisationFormValues): { body: OrganisationInput; errors: FieldErrors } {
  const seats = parseWholeNumber(values.seats);
  const errors: FieldErrors = {};
  if (seats !== null && !(Number.isInteger(seats) && seats >= 1))
    errors.seats = 'Seats must be a whole number of at least 1, or empty for no limit.';
  const body: OrganisationInput = {
    name: values.name,
    seats: seats === null || Number.isNaN(seats) ? null : seats,
    contactEmail: values.contactEmail.trim() === '' ? null : values.contactEmail,
    notes: values.notes,
  };
  return { body, errors };
}

/** A new organisation's request body, or the problems of its fields. */
export function toOrganisationInput(values: OrganisationFormValues): FormResult<OrganisationInput> {
  const { body, errors } = organisationBody(values);
  const parsed = parseWith(OrganisationInputSchema, body);
  if (!parsed.ok) return { ok: false, errors: { ...parsed.errors, ...errors } };
  return Object.keys(errors).length > 0 ? { ok: false, errors } : parsed;
}

/** An edited organisation's request body (every field, so clearing the contact clears it). */
export function toOrganisationUpdate(values: OrganisationFormValues): FormResult<OrganisationUpdate> {
  const { body, errors } = organisationBody(values);
  const parsed = parseWith(OrganisationUpdateSchema, { ...body, active: values.active });
  if (!parsed.ok) return { ok: false, errors: { ...parsed.errors, ...errors } };
  return Object.keys(errors).length > 0 ? { ok: false, errors } : parsed;
}

/* ---------- subscriptions ---------- */

export interface GrantFormValues {
  role: Role | '';
  /** `YYYY-MM-DD`; empty starts it now. */
  startDate: string;
  endDate: string;
  /** Optional: the contract it belongs to. */
  contractId?: string;
  /** Flat-file access (for the roles that may carry it). */
  havingFlatFileAccess?: boolean;
}

const GRANT_FIELD: Record<string, string> = { role: 'role', startDate: 'startDate', endDate: 'endDate', contractId: 'contractId' };

/** A subscription's dates: real days, the end after the start. */
function dateErrors(values: GrantFormValues): FieldErrors {
  const errors: FieldErrors = {};
  if (values.startDate !== '' && !isCalendarDay(values.startDate)) errors.startDate = 'Enter the start date as a date (YYYY-MM-DD).';
  if (values.endDate === '') errors.endDate = 'Choose the end date.';
  else if (!isCalendarDay(values.endDate)) errors.endDate = 'Enter the end date as a date (YYYY-MM-DD).';
  else if (values.startDate !== '' && isCalendarDay(values.startDate) && values.endDate < values.startDate)
    errors.endDate = 'The end date (the last day) must not be before the start date.';
  return errors;
}

/** A grant's request body, or the problems of its fields. */
export function toSubscriptionGrant(values: GrantFormValues): FormResult<SubscriptionGrant> {
  const errors: FieldErrors = dateErrors(values);
  if (values.role === '') errors.role = 'Choose a role.';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return parseWith(
    SubscriptionGrantSchema,
    {
      role: values.role,
      endDate: values.endDate,
      ...(values.startDate ? { startDate: values.startDate } : {}),
      ...(values.contractId?.trim() ? { contractId: values.contractId } : {}),
      ...(values.havingFlatFileAccess ? { havingFlatFileAccess: true } : {}),
    },
    (path) => GRANT_FIELD[path] ?? path,
  );
}

/** "Extend": the picked end date (the last day, inclusive) must be a real day, today or later, and not before the start. */
export function extendDateError(endDate: string, startDate: string, today: string): string | null {
  if (!isCalendarDay(endDate)) return 'Pick the new end date.';
  if (endDate < today) return 'Pick today or a later day (use “End now” to end it).';
  if (endDate < startDate) return 'The end date (the last day) must not be before the start date.';
  return null;
}

/* ---------- users ---------- */

export interface UserCreateFormValues {
  email: string;
  firstName: string;
  lastName: string;
  /** The organisation's id as the select holds it; null for none. */
  organisationId: string | null;
  invite: boolean;
  /** Empty: no subscription now. */
  role: Role | '';
  startDate: string;
  endDate: string;
  /** Opening credits; empty for none. */
  credits: string;
}

const USER_FIELD: Record<string, string> = {
  'subscription.role': 'role',
  'subscription.startDate': 'startDate',
  'subscription.endDate': 'endDate',
};

/** A new user's request body, or the problems of its fields (keyed by the form's field names). */
export function toUserCreate(values: UserCreateFormValues): FormResult<UserCreate> {
  const errors: FieldErrors = {};
  let subscription: SubscriptionGrant | undefined;
  if (values.role !== '') {
    const grant = toSubscriptionGrant(values);
    if (grant.ok) subscription = grant.value;
    else Object.assign(errors, grant.errors);
  } else if (values.endDate !== '' || values.startDate !== '') {
    errors.role = 'Choose a role for these dates, or clear the dates.';
  }
  const credits = parseWholeNumber(values.credits);
  if (credits !== null && !(Number.isInteger(credits) && credits >= 1))
    errors.credits = 'Opening credits must be a whole number of at least 1, or empty.';
  const body = {
    email: values.email,
    firstName: values.firstName,
    lastName: values.lastName,
    organisationId: values.organisationId === null || values.organisationId === '' ? null : Number(values.organisationId),
    invite: values.invite,
    ...(subscription ? { subscription } : {}),
    ...(credits !== null && !Number.isNaN(credits) ? { credits } : {}),
  };
  const parsed = parseWith(UserCreateSchema, body, (path) => USER_FIELD[path] ?? path);
  if (!parsed.ok) return { ok: false, errors: { ...parsed.errors, ...errors } };
  return Object.keys(errors).length > 0 ? { ok: false, errors } : parsed;
}

/* ---------- credits ---------- */

export interface CreditFormValues {
  /** add: a grant (a positive number); adjust: a correction either way. */
  mode: 'add' | 'adjust';
  amount: string;
  reason: string;
}

/** A credit change's request body, or the problems of its fields. */
export function toCreditChange(values: CreditFormValues): FormResult<CreditChange> {
  const amount = parseWholeNumber(values.amount);
  if (amount === null) return { ok: false, errors: { amount: 'Enter a number of credits.', ...reasonError(values.reason) } };
  if (values.mode === 'add' && amount < 0)
    return { ok: false, errors: { amount: 'Added credits must be positive; use “Adjust” to take credits away.' } };
  return parseWith(
    CreditChangeSchema,
    { kind: values.mode === 'add' ? 'grant' : 'adjustment', delta: amount, reason: values.reason },
    (path) => (path === 'delta' ? 'amount' : path),
  );
}

function reasonError(reason: string): FieldErrors {
  const parsed = CreditChangeSchema.shape.reason.safeParse(reason);
  return parsed.success ? {} : { reason: parsed.error.issues[0]?.message ?? 'Give a reason.' };
}

/* ---------- server answers ---------- */

/**
 * The form field a server 400 names, when it names one: the request validation lists issues with
 * an `instancePath` ("/email", "/subscription/endDate"); the text guard gives `{ field }`.
 */
export function apiErrorField(error: unknown, rename: (path: string) => string = (path) => path): string | null {
  if (!isApiRequestError(error) || error.status !== 400) return null;
  const details = error.details;
  let path: string | null = null;
  if (Array.isArray(details)) {
    const first = details[0] as { instancePath?: unknown } | undefined;
    if (first && typeof first.instancePath === 'string' && first.instancePath !== '')
      path = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  } else if (details && typeof details === 'object' && 'field' in details) {
    const field = (details as { field: unknown }).field;
    if (typeof field === 'string') path = field;
    else if (Array.isArray(field)) path = field.map(String).join('.');
  }
  return path === null ? null : rename(path);
}

/** `rename` for the create-user form (subscription fields sit at the top of the form). */
export const userFieldOf = (path: string): string => USER_FIELD[path] ?? path;
