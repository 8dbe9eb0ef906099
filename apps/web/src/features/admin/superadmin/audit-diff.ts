/** One changed field of an audit row: its value before and after (null where it had none). */
export interface AuditChange {
  field: string;
  before: string | null;
  after: string | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value as a reader sees it: text as it is, anything else as JSON. */
export function auditValue(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The fields an administrative change touched, as "field: before → after": the union of both
 * objects' fields whose values differ, in the order they appear. A creation (no before) lists every
 * field of after; a value that is not an object is one field named "value".
 */
export function auditChanges(before: unknown, after: unknown): AuditChange[] {
  const left = isRecord(before) ? before : before == null ? {} : { value: before };
  const right = isRecord(after) ? after : after == null ? {} : { value: after };
  const fields = [...new Set([...Object.keys(left), ...Object.keys(right)])];
  return fields
    .map((field) => ({ field, before: auditValue(left[field]), after: auditValue(right[field]) }))
    .filter((change) => change.before !== change.after);
}
