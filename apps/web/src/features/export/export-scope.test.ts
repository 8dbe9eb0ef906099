import { describe, expect, it } from 'vitest';
import type { ResultColumn } from '@kb/contracts/results';
import { EMPTY_SELECTION } from '../results/tab-state.ts';
import {
  defaultExportColumns,
  defaultRowsChoice,
  exportScopeOf,
  exportSourceOf,
  exportTabOf,
  formatForTab,
  jobPollInterval,
  JOB_POLL_MS,
  jobProgressLabel,
  jobStatusText,
  sdfAllowed,
  selectedRowsLabel,
  similarityWindowOf,
  toggleColumn,
} from './export-scope.ts';
import type { SimilaritySort } from '../results/tab-state.ts';

const column = (key: string, order: number, hidden = false): ResultColumn => ({
  key,
  label: key,
  type: 'text',
  order,
  hidden,
  sortable: true,
});
const columns = [
  column('smiles', 2),
  column('str_id', 1),
  column('psa', 3, true),
  column('similarity', 4, true),
  { ...column('innerGrids', 5), type: 'json' as const },
];

describe('export scope', () => {
  it('opens the tab of the route by key or call path, else the structures tab', () => {
    expect(exportTabOf('assaytab')).toBe('assaytab');
    expect(exportTabOf('developmentcompounds')).toBe('developmentcompoundstab');
    expect(exportTabOf('nonsense')).toBe('structuretab');
    expect(exportTabOf(undefined)).toBe('structuretab');
  });

  it('reads the results of a new search by selection only when asked to', () => {
    expect(exportSourceOf('selection')).toBe('selection');
    expect(exportSourceOf(null)).toBe('search');
    expect(exportSourceOf('other')).toBe('search');
  });

  it('starts with the selected rows when the tab has a selection, else the whole tab', () => {
    expect(defaultRowsChoice(EMPTY_SELECTION)).toBe('all');
    expect(defaultRowsChoice({ ...EMPTY_SELECTION, selectedIds: [4] })).toBe('selected');
    expect(defaultRowsChoice({ selectAll: true, selectedIds: [], unselectedIds: [] })).toBe('selected');
  });

  it('sends the selection and the go-to narrowing the grid shows, and no selection for the whole tab', () => {
    const state = {
      selection: { selectAll: false, selectedIds: [1, 2], unselectedIds: [] },
      goto: { strIdList: [7, 8], fromTab: 'structuretab' },
    };
    expect(exportScopeOf('s-1', 'activitiestab', 'selected', state)).toEqual({
      sessionid: 's-1',
      tab: 'activitiestab',
      selection: state.selection,
      strIdList: [7, 8],
    });
    expect(exportScopeOf('s-1', 'activitiestab', 'all', { ...state, goto: null })).toEqual({
      sessionid: 's-1',
      tab: 'activitiestab',
      selection: null,
    });
  });

  it('narrows select all and the whole tab by the similarity window the grid shows', () => {
    const similarity: SimilaritySort = { status: true, category: 'similarity', smiles: 'c1ccccc1', order: 'desc', min: 0.6, max: null };
    const selectAll = { selectAll: true, selectedIds: [], unselectedIds: [3] };
    expect(exportScopeOf('s-1', 'structuretab', 'selected', { selection: selectAll, goto: null, similarity })).toEqual({
      sessionid: 's-1',
      tab: 'structuretab',
      selection: selectAll,
      sortSmiles: 'c1ccccc1',
      minValue: 0.6,
      maxValue: null,
    });
    expect(
      exportScopeOf('s-1', 'activitiestab', 'all', {
        selection: EMPTY_SELECTION,
        goto: { strIdList: [7], fromTab: 'structuretab' },
        similarity: { ...similarity, min: null, max: 0.9 },
      }),
    ).toEqual({
      sessionid: 's-1',
      tab: 'activitiestab',
      selection: null,
      strIdList: [7],
      sortSmiles: 'c1ccccc1',
      minValue: null,
      maxValue: 0.9,
    });
  });

  it('sends no similarity window when the sort is off or has no limits', () => {
    const similarity: SimilaritySort = { status: true, category: 'similarity', smiles: 'CCO', order: 'desc', min: null, max: null };
    expect(similarityWindowOf({ similarity })).toBeNull();
    expect(similarityWindowOf({ similarity: { ...similarity, status: false, min: 0.5, max: 0.8 } })).toBeNull();
    expect(similarityWindowOf({ similarity: null })).toBeNull();
    expect(similarityWindowOf({})).toBeNull();
    expect(similarityWindowOf({ similarity: { ...similarity, min: 0, max: 1 } })).toEqual({ sortSmiles: 'CCO', minValue: 0, maxValue: 1 });
    expect(exportScopeOf('s-1', 'structuretab', 'all', { selection: EMPTY_SELECTION, goto: null, similarity })).toEqual({
      sessionid: 's-1',
      tab: 'structuretab',
      selection: null,
    });
  });

  it('counts a select-all selection against the row count when it is known', () => {
    expect(selectedRowsLabel({ selectAll: false, selectedIds: [1, 2, 3], unselectedIds: [] }, 100)).toBe('Selected rows (3)');
    expect(selectedRowsLabel({ selectAll: true, selectedIds: [], unselectedIds: [5] }, 1200)).toBe('Selected rows (1,199)');
    expect(selectedRowsLabel({ selectAll: true, selectedIds: [], unselectedIds: [5] }, null)).toBe('Selected rows (all but 1)');
  });
});

