import { describe, expect, it } from 'vitest';
import { RoaringBitmap32 } from './bitmaps/roaring.ts';
import { reverseIndex } from './bitmaps/reverse-index.ts';
import type { KbColumns } from './bitmaps/kb-columns.ts';
import type { BitmapSearchResult } from './bitmaps/bitmap-counts.ts';
import { SetsMadeOnRead } from './bitmaps/sets-made-on-read.ts';
import type { DerivedKind } from './bitmaps/sets-made-on-read.ts';
import { SessionSetStore, heldActivityCounts, heldActivityLinks, heldPageIds } from './session-sets.ts';
import type { HeldSets } from './session-sets.ts';

/** Six activities (ids 10, 20, … by position) of structures 1–3, on assays 7 and 8. */
function columnsOf(): KbColumns {
  const actStr = Int32Array.from([1, 1, 2, 3, 3, 3]);
  const actAssay = Int32Array.from([7, 8, 7, 8, 8, 0]);
  return {
    actIds: Int32Array.from([10, 20, 30, 40, 50, 60]),
    actStr,
    actGvk: Int32Array.from([100, 100, 200, 300, 300, 300]),
    actAssay,
    actRef: Int32Array.from([5, 5, 0, 6, 6, 6]),
    actTarget: Int32Array.from([9, 9, 9, 0, 9, 9]),
    byStructure: reverseIndex(actStr),
    byAssay: reverseIndex(actAssay),
    byRef: reverseIndex(Int32Array.from([5, 5, 0, 6, 6, 6])),
  } as unknown as KbColumns;
}

function heldOf(setId: number, activities: number[], version = 'v1', hash = 'h'): HeldSets {
  const bitmap = (values: number[]) => new RoaringBitmap32(values);
  const sets: BitmapSearchResult = {
    counts: {} as BitmapSearchResult['counts'],
    structures: bitmap([1, 2, 3]),
    activities: bitmap(activities),
    compounds: bitmap([]),
    assays: bitmap([7, 8]),
    references: bitmap([5, 6]),
    clinical: bitmap([]),
  };
  return { setId, criteriaHash: hash, version, sets, columns: columnsOf(), scores: null };
}

