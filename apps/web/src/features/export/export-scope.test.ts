import { describe, expect, it } from 'vitest';
import type { ResultColumn } from '@kb/contracts/results';
import { EMPTY_SELECTION } from '../results/tab-state.ts';
import {
  defaultExportColumns,
  defaultRowsChoice,
  exportScopeOf,
  exportSourceOf,
  exportTabOf,
  jobProgressLabel,
  selectedRowsLabel,
  toggleColumn,
} from './export-scope.ts';

const column = (key: string, order: number, hidden = false): ResultColumn => ({ key, label: key, type: 'text', order, hidden, sortable: true });
const columns = [column('smiles', 2), column('str_id', 1), column('psa', 3, true), column('similarity', 4, true)];

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
    const state = { selection: { selectAll: false, selectedIds: [1, 2], unselectedIds: [] }, goto: { strIdList: [7, 8], fromTab: 'structuretab' } };
    expect(exportScopeOf('s-1', 'activitiestab', 'selected', state)).toEqual({ sessionid: 's-1', tab: 'activitiestab', selection: state.selection, strIdList: [7, 8] });
    expect(exportScopeOf('s-1', 'activitiestab', 'all', { ...state, goto: null })).toEqual({ sessionid: 's-1', tab: 'activitiestab', selection: null });
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

describe('export job progress', () => {
  it('says the job waits before its first row, then rows written of rows', () => {
    expect(jobProgressLabel({ status: 'queued', rows: 200_000, rowsWritten: 0, progress: 0 })).toBe('Waiting to start…');
    expect(jobProgressLabel({ status: 'running', rows: 200_000, rowsWritten: 12_000, progress: 6.4 })).toBe('12,000 of 200,000 rows (6%)');
    expect(jobProgressLabel({ status: 'running', rows: 10, rowsWritten: 10, progress: 140 })).toBe('10 of 10 rows (100%)');
  });
});
