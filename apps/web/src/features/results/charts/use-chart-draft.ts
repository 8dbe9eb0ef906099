import { useState } from 'react';
import type { AppliedFilter } from '@kb/contracts/search';
import type { ChartDraft } from './chart-filters.ts';
import { draftFromApplied } from './chart-filters.ts';

/**
 * The picks of one chart card, starting from the filter the server applied. When the applied
 * filter changes (an Apply, a chip removed, Reset all, a reload) the picks start over from it.
 */
export function useChartDraft(applied: AppliedFilter | null | undefined) {
  const appliedKey = JSON.stringify(applied ?? null);
  const [state, setState] = useState({ appliedKey, draft: draftFromApplied(applied) });
  let current = state;
  if (state.appliedKey !== appliedKey) {
    current = { appliedKey, draft: draftFromApplied(applied) };
    setState(current);
  }
  return {
    draft: current.draft,
    setDraft: (update: (draft: ChartDraft) => ChartDraft) => setState((previous) => ({ ...previous, draft: update(previous.draft) })),
  };
}
