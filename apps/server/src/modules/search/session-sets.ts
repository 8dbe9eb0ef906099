import type { BitmapSearchResult } from './bitmaps/bitmap-counts.ts';
import { DERIVED_KINDS, SetsMadeOnRead } from './bitmaps/sets-made-on-read.ts';
import type { DerivedKind } from './bitmaps/sets-made-on-read.ts';
import { childrenOf } from './bitmaps/reverse-index.ts';
import type { ReverseIndex } from './bitmaps/reverse-index.ts';
import type { KbColumns } from './bitmaps/kb-columns.ts';
import { activityRowsOver, withActivityCounts } from './bitmaps/activity-rows.ts';
import type { WrittenActivityRows } from './bitmaps/activity-rows.ts';
import type { StructureScores } from './structure-query.ts';

/**
 * A search session's six sets as the bitmap engine computed them, held in this server's memory
 * instead of being written to the set tables (issue 62; docs/results.md "Sets held in memory").
 * `version` is the run's answer (search_sessions.sets_version): an entry answers only a session
 * whose row names the same version and criteria, so a session re-run elsewhere is never answered
 * from old sets.
 */
export interface HeldSets {
  setId: number;
  criteriaHash: string;
  version: string;
  sets: BitmapSearchResult;
  /** The columns the sets were computed on: activity positions are theirs. */
  columns: KbColumns;
  /** The similarity rows' best score per structure (null: the search has none). */
  scores: StructureScores | null;
}

/** Memory the held sets may take in all, by default: about 300 sessions' sets at the 750,000-activity cap, 30 with their activity rows made. */
const SESSION_SETS_BUDGET = 512 * 1024 * 1024;

interface Entry {
  held: HeldSets;
  /** All it takes: `setsBytes` and the derived values'. */
  bytes: number;
  /** The sets' and scores' bytes (grown as a recompute's linked sets are made: `make`). */
  setsBytes: number;
  /** When these sets were first seen computed on columns older than the knowledge base's (`retireOlder`). */
  staleSince?: number;
  /** Values made from the sets on first use (activity links, a tab's order by score), counted in `bytes` then. */
  derived: Map<string, { value: unknown; bytes: number }>;
}

/** Bytes of the activity rows made from a held set: five int32 links an activity. */
const ROW_BYTES = 20;

/**
 * Held sets per set id, least recently used first out when over the budget (an evicted session
 * is recomputed from its definition when next read, or read from the set tables once written).
 */
export class SessionSetStore {
  /** A Map keeps insertion order: a hit is moved to the end, eviction takes from the front. */
  private readonly entries = new Map<number, Entry>();
  private bytes = 0;

  constructor(private readonly budget = SESSION_SETS_BUDGET) {}

  /** The sets of this set id for this run's answer, or null. */
  get(setId: number, criteriaHash: string | null, version: string | null): HeldSets | null {
    const entry = this.touch(setId, criteriaHash, version);
    return entry?.held ?? null;
  }

  /** Holds a run's sets (replacing any earlier answer of the same set id). */
  hold(held: HeldSets): void {
    this.forget(held.setId);
    const setsBytes = setBytes(held.sets) + scoreBytes(held.scores);
    const entry: Entry = { held, bytes: setsBytes, setsBytes, derived: new Map() };
    this.entries.set(held.setId, entry);
    this.bytes += entry.bytes;
    this.evict(held.setId);
  }

  /**
   * Makes the sets a reader needs of recomputed ones (sets-made-on-read.ts: every set but the
   * activities is made on first need), counting them in the budget. Sets a
   * run computed are whole already. False when a made set differs from the session's stored count:
   * these sets are then not its answer, and are let go.
   */
  async make(held: HeldSets, need: SetsNeed): Promise<boolean> {
    const kinds = derivedKindsOf(need);
    if (!(held.sets instanceof SetsMadeOnRead) || kinds.every((kind) => (held.sets as SetsMadeOnRead).isMade(kind))) return true;
    const entry = this.entries.get(held.setId);
    const made = await held.sets.make(kinds).then(
      () => true,
      () => false,
    );
    if (!entry || entry.held !== held || this.entries.get(held.setId) !== entry) return made;
    if (!made) {
      this.forget(held.setId);
      return false;
    }
    // Measured again, not added: two readers making the same set at once count it once.
    const setsBytes = setBytes(held.sets) + scoreBytes(held.scores);
    entry.bytes += setsBytes - entry.setsBytes;
    this.bytes += setsBytes - entry.setsBytes;
    entry.setsBytes = setsBytes;
    this.evict(held.setId);
    return true;
  }

