import { RoaringBitmap32 } from './roaring.ts';
import type { KbColumns } from './kb-columns.ts';
import type { ReverseIndex } from './reverse-index.ts';
import { childCount, childrenOf } from './reverse-index.ts';
import { activityCapError } from '../search-plan.ts';
import { fitsIdArray } from '../../../db/id-arrays.ts';
import { MainThreadTurns, inChunks } from '../../../workers/main-thread-turns.ts';

/**
 * The id links of a search's sets over the in-memory columns (bitmap-counts.ts): a set of
 * parents to their children (a structure's activities), of children to their distinct parents
 * (activities to their structures, assays, references), and the development compounds of some
 * structures. Each works on millions of ids at L and gives way to other calls between chunks.
 */

/** A reverse list with the forward column it was built from (child → parent). */
export interface Links {
  index: ReverseIndex;
  forward: Int32Array;
}

/**
 * Every child of some parents (the activities of some structures, of some targets, ...). When the
 * children are many (binding assays hold half the activities) one pass over the forward column
 * finds them already in order, instead of gathering millions of ids list by list.
 */
export async function childrenOfAll({ index, forward }: Links, parents: RoaringBitmap32, turns: MainThreadTurns): Promise<RoaringBitmap32> {
  let total = 0;
  for (const parent of parents) total += childCount(index, parent);
  if (total > forward.length / 16) {
    const wanted = new Uint8Array(index.start.length);
    // Parents as `childrenOf` sees them: one beyond the index has no children.
    for (const parent of parents) if (parent + 1 < wanted.length) wanted[parent] = 1;
    const found = new Int32Array(total);
    let at = 0;
    await inChunks(forward.length, turns, (start, end) => {
      at = childrenWanted(forward, wanted, found, start, end, at);
    });
    return new RoaringBitmap32(found.subarray(0, at));
  }
  const gathered = new Int32Array(total);
  let at = 0;
  for (const parent of parents) {
    const children = childrenOf(index, parent);
    gathered.set(children, at);
    at += children.length;
  }
  return new RoaringBitmap32(gathered);
}

/*
 * The loops over millions of ids below are functions of their own that take every array and count
 * as arguments and answer the count: a loop inside the chunk's closure that increments a variable
 * of the enclosing function writes it to the closure's context on every id, twice as slow
 * (`linked` over 710,000 of 2.15 M activities: 12 ms against 6, docs/benchmarks.md).
 */

/** The children in [start, end) whose parent is `wanted`, appended to `found` from `at` (up to its length); answers the new length. */
function childrenWanted(forward: Int32Array, wanted: Uint8Array, found: Int32Array, start: number, end: number, at: number): number {
  const total = found.length;
  for (let child = start; child < end && at < total; child++) if (wanted[forward[child]!] === 1) found[at++] = child;
  return at;
}

/** Marks `seen[link[p]]` for the positions in [start, end) (a row without a link marks 0). */
function markLinks(link: Int32Array, positions: Uint32Array, seen: Uint8Array, start: number, end: number): void {
  for (let i = start; i < end; i++) seen[link[positions[i]!]!] = 1;
}

/** The marked values in [start, end), appended to `out` from `k`; answers the new length. */
function listMarked(seen: Uint8Array, out: Uint32Array, start: number, end: number, k: number): number {
  for (let value = start; value < end; value++) if (seen[value] === 1) out[k++] = value;
  return k;
}

/**
 * The positions in [start, end) whose structure is flagged, or that have none, appended to `kept`
 * from `n`; answers the new length, or -1 once it would pass `cap`.
 */
function keptInChunk(
  actStr: Int32Array,
  positions: Uint32Array,
  flagged: Uint8Array,
  kept: Uint32Array,
  range: { start: number; end: number; cap: number },
  n: number,
): number {
  const { start, end, cap } = range;
  for (let i = start; i < end; i++) {
    const str = actStr[positions[i]!]!;
    if (str !== 0 && flagged[str] !== 1) continue;
    kept[n++] = positions[i]!;
    if (n > cap) return -1;
  }
  return n;
}

/** A byte per id up to the highest of `ids`: 1 for the ids in it (a test per id without `has`). */
function byteFlags(ids: RoaringBitmap32): Uint8Array {
  const flags = new Uint8Array(ids.size ? ids.maximum() + 1 : 1);
  for (const id of ids.toUint32Array()) flags[id] = 1;
  return flags;
}

