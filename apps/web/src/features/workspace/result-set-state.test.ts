import { describe, expect, it } from 'vitest';
import type { ResultsSession } from '@kb/contracts/results';
import { SearchCriteriaSchema } from '@kb/contracts/search';
import { ResultSetStateSchema } from '@kb/contracts/workspace';
import { INITIAL_TAB_STATE } from '../results/tab-state.ts';
import type { ResultsPageSnapshot } from './result-set-state.ts';
import { buildResultSetState, changeNotice, readSavedView, restoredTabStates } from './result-set-state.ts';

const CRITERIA = SearchCriteriaSchema.parse({
  rows: [{ selectedOption: 'target', operator: null, targets: [{ ids: [42], label: 'EGFR' }] }],
});
const COUNTS = { stridscount: 120, actidscount: 900, assayidscount: 40, refidscount: 12, clinicalcompoundidscount: 2, gvkidscount: 110 };

function session(overrides: Partial<ResultsSession> = {}): ResultsSession {
  return {
    sessionid: '2f1c7a52-9a41-4c1e-8d0a-3b5f6e7d8c9a',
    kind: 'search',
    status: 'done',
    summary: 'Target: EGFR',
    createdAt: '2026-11-28T10:00:00Z',
    counts: COUNTS,
    searchcriteria: CRITERIA,
    filters: { activitiestab: [{ chartKey: 'year', minValue: 2010, maxValue: 2015 }] },
    tabCounts: { structuretab: 120, activitiestab: 300 },
    strIdNewlyAddedStatus: false,
    structureQuery: { similarity: false, highlight: null },
    ...overrides,
  } as ResultsSession;
}

function page(overrides: Partial<ResultsPageSnapshot> = {}): ResultsPageSnapshot {
  return {
    scope: 'search',
    tab: 'activitiestab',
    session: session(),
    tabs: {
      activitiestab: {
        ...INITIAL_TAB_STATE,
        pageNumber: 3,
        pageSize: 50,
        sortOrder: { column: 'pchembl', direction: 'desc' },
        selection: { selectAll: false, selectedIds: [7, 8], unselectedIds: [] },
        goto: { strIdList: [1], fromTab: 'structuretab' },
      },
    },
    columnChoices: { activitiestab: { year: false } },
    density: 'comfortable',
    charts: ['year', 'assaytype'],
    ...overrides,
  };
}

describe('saving a results page', () => {
  it('keeps the search, its filters with their tab, the counts and the view', () => {
    const built = buildResultSetState(page());
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(built.droppedSelection).toBe(false);
    const { state } = built;
    expect(ResultSetStateSchema.parse(state)).toEqual(state);
    expect(state).toMatchObject({
      scope: 'search',
      tab: 'activitiestab',
      criteria: CRITERIA,
      summary: 'Target: EGFR',
      filters: [{ chartKey: 'year', minValue: 2010, maxValue: 2015, tab: 'activitiestab' }],
      counts: COUNTS,
      filteredCounts: { structuretab: 120, activitiestab: 300 },
    });
    expect(state.view).toEqual({
      tabs: {
        activitiestab: {
          pageSize: 50,
          sortOrder: { column: 'pchembl', direction: 'desc' },
          similarity: null,
          selection: { selectAll: false, selectedIds: [7, 8], unselectedIds: [] },
        },
      },
      columns: { activitiestab: { year: false } },
      density: 'comfortable',
      charts: ['year', 'assaytype'],
    });
  });

  it('refuses a session that does not say what was searched', () => {
    expect(buildResultSetState(page({ session: session({ searchcriteria: null }) })).ok).toBe(false);
  });

  it('leaves out a selection too large to keep, and says so', () => {
    const many = Array.from({ length: 60_000 }, (_, i) => i + 1);
    const built = buildResultSetState(
      page({ tabs: { structuretab: { ...INITIAL_TAB_STATE, selection: { selectAll: false, selectedIds: many, unselectedIds: [] } } } }),
    );
    expect(built.ok && built.droppedSelection).toBe(true);
    if (built.ok) expect(readSavedView(built.state.view).tabs.structuretab?.selection.selectedIds).toEqual([]);
  });
});

describe('restoring a saved view', () => {
  it('reads back what was saved, each tab from its first page and without a "go to"', () => {
    const built = buildResultSetState(page());
    if (!built.ok) throw new Error(built.message);
    const view = readSavedView(built.state.view);
    expect(view.density).toBe('comfortable');
    expect(view.columns).toEqual({ activitiestab: { year: false } });
    const tabs = restoredTabStates(view);
    expect(tabs.activitiestab).toEqual({
      ...INITIAL_TAB_STATE,
      pageSize: 50,
      sortOrder: { column: 'pchembl', direction: 'desc' },
      selection: { selectAll: false, selectedIds: [7, 8], unselectedIds: [] },
    });
  });

  it('takes the defaults for what an older or damaged view lacks', () => {
    const view = readSavedView({ tabs: { structuretab: { pageSize: 'big', selection: 3 }, nonsense: {} }, density: 'huge' });
    expect(view.density).toBe('compact');
    expect(view.charts).toEqual([]);
    expect(restoredTabStates(view).structuretab).toEqual(INITIAL_TAB_STATE);
    expect(readSavedView({})).toEqual({ tabs: {}, columns: {}, density: 'compact', charts: [] });
  });
});

describe('the change notice', () => {
  const saved = { tab: 'activitiestab' as const, counts: COUNTS, filteredCounts: { activitiestab: 300 } };
  const same = { saved: 'v1', current: 'v1' };

  it('is silent when nothing changed', () => {
    expect(changeNotice(saved, { counts: COUNTS, filteredCounts: { activitiestab: 300 } }, same)).toBeNull();
  });

  it('gives the open tab’s rows then and now', () => {
    expect(changeNotice(saved, { counts: COUNTS, filteredCounts: { activitiestab: 1_310 } }, same)).toBe(
      'The knowledge base has changed since this set was saved: 300 rows of Activities then, 1,310 now.',
    );
  });

  it('falls back to the structures found', () => {
    expect(changeNotice({ ...saved, filteredCounts: {} }, { counts: { ...COUNTS, stridscount: 125 }, filteredCounts: {} }, same)).toBe(
      'The knowledge base has changed since this set was saved: 120 structures then, 125 now.',
    );
  });

  it('says when data were loaded since although the counts held', () => {
    expect(changeNotice(saved, { counts: COUNTS, filteredCounts: { activitiestab: 300 } }, { saved: 'v1', current: 'v2' })).toBe(
      'The knowledge base has changed since this set was saved (data were loaded since); the counts held: 300 rows of Activities then, 300 now.',
    );
  });
});