describe('sets held in memory', () => {
  it('answers a set only for the same answer version and criteria', () => {
    const store = new SessionSetStore();
    const held = heldOf(1, [0, 1, 2]);
    store.hold(held);
    expect(store.get(1, 'h', 'v1')).toBe(held);
    expect(store.get(1, 'h', 'v2')).toBeNull();
    expect(store.get(1, 'other', 'v1')).toBeNull();
    expect(store.get(1, 'h', null)).toBeNull();
    store.hold(heldOf(1, [0], 'v2'));
    expect(store.get(1, 'h', 'v1'), 'a new answer replaces the old').toBeNull();
  });

  it('lets sets computed on superseded columns go once their grace has passed, and only those', () => {
    const store = new SessionSetStore();
    const old = heldOf(1, [0, 1]);
    const current = heldOf(2, [2, 3]);
    (old.columns as { version: string }).version = 'columns before the load';
    (current.columns as { version: string }).version = 'columns now';
    store.hold(old);
    store.hold(current);
    const minute = 60_000;
    expect(store.retireOlder('columns now', 0, 30 * minute), 'first noticed: kept').toBe(0);
    expect(store.retireOlder('columns now', 29 * minute, 30 * minute), 'within the grace').toBe(0);
    expect(store.get(1, 'h', 'v1')).toBe(old);
    expect(store.retireOlder('columns now', 30 * minute, 30 * minute)).toBe(1);
    expect(store.get(1, 'h', 'v1')).toBeNull();
    expect(store.get(2, 'h', 'v1')).toBe(current);
    expect(store.size).toBe(1);
  });

  it('evicts the least recently used beyond its budget, never the one just held', () => {
    const one = heldOf(1, [0, 1, 2, 3, 4, 5]);
    const bytes = [
      one.sets.structures,
      one.sets.activities,
      one.sets.compounds,
      one.sets.assays,
      one.sets.references,
      one.sets.clinical,
    ].reduce((sum, b) => sum + b.getSerializationSizeInBytes(false), 0);
    const store = new SessionSetStore(bytes * 2);
    store.hold(one);
    store.hold(heldOf(2, [0, 1, 2, 3, 4, 5]));
    expect(store.get(1, 'h', 'v1'), 'used: now the most recent').not.toBeNull();
    store.hold(heldOf(3, [0, 1, 2, 3, 4, 5]));
    expect(store.size).toBe(2);
    expect(store.get(2, 'h', 'v1')).toBeNull();
    expect(store.get(1, 'h', 'v1')).not.toBeNull();
    expect(store.get(3, 'h', 'v1')).not.toBeNull();
  });

  it('pages a set in key order both ways, activities as their ids', () => {
    const held = heldOf(1, [0, 2, 3, 5]);
    expect(heldPageIds(held, 'activities', 0, 3, 'asc')).toEqual([10, 30, 40]);
    expect(heldPageIds(held, 'activities', 1, 3, 'asc')).toEqual([60]);
    expect(heldPageIds(held, 'activities', 0, 3, 'desc')).toEqual([60, 40, 30]);
    expect(heldPageIds(held, 'activities', 1, 3, 'desc')).toEqual([10]);
    expect(heldPageIds(held, 'activities', 2, 3, 'asc')).toEqual([]);
    expect(heldPageIds(held, 'structures', 0, 2, 'desc')).toEqual([3, 2]);
  });

  it('gives an activity its links and counts only the set activities of a structure, assay or reference', () => {
    const held = heldOf(1, [0, 2, 3, 5]);
    expect(heldActivityLinks(held, [30, 60, 999])).toEqual({
      str: [2, 3, 0],
      gvk: [200, 300, 0],
      assay: [7, 0, 0],
      ref: [0, 6, 0],
      target: [9, 9, 0],
    });
    expect(heldActivityCounts(held, 'structure', [1, 2, 3, 4])).toEqual([1, 1, 2, 0]);
    expect(heldActivityCounts(held, 'assay', [7, 8])).toEqual([2, 1]);
    expect(heldActivityCounts(held, 'reference', [5, 6])).toEqual([1, 2]);
  });

  it('makes the activity rows once and counts them in its memory', () => {
    const store = new SessionSetStore();
    store.hold(heldOf(1, [1, 4]));
    const before = store.heldBytes;
    const rows = store.activityRows(1, 'h', 'v1')!;
    expect(Array.from(rows.act)).toEqual([20, 50]);
    expect(Array.from(rows.str)).toEqual([1, 3]);
    expect(store.activityRows(1, 'h', 'v1')).toBe(rows);
    expect(store.heldBytes).toBe(before + 2 * 20);
  });

  describe("a recompute's sets, all but the activities made on first need", () => {
    const counts = { stridscount: 3, actidscount: 3, gvkidscount: 2, assayidscount: 2, refidscount: 1, clinicalcompoundidscount: 0 };
    const made = { structures: [1, 2, 3], clinical: [], compounds: [100, 200], assays: [7, 8], references: [5] };
    /** A recomputed answer whose other sets are made from `sets` (each asked for recorded in `asked`). */
    const recomputed = (setId: number, sets: Record<DerivedKind, number[]>, asked: DerivedKind[]) => {
      const maker = (kind: DerivedKind) => {
        asked.push(kind);
        return Promise.resolve(new RoaringBitmap32(sets[kind]));
      };
      return { ...heldOf(setId, [0, 1, 2]), sets: new SetsMadeOnRead(new RoaringBitmap32([0, 1, 2]), maker, counts) };
    };

    it('hands a maker the sets it is made from, made before it, and no other', async () => {
      const read: string[] = [];
      const maker = (kind: DerivedKind, source: (from: DerivedKind) => RoaringBitmap32) => {
        if (kind === 'references') read.push(`references from ${source('compounds').toArray().join(',')}`);
        if (kind === 'assays') source('structures');
        return Promise.resolve(new RoaringBitmap32(made[kind]));
      };
      const sets = new SetsMadeOnRead(new RoaringBitmap32([0, 1, 2]), maker, counts);
      await sets.make(['references']);
      expect(read).toEqual(['references from 100,200']);
      await expect(sets.make(['assays']), 'assays are made from the activities only').rejects.toThrow(/MADE_FROM names it not/);
    });

    it('makes only the sets a reader needs (and those they are made from), once, and counts their bytes then', async () => {
      const store = new SessionSetStore();
      const asked: DerivedKind[] = [];
      const held = recomputed(1, made, asked);
      store.hold(held);
      const before = store.heldBytes;
      expect(() => held.sets.structures, 'read before made').toThrow(/before they were made/);
      expect(await store.make(held, ['activities'])).toBe(true);
      expect(asked, 'an Activities page makes none').toEqual([]);
      expect(store.heldBytes).toBe(before);
      expect(await store.make(held, ['assays'])).toBe(true);
      expect(await store.make(held, ['activities', 'assays'])).toBe(true);
      expect(asked).toEqual(['assays']);
      expect(held.sets.assays.toArray()).toEqual([7, 8]);
      const withAssays = store.heldBytes;
      expect(withAssays).toBeGreaterThan(before);
      expect(await store.make(held, ['references'])).toBe(true);
      expect(asked, 'references after the compound records and structures they link from').toEqual([
        'assays',
        'structures',
        'compounds',
        'references',
      ]);
      expect(held.sets.structures.toArray()).toEqual([1, 2, 3]);
      expect(held.sets.references.toArray()).toEqual([5]);
      expect(store.heldBytes).toBeGreaterThan(withAssays);
      expect(await store.make(held, 'all')).toBe(true);
      expect(asked.slice(4)).toEqual(['clinical']);
      // Two readers at once count a set once.
      const second = recomputed(2, made, []);
      store.hold(second);
      const alone = store.heldBytes;
      await Promise.all([store.make(second, ['assays']), store.make(second, ['assays'])]);
      expect(store.heldBytes - alone).toBe(withAssays - before);
    });

    it("lets sets go whose made set differs from the stored count: they are not the session's answer", async () => {
      const store = new SessionSetStore();
      const held = recomputed(1, { ...made, assays: [7, 8, 9] }, []);
      store.hold(held);
      expect(await store.make(held, ['structures'])).toBe(true);
      expect(await store.make(held, ['assays'])).toBe(false);
      expect(store.get(1, 'h', 'v1')).toBeNull();
      expect(store.heldBytes).toBe(0);
    });
  });
});
