import { formatQuantity, quantityOfColumn } from '@kb/contracts/quantities';
import { PLAIN_DATE } from '@kb/contracts/plain-date';
import { formatDay, formatLastDay, formatMoment } from '../subscriptions/account-format.ts';

/** One changed field of an audit row: its value before and after (null where it had none). */
export interface AuditChange {
  /** The field's path in the stored change ("subscription.endDate"): what a program matches on. */
  field: string;
  /** The same as a reader names it ("Subscription · End date"). */
  label: string;
  /** As a reader sees it (auditValue): "31 Mar 2027", "1,000", "yes". */
  before: string | null;
  after: string | null;
  /** As stored, for files a program reads: text as it is, anything else as JSON. */
  storedBefore: string | null;
  storedAfter: string | null;
}

/** A stored value as text: text as it is, anything else as JSON. */
function storedText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const END_KEY = /(^|_)end(_?date|s_?at|ed_?at)?$|endDate$/i;
const START_KEY = /(^|_)start(_?date)?$|startDate$/i;

/** "endDate" and "end_date" → "End date". */
function words(key: string): string {
  const spaced = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase()
    .trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/**
 * A value as a reader sees it, by the key it is stored under: an end instant as the last day it
 * includes ("31 Mar 2027", as the administrator entered it, not "2027-04-01T00:00:00.000Z"), a
 * start as its day, other instants with their time, numbers by the shared rule (ids as they are),
 * yes / no, lists joined; anything else as JSON.
 */
export function auditValue(value: unknown, key = ''): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return formatQuantity(value, quantityOfColumn(key, Number.isInteger(value) ? 'integer' : 'number'));
  if (typeof value === 'string') {
    if (ISO_INSTANT.test(value) && END_KEY.test(key)) return formatLastDay(value);
    if ((ISO_INSTANT.test(value) && START_KEY.test(key)) || PLAIN_DATE.test(value)) return formatDay(value);
    if (ISO_INSTANT.test(value)) return formatMoment(value);
    return value;
  }
  if (Array.isArray(value) && value.every((item) => !isRecord(item) && !Array.isArray(item)))
    return value.map((item) => auditValue(item, key) ?? '—').join(', ');
  return JSON.stringify(value);
}

/** The leaves of a stored change, nested objects opened ("subscription.endDate"); a value that is not an object is one leaf "value". */
function leaves(value: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (value == null) return out;
  if (!isRecord(value)) {
    out.set(prefix || 'value', value);
    return out;
  }
  for (const [key, inner] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isRecord(inner) && Object.keys(inner).length > 0) for (const [p, v] of leaves(inner, path)) out.set(p, v);
    else out.set(path, inner);
  }
  return out;
}

/**
 * The fields an administrative change touched, as "field: before → after": the union of both
 * sides' fields (nested ones opened) whose stored values differ, in the order they appear. A
 * creation (no before) lists every field of after.
 */
export function auditChanges(before: unknown, after: unknown): AuditChange[] {
  const left = leaves(before);
  const right = leaves(after);
  const fields = [...new Set([...left.keys(), ...right.keys()])];
  return fields
    .map((field) => ({ field, storedBefore: storedText(left.get(field)), storedAfter: storedText(right.get(field)) }))
    .filter((change) => change.storedBefore !== change.storedAfter)
    .map((change) => {
      const key = change.field.split('.').at(-1)!;
      return {
        ...change,
        label: change.field.split('.').map(words).join(' · '),
        before: auditValue(left.get(change.field), key),
        after: auditValue(right.get(change.field), key),
      };
    });
}