  /**
   * The held set's activities with their structure, assay, reference and target (as the set
   * tables' rows would give them), made once per entry; null when the set is not held.
   */
  activityRows(setId: number, criteriaHash: string | null, version: string | null): WrittenActivityRows | null {
    const entry = this.touch(setId, criteriaHash, version);
    if (!entry) return null;
    return this.derived(entry.held, 'activity rows', () => {
      const rows = activityRowsOver(entry.held.columns, entry.held.sets.activities.toUint32Array());
      return { value: rows, bytes: rows.count * ROW_BYTES };
    });
  }

  /**
   * A value made once from held sets and kept with them, its bytes counted in the budget; made
   * afresh each time (not kept) when these sets are no longer held.
   */
  derived<T>(held: HeldSets, key: string, make: () => { value: T; bytes: number }): T {
    const entry = this.entries.get(held.setId);
    if (!entry || entry.held !== held) return make().value;
    const found = entry.derived.get(key);
    if (found) return found.value as T;
    const { value, bytes } = make();
    entry.derived.set(key, { value, bytes });
    entry.bytes += bytes;
    this.bytes += bytes;
    this.evict(held.setId);
    return value;
  }

  /** Forgets a derived value (one whose making failed: made again next time). */
  forgetDerived(held: HeldSets, key: string): void {
    const entry = this.entries.get(held.setId);
    const found = entry?.held === held ? entry.derived.get(key) : undefined;
    if (!entry || !found) return;
    entry.derived.delete(key);
    entry.bytes -= found.bytes;
    this.bytes -= found.bytes;
  }

  /**
   * Sets computed on columns older than the knowledge base's current ones (`current`: their
   * version) keep those columns in memory — about 1.9 GB at L — so that a load ending does not
   * change a session's answer under its user. They are kept `graceMs` after this first notices
   * them, then forgotten: the older columns go with the last of them, and such a session, read
   * later, is run again on the knowledge base as it is (as an evicted one is). Answers how many went.
   */
  retireOlder(current: string, now: number, graceMs: number): number {
    let retired = 0;
    for (const [setId, entry] of this.entries) {
      if (entry.held.columns.version === current) continue;
      entry.staleSince ??= now;
      if (now - entry.staleSince < graceMs) continue;
      this.forget(setId);
      retired++;
    }
    return retired;
  }

  forget(setId: number): void {
    const entry = this.entries.get(setId);
    if (!entry) return;
    this.entries.delete(setId);
    this.bytes -= entry.bytes;
  }

  /** Bytes held (the bench and tests report it). */
  get heldBytes(): number {
    return this.bytes;
  }

  get size(): number {
    return this.entries.size;
  }

  private touch(setId: number, criteriaHash: string | null, version: string | null): Entry | null {
    const entry = this.entries.get(setId);
    if (!entry || version === null || entry.held.version !== version || entry.held.criteriaHash !== criteriaHash) return null;
    this.entries.delete(setId);
    this.entries.set(setId, entry);
    return entry;
  }

  private evict(keep: number): void {
    for (const [setId, entry] of this.entries) {
      if (this.bytes <= this.budget) return;
      if (setId === keep) continue;
      this.entries.delete(setId);
      this.bytes -= entry.bytes;
    }
  }
}

function scoreBytes(scores: StructureScores | null): number {
  return scores ? scores.strIds.byteLength + scores.scores.byteLength : 0;
}

/** Serialized size of the six bitmaps (those made, of a recompute's): what they take in memory, within a few per cent. */
function setBytes(sets: BitmapSearchResult): number {
  const made = (kind: DerivedKind) => (sets instanceof SetsMadeOnRead && !sets.isMade(kind) ? [] : [sets[kind]]);
  return [sets.activities, ...DERIVED_KINDS.flatMap(made)].reduce((sum, bitmap) => sum + bitmap.getSerializationSizeInBytes(false), 0);
}

