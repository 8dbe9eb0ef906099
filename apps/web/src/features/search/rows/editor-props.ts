import type { SelectedOption } from '@kb/contracts/search';
import type { DraftOf } from '../builder/row-drafts.ts';
import type { FieldErrors } from '../builder/row-criteria.ts';

/** What every row editor gets: its draft, the messages for its fields, and a way to change it. */
export interface EditorProps<O extends SelectedOption> {
  draft: DraftOf<O>;
  /** Field path → message; shown only once the user tried to search. */
  errors: FieldErrors;
  update: (change: (draft: DraftOf<O>) => DraftOf<O>) => void;
}

/** Number inputs answer '' while empty; drafts hold null then. */
export function numberOrNull(value: string | number): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const parsed = Number(value);
  return value.trim() !== '' && Number.isFinite(parsed) ? parsed : null;
}

/** Fieldset legends read like the other field labels of a row. */
export const LEGEND_STYLES = { legend: { fontSize: 'var(--mantine-font-size-sm)', fontWeight: 500, padding: 0, marginBottom: 4 } } as const;