/** Sets up to this size are linked through a sort (roaring's); larger ones through a byte per id. */
const SMALL_SET = 65_536;

/** The distinct non-zero values of `link` at `positions`, by roaring's sort (for columns with a stray large id). */
async function sortedValues(link: Int32Array, positions: Uint32Array, turns: MainThreadTurns): Promise<RoaringBitmap32> {
  const values = new Uint32Array(positions.length);
  let n = 0;
  await inChunks(positions.length, turns, (start, end) => {
    for (let i = start; i < end; i++) {
      const value = link[positions[i]!]!;
      if (value > 0) values[n++] = value;
    }
  });
  return new RoaringBitmap32(values.subarray(0, n));
}

/** The highest value of each link column, found once (columns never change once read: a load reads new ones). */
const highest = new WeakMap<Int32Array, number>();

function highestOf(link: Int32Array): number {
  let max = highest.get(link);
  if (max === undefined) {
    max = 0;
    for (let i = 0; i < link.length; i++) if (link[i]! > max) max = link[i]!;
    highest.set(link, max);
  }
  return max;
}

/**
 * Distinct non-zero values of `link` over `ids` (the structures of some activities, their assays,
 * ...). A large set (millions of activities at L) marks each value in a byte per id and lists the
 * marks in order: no iterator, no sort (a 10.6 M-activity set: about 130 ms instead of 500-800),
 * in chunks that give way to other calls (main-thread-turns.ts).
 */
export async function linked(link: Int32Array, ids: RoaringBitmap32, turns = new MainThreadTurns()): Promise<RoaringBitmap32> {
  const positions = ids.toUint32Array();
  if (positions.length <= SMALL_SET) {
    const values = new Uint32Array(positions.length);
    let n = 0;
    for (let i = 0; i < positions.length; i++) {
      const value = link[positions[i]!]!;
      if (value > 0) values[n++] = value;
    }
    return new RoaringBitmap32(values.subarray(0, n));
  }
  // A byte per value up to the column's highest: known once per column, and small unless a link
  // without a foreign key holds a stray large id — then the set's own values are sorted instead.
  const max = highestOf(link);
  if (!fitsIdArray(max, 1)) return sortedValues(link, positions, turns);
  const seen = new Uint8Array(max + 1);
  await inChunks(positions.length, turns, (start, end) => markLinks(link, positions, seen, start, end));
  // 0 is no link: never a value. At most one value per id, and at most `max` values.
  seen[0] = 0;
  const out = new Uint32Array(Math.min(positions.length, max));
  let k = 0;
  await inChunks(max + 1, turns, (start, end) => {
    k = listMarked(seen, out, start, end, k);
  });
  return new RoaringBitmap32(out.subarray(0, k));
}

/** The activities of `matching` whose structure is one of `structures`, or that have none; the cap's error past `cap`. */
export async function keptActivities(
  actStr: Int32Array,
  matching: RoaringBitmap32,
  structures: RoaringBitmap32,
  cap: number,
  turns = new MainThreadTurns(),
): Promise<RoaringBitmap32> {
  // A byte per structure id: `has` on the bitmap for each of millions of activities is the slow part.
  const inStructures = byteFlags(structures);
  const positions = matching.toUint32Array();
  const kept = new Uint32Array(Math.min(positions.length, cap + 1));
  let n = 0;
  await inChunks(positions.length, turns, (start, end) => {
    n = keptInChunk(actStr, positions, inStructures, kept, { start, end, cap }, n);
    if (n < 0) throw activityCapError();
  });
  return new RoaringBitmap32(kept.subarray(0, n));
}

/** Development compounds whose structure is one of `structures`. */
export function clinicalOfStructures(columns: KbColumns, structures: RoaringBitmap32): RoaringBitmap32 {
  // The structures with a development compound first (one native AND), then their compounds: a
  // `has` per development compound took 4 ms a search at L (5 s of a two-server run's profile).
  const out: number[] = [];
  for (const str of RoaringBitmap32.and(structures, columns.clinicalStructures).toUint32Array())
    for (const cc of childrenOf(columns.clinicalByStructure, str)) out.push(cc);
  return new RoaringBitmap32(out);
}
