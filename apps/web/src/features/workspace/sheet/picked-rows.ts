import { sessionStore } from '../../../app/stores/memory-storage.ts';
import { newSearchSessionId } from '../../../app/session-id.ts';
import type { PickedRows } from './sheet-source.ts';
import { PickedRowsSchema } from './sheet-source.ts';

/**
 * The ticked rows a sheet opens with, kept in this tab's session storage under a short token (the
 * address carries the token, not thousands of ids). Session storage ends with the tab, and the
 * log-out clears it: nothing of one user's selection outlives their session.
 */
const PREFIX = 'kb-sheet-pick:';

/** Keeps the rows and answers the token the sheet's address names. */
export function keepPickedRows(rows: PickedRows): string {
  const token = newSearchSessionId().slice(0, 8);
  sessionStore().setItem(PREFIX + token, JSON.stringify(rows));
  return token;
}

export function readPickedRows(token: string): PickedRows | null {
  const text = sessionStore().getItem(PREFIX + token);
  if (!text) return null;
  try {
    const parsed = PickedRowsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