/**
 * What a reader of held sets needs made (`SessionSetStore.make`): every set (the default, and
 * what writing them out, filters and SQL over whole sets read), or those of some tabs.
 */
export type SetsNeed = 'all' | readonly HeldKind[];

function derivedKindsOf(need: SetsNeed): DerivedKind[] {
  if (need === 'all') return [...DERIVED_KINDS];
  return need.filter((kind): kind is Exclude<HeldKind, 'activities'> => kind !== 'activities');
}

// ------------------------------------------------------------------ reading held sets (results/memory-pages.ts)

/** The six sets by what their ids are. */
export type HeldKind = 'structures' | 'activities' | 'assays' | 'references' | 'clinical';

/** Rows of one set. */
export function heldRowCount(held: HeldSets, kind: HeldKind): number {
  return held.sets[kind].size;
}

/**
 * The ids of one page of a set in key order (ascending or descending), as the set tables' primary
 * key gives them. Activities are held by position, in ascending act_id, so their order is the ids'.
 */
export function heldPageIds(held: HeldSets, kind: HeldKind, pageNumber: number, pageSize: number, direction: 'asc' | 'desc'): number[] {
  const bitmap = held.sets[kind];
  const total = bitmap.size;
  const skip = pageNumber * pageSize;
  if (skip >= total) return [];
  const count = Math.min(pageSize, total - skip);
  const offset = direction === 'asc' ? skip : total - skip - count;
  const values = Array.from(bitmap.rangeUint32Array(new Uint32Array(count), offset, count));
  if (direction === 'desc') values.reverse();
  return kind === 'activities' ? values.map((position) => held.columns.actIds[position]!) : values;
}

