import { beforeEach, describe, expect, it } from 'vitest';
import type { DraftOf } from './row-drafts.ts';
import { useSearchBuilderStore } from './search-builder-store.ts';

const store = () => useSearchBuilderStore.getState();
const operators = () => store().rows.map((row) => row.operator);

describe('search builder store', () => {
  beforeEach(() => store().reset());

  it('gives the row before a newly added last row the default AND again', () => {
    store().addRow('structure');
    store().replaceRows(store().rows.map((row) => ({ ...row, operator: null })));
    store().addRow('target');
    expect(operators()).toEqual(['AND', 'AND']);
    store().setOperator(store().rows[0]!.key, 'NOT');
    store().addRow('treeview', 'Indication');
    expect(operators()).toEqual(['NOT', 'AND', 'AND']);
    expect(store().rows[2]).toMatchObject({ selectedOption: 'treeview', tree: 'Indication' });
  });

  it('moves rows within bounds and puts a removed row back where it was', () => {
    const a = store().addRow('structure');
    const b = store().addRow('target');
    const c = store().addRow('company');
    store().moveRow(a, -1);
    store().moveRow(c, -1);
    expect(store().rows.map((row) => row.key)).toEqual([a, c, b]);
    const removed = store().removeRow(c);
    expect(store().rows.map((row) => row.key)).toEqual([a, b]);
    store().restoreRow(removed!.draft, removed!.index);
    expect(store().rows.map((row) => row.key)).toEqual([a, c, b]);
  });

  it('marks edits as unsaved until a search, a save or a load', () => {
    const key = store().addRow('clinicalphase');
    expect(store().dirty).toBe(true);
    store().markClean();
    store().updateRow(key, (row) => ({ ...(row as DraftOf<'clinicalphase'>), phases: ['Launched'] }));
    expect(store().dirty).toBe(true);
    store().finishRun({
      sessionId: 's',
      criteria: { rows: [] },
      summary: '',
      counts: { structures: 1, compounds: 1, activities: 1, assays: 1, references: 1, clinicalCompounds: 1 },
      ranAt: '',
    });
    expect(store().dirty).toBe(false);
  });

  it('zeroes the counts when a search fails and keeps them when a count answers no data (spec §4, §8)', () => {
    const counts = { structures: 5, compounds: 6, activities: 7, assays: 8, references: 9, clinicalCompounds: 1 };
    store().finishRun({ sessionId: 's', criteria: { rows: [] }, summary: '', counts, ranAt: '' });
    store().startRun();
    store().keepCounts();
    expect(store().counts).toEqual(counts);
    expect(store().status).toBe('idle');
    store().startRun();
    store().failRun('Data restriction');
    expect(store().counts).toEqual({ structures: 0, compounds: 0, activities: 0, assays: 0, references: 0, clinicalCompounds: 0 });
    expect(store()).toMatchObject({ status: 'failed', error: 'Data restriction' });
  });
});