describe('export columns', () => {
  it('ticks the columns the grid shows, with the user’s choices, in the tab’s order and never the similarity column', () => {
    expect(defaultExportColumns(columns, undefined)).toEqual(['str_id', 'smiles']);
    expect(defaultExportColumns(columns, { psa: true, smiles: false, similarity: true })).toEqual(['str_id', 'psa']);
  });

  it('keeps the tab’s column order whatever order the columns were ticked in', () => {
    expect(toggleColumn(columns, ['smiles'], 'str_id', true)).toEqual(['str_id', 'smiles']);
    expect(toggleColumn(columns, ['str_id', 'smiles'], 'str_id', false)).toEqual(['smiles']);
    expect(toggleColumn(columns, ['str_id'], 'gone', true)).toEqual(['str_id']);
  });
});

describe('export formats', () => {
  it('offers SDF only for the tabs whose rows are structures', () => {
    expect(sdfAllowed('structuretab')).toBe(true);
    expect(sdfAllowed('activitiestab')).toBe(true);
    expect(sdfAllowed('developmentcompoundstab')).toBe(true);
    expect(sdfAllowed('assaytab')).toBe(false);
    expect(sdfAllowed('documentstab')).toBe(false);
  });

  it('switches SDF away on a tab without structures and keeps any other format', () => {
    expect(formatForTab('sdf', 'assaytab')).toBe('csv');
    expect(formatForTab('sdf', 'documentstab')).toBe('csv');
    expect(formatForTab('sdf', 'structuretab')).toBe('sdf');
    expect(formatForTab('xlsx', 'documentstab')).toBe('xlsx');
  });
});

describe('export job progress', () => {
  it('polls while the last answer has an active job, and stops when the query failed', () => {
    const running = { status: 'running' as const };
    const done = { status: 'done' as const };
    const isActive = (job: { status: string }) => job.status === 'running';
    expect(jobPollInterval({ status: 'success', data: running }, isActive)).toBe(JOB_POLL_MS);
    expect(jobPollInterval({ status: 'success', data: done }, isActive)).toBe(false);
    expect(jobPollInterval({ status: 'pending', data: undefined }, isActive)).toBe(false);
    // A failed refetch keeps the last data, which still says running: polling must stop anyway.
    expect(jobPollInterval({ status: 'error', data: running }, isActive)).toBe(false);
  });

  it('names the status a screen reader hears, with why a job failed', () => {
    expect(jobStatusText({ status: 'queued', error: null })).toBe('Queued');
    expect(jobStatusText({ status: 'running', error: null })).toBe('Running');
    expect(jobStatusText({ status: 'done', error: null })).toBe('Ready');
    expect(jobStatusText({ status: 'failed', error: 'The disk is full.' })).toBe('Failed: The disk is full.');
  });

  it('says the job waits before its first row, then rows written of rows', () => {
    expect(jobProgressLabel({ status: 'queued', rows: 200_000, rowsWritten: 0, progress: 0 })).toBe('Waiting to start…');
    expect(jobProgressLabel({ status: 'running', rows: 200_000, rowsWritten: 12_000, progress: 6.4 })).toBe('12,000 of 200,000 rows (6%)');
    expect(jobProgressLabel({ status: 'running', rows: 10, rowsWritten: 10, progress: 140 })).toBe('10 of 10 rows (100%)');
  });
});