/** The index of `value` in an ascending array, or -1. */
export function indexOfSorted(values: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] === value) return mid;
    if (values[mid]! < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The position of an activity id in the held columns (ascending act_id), or -1. */
function positionOf(held: HeldSets, actId: number): number {
  return indexOfSorted(held.columns.actIds, actId);
}

/** Every id of one set, ascending (activities by act_id). */
export function heldIds(held: HeldSets, kind: HeldKind): Int32Array {
  if (kind !== 'activities') return Int32Array.from(held.sets[kind].toUint32Array());
  const actIds = held.columns.actIds;
  return Int32Array.from(held.sets.activities.toUint32Array(), (position) => actIds[position]!);
}

/** Every assay or reference of the set with its number of the set's activities (as the set tables hold them). */
export function heldIdsWithActivityCounts(held: HeldSets, kind: 'assays' | 'references'): [Int32Array, Int32Array] {
  const link = kind === 'assays' ? held.columns.actAssay : held.columns.actRef;
  return withActivityCounts(held.sets[kind], link, held.sets.activities.toUint32Array());
}

/** Whether a row of a set (an activity by its id) is in it. */
export function heldHas(held: HeldSets, kind: HeldKind, id: number): boolean {
  if (!Number.isSafeInteger(id) || id < 0 || id > 0xffffffff) return false;
  if (kind !== 'activities') return held.sets[kind].has(id);
  const position = positionOf(held, id);
  return position >= 0 && held.sets.activities.has(position);
}

/** Each activity's structure, compound record, assay, reference and target (0: none, the tables' NULL). */
export function heldActivityLinks(held: HeldSets, actIds: readonly number[]) {
  const { columns } = held;
  const positions = actIds.map((actId) => positionOf(held, actId));
  const link = (array: Int32Array) => positions.map((position) => (position < 0 ? 0 : array[position]!));
  return {
    str: link(columns.actStr),
    gvk: link(columns.actGvk),
    assay: link(columns.actAssay),
    ref: link(columns.actRef),
    target: link(columns.actTarget),
  };
}

/** What an activity count is per: a structure, an assay or a reference (their activities in the columns). */
export type ActivityParent = 'structure' | 'assay' | 'reference';

function parentIndex(held: HeldSets, parent: ActivityParent): ReverseIndex {
  const { columns } = held;
  return parent === 'structure' ? columns.byStructure : parent === 'assay' ? columns.byAssay : columns.byRef;
}

/** The held set's activity positions among `children`, ascending. */
function inSet(held: HeldSets, children: Int32Array): number[] {
  const found: number[] = [];
  for (const position of children) if (held.sets.activities.has(position)) found.push(position);
  return found;
}

/** Each parent's number of the set's activities ("Activities (this search)"). */
export function heldActivityCounts(held: HeldSets, parent: ActivityParent, ids: readonly number[]): number[] {
  const index = parentIndex(held, parent);
  return ids.map((id) => inSet(held, childrenOf(index, id)).length);
}

/** The first `limit` act_ids of each assay in the held set, ascending (an assay row's inner grid). */
export function heldAssayActivities(held: HeldSets, assayIds: readonly number[], limit: number): Map<number, number[]> {
  return new Map(
    assayIds.map((assayId) => [
      assayId,
      inSet(held, childrenOf(held.columns.byAssay, assayId))
        .slice(0, limit)
        .map((position) => held.columns.actIds[position]!),
    ]),
  );
}

/**
 * The held activities' types (lower-cased, as the search columns hold them; null: none) with, per
 * type, its activities — or, `perStructure`, its structures (each once) — and the rows in all: the
 * `activitytype` chart's groups, as its SQL counts them over the set tables.
 */
export function heldActivityTypeGroups(held: HeldSets, perStructure: boolean): { groups: Map<string | null, number>; rows: number } {
  const { type, types } = held.columns.fields;
  const positions = held.sets.activities.toUint32Array();
  const counts = new Map<number, number>();
  if (!perStructure) {
    for (const position of positions) counts.set(type[position]!, (counts.get(type[position]!) ?? 0) + 1);
    return { groups: namedCounts(counts, types.names), rows: positions.length };
  }
  // Distinct (type, structure) pairs; activities without a structure are no Structures row.
  const structuresOf = new Map<number, Set<number>>();
  const structures = new Set<number>();
  for (const position of positions) {
    const strId = held.columns.actStr[position]!;
    if (strId === 0) continue;
    structures.add(strId);
    const code = type[position]!;
    let set = structuresOf.get(code);
    if (!set) structuresOf.set(code, (set = new Set()));
    set.add(strId);
  }
  for (const [code, set] of structuresOf) counts.set(code, set.size);
  return { groups: namedCounts(counts, types.names), rows: structures.size };
}

function namedCounts(counts: ReadonlyMap<number, number>, names: readonly (string | null)[]): Map<string | null, number> {
  return new Map([...counts].map(([code, n]) => [names[code] ?? null, n]));
}

// ------------------------------------------------------------------ similarity scores of held sets

/**
 * The score of a structure of the set (NaN: none, the tables' NULL), float4 as stored. Every
 * caller passes a structure of the set — one of its structures, or the structure of one of its
 * activities or development compounds, which the set's structures hold by construction
 * (bitmap-counts.ts) — so the structure set itself is not read: a recompute need not make it.
 */
function structureScore(held: HeldSets, strId: number): number {
  const { scores } = held;
  if (!scores || strId <= 0) return Number.NaN;
  const at = indexOfSorted(scores.strIds, strId);
  if (at >= 0) return scores.scores[at]!;
  return Number.NaN;
}

/** Each assay's or reference's best score over the set's activities (search-run.ts `copySimilarities`). */
function bestOfActivities(held: HeldSets, link: Int32Array): Map<number, number> {
  const best = new Map<number, number>();
  for (const position of held.sets.activities) {
    const parent = link[position]!;
    const score = structureScore(held, held.columns.actStr[position]!);
    if (parent === 0 || Number.isNaN(score)) continue;
    const before = best.get(parent);
    if (before === undefined || score > before) best.set(parent, score);
  }
  return best;
}

/**
 * The similarity column of some rows of a set, as the set tables hold it after `copySimilarities`:
 * a structure's own score, an activity's and a development compound's their structure's, an
 * assay's and a reference's the best of their activities in the set. Null where there is none.
 */
export function heldScores(held: HeldSets, kind: HeldKind, ids: readonly number[]): (number | null)[] {
  const { columns } = held;
  const orNull = (score: number) => (Number.isNaN(score) ? null : score);
  if (!held.scores) return ids.map(() => null);
  switch (kind) {
    case 'structures':
      return ids.map((strId) => orNull(structureScore(held, strId)));
    case 'activities':
      return ids.map((actId) => {
        const position = positionOf(held, actId);
        return position < 0 ? null : orNull(structureScore(held, columns.actStr[position]!));
      });
    case 'clinical':
      return ids.map((id) => orNull(structureScore(held, id < columns.clinicalStr.length ? columns.clinicalStr[id]! : 0)));
    case 'assays':
    case 'references': {
      const index = kind === 'assays' ? columns.byAssay : columns.byRef;
      return ids.map((id) => {
        let best = Number.NaN;
        for (const position of inSet(held, childrenOf(index, id))) {
          const score = structureScore(held, columns.actStr[position]!);
          // `score <= NaN` is false: the first score found is taken.
          if (!Number.isNaN(score) && !(score <= best)) best = score;
        }
        return orNull(best);
      });
    }
  }
}

/**
 * A set's rows in the order of its similarity column: `scored` by score then id, ascending, and
 * `unscored` by id — as `ORDER BY similarity <dir> NULLS LAST, id <dir>` reads them (descending:
 * both lists from their ends; rows without a score last either way).
 */
export interface ScoreOrder {
  scored: Float64Array;
  unscored: Float64Array;
}

/** The set's ids in ascending id order with their scores (NaN: none). */
function idsWithScores(held: HeldSets, kind: HeldKind): { ids: Float64Array; scores: Float32Array } {
  const { columns } = held;
  if (kind === 'activities') {
    const positions = held.sets.activities.toUint32Array();
    const ids = Float64Array.from(positions, (position) => columns.actIds[position]!);
    return { ids, scores: Float32Array.from(positions, (position) => structureScore(held, columns.actStr[position]!)) };
  }
  const ids = Float64Array.from(held.sets[kind].toUint32Array());
  if (kind === 'structures') return { ids, scores: Float32Array.from(ids, (strId) => structureScore(held, strId)) };
  if (kind === 'clinical') {
    const strOf = (id: number) => (id < columns.clinicalStr.length ? columns.clinicalStr[id]! : 0);
    return { ids, scores: Float32Array.from(ids, (id) => structureScore(held, strOf(id))) };
  }
  const best = bestOfActivities(held, kind === 'assays' ? columns.actAssay : columns.actRef);
  return { ids, scores: Float32Array.from(ids, (id) => best.get(id) ?? Number.NaN) };
}

/** The set's rows in similarity order (made once per held answer and tab through `derived`). */
export function scoreOrder(held: HeldSets, kind: HeldKind): { value: ScoreOrder; bytes: number } {
  const { ids, scores } = idsWithScores(held, kind);
  const scoredAt: number[] = [];
  const unscored: number[] = [];
  for (let i = 0; i < ids.length; i++) (Number.isNaN(scores[i]!) ? unscored : scoredAt).push(i);
  // Ids ascend already: a stable sort by score keeps equal scores in id order.
  scoredAt.sort((a, b) => scores[a]! - scores[b]! || a - b);
  const value = { scored: Float64Array.from(scoredAt, (i) => ids[i]!), unscored: Float64Array.from(unscored, (i) => ids[i]!) };
  return { value, bytes: ids.length * 8 };
}

/** A similarity order kept to some of its ids (`within`, ascending): a filtered tab's. */
export function scoreOrderWithin(order: ScoreOrder, within: ArrayLike<number>): { value: ScoreOrder; bytes: number } {
  const keep = (ids: Float64Array) => ids.filter((id) => indexOfSorted(within, id) >= 0);
  return { value: { scored: keep(order.scored), unscored: keep(order.unscored) }, bytes: within.length * 8 };
}

/** One page of ids in similarity order (`scoreOrder`), descending or ascending. */
export function scoredPageIds(order: ScoreOrder, pageNumber: number, pageSize: number, direction: 'asc' | 'desc'): number[] {
  const { scored, unscored } = order;
  const total = scored.length + unscored.length;
  const page: number[] = [];
  for (let i = pageNumber * pageSize; i < Math.min(total, (pageNumber + 1) * pageSize); i++) {
    if (direction === 'asc') page.push(i < scored.length ? scored[i]! : unscored[i - scored.length]!);
    else page.push(i < scored.length ? scored[scored.length - 1 - i]! : unscored[unscored.length - 1 - (i - scored.length)]!);
  }
  return page;
}
