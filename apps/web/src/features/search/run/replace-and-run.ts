import type { SearchCriteria } from '@kb/contracts/search';
import { rowHasValue } from '../builder/row-criteria.ts';
import { criteriaToDrafts } from '../builder/row-restore.ts';
import { useSearchBuilderStore } from '../builder/search-builder-store.ts';
import { runSearch } from './use-search-runner.ts';

/** The confirmation `useConfirm` gives (app/ui/confirm-dialog.tsx). */
type Confirm = (options: { title: string; detail: string; confirmLabel: string }) => Promise<boolean>;

/**
 * A search started from outside the builder (a collection's page, a predicted target's actives)
 * replaces the builder's rows: when they hold rows the user has not searched or saved, asks first.
 * True when the search may go ahead.
 */
export async function mayReplaceRows(confirm: Confirm, title: string): Promise<boolean> {
  const { rows, dirty } = useSearchBuilderStore.getState();
  if (!dirty || !rows.some(rowHasValue)) return true;
  return confirm({
    title,
    detail: 'The rows in your search builder have not been searched or saved and will be replaced by this search.',
    confirmLabel: 'Replace and search',
  });
}

/** Puts the criteria in the builder and runs them as the search page does (results, history and "Run again" know it). */
export function replaceAndRun(criteria: SearchCriteria, summary: string): ReturnType<typeof runSearch> {
  useSearchBuilderStore.getState().replaceRows(criteriaToDrafts(criteria));
  return runSearch(criteria, summary);
}
