import type { SearchCriteria } from '@kb/contracts/search';
import type { RowDraft } from '../builder/row-drafts.ts';
import { buildCriteria } from '../builder/row-criteria.ts';

/**
 * Whose counts the panel shows: the rows as they are now ("current"), or a search run before the
 * rows were cleared ("cleared") or changed ("changed"). Counts must never pass for the current
 * rows' when they are not: a user would read them as what the new rows match.
 */
export type CountsFreshness = 'current' | 'cleared' | 'changed';

function sameCriteria(a: SearchCriteria | null, b: SearchCriteria): boolean {
  // Both come from buildCriteria, so their keys are in the same order.
  return a !== null && JSON.stringify(a) === JSON.stringify(b);
}

/** Compares the rows now with the criteria of the last run; rows with only empty values do not count as a change. */
export function countsFreshness(rows: readonly RowDraft[], lastRunCriteria: SearchCriteria): CountsFreshness {
  if (rows.length === 0) return 'cleared';
  return sameCriteria(buildCriteria(rows).criteria, lastRunCriteria) ? 'current' : 'changed';
}
