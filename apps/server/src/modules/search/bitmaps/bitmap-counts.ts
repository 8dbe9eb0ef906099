import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import { RoaringBitmap32 } from './roaring.ts';
import type { SearchCounts } from '@kb/contracts/search';
import type { Database } from '../../../db/schema.ts';
import type { Expr } from '../expression.ts';
import { canHold, hasNot } from '../expression.ts';
import { ACTIVITY_FROM } from '../row-compiler.ts';
import { activityCapError } from '../search-plan.ts';
import type { CompiledRow } from '../row-compiler.ts';
import type { KbColumns } from './kb-columns.ts';
import type { ReverseIndex } from './reverse-index.ts';
import { childCount, childrenOf } from './reverse-index.ts';
import { positionsOf, readPacked } from '../../../db/column-read.ts';
import { evaluateSets, rowIndexes } from './set-algebra.ts';
import { flagsOf, matchActivityFields, scan } from './activity-fields.ts';
import { matchProperties } from './structure-properties.ts';
import { fitsIdArray } from '../../../db/id-arrays.ts';
import { MainThreadTurns, inChunks } from '../../../workers/main-thread-turns.ts';
import { SetsMadeOnRead } from './sets-made-on-read.ts';
import type { LinkedKind } from './sets-made-on-read.ts';

/**
 * The six counts of a search from id sets in memory (issue 18), by the rules of
 * docs/search-semantics.md exactly as `materialiseSets` applies them in SQL — nothing is written.
 * Each row's ids are read once (its SQL predicate, as compiled for the SQL path), every
 * combination is bitmap algebra, and the derived sets (compound records, assays, references,
 * development compounds) follow the id links of `KbColumns`.
 */

type Db = Kysely<Database>;

/** The ids one row holds for, per level; null where the row says nothing at that level. */
export interface RowSets {
  /** Activities the row's activity predicate holds for. */
  activities: RoaringBitmap32 | null;
  /** Structures the row matches directly. */
  direct: RoaringBitmap32 | null;
  /** Development compounds the row's clinical predicate holds for. */
  clinical: RoaringBitmap32 | null;
  /**
   * The row at the other level, made when a search first needs it (`rowLevel`) and kept with the
   * row's sets, whose cache counts it once made (bitmap-index.ts): a structure row's activities,
   * an activity row's structures. At L a property or mechanism row's millions of ids took tens of
   * milliseconds to link again on every search combining it (a NOT search, a property row beside
   * an activity row), on the server that ran it and on one recomputing it.
   */
  levels?: Partial<Record<'activities' | 'structures', RowLevel>>;
  /** Told when a level is made (the index's cache counts its bytes then). */
  onLevelMade?: () => void;
}

/** A row's set at another level: the promise shared by every search asking meanwhile, the set once made. */
interface RowLevel {
  made: Promise<RoaringBitmap32>;
  value?: RoaringBitmap32;
}

/** The row's set at `level`, made once (`make`) and kept on its sets; a failure is not kept. */
function rowLevel(row: RowSets, level: 'activities' | 'structures', make: () => Promise<RoaringBitmap32>): Promise<RoaringBitmap32> {
  const levels = (row.levels ??= {});
  const kept = levels[level];
  if (kept) return kept.made;
  const made: RowLevel = { made: make() };
  levels[level] = made;
  made.made.then(
    (value) => {
      made.value = value;
      row.onLevelMade?.();
    },
    () => {
      if (levels[level] === made) delete levels[level];
    },
  );
  return made.made;
}

/** Where a row's sets come from: the index's cache in front of the database (bitmap-index.ts). */
export type RowSetSource = (db: Db, columns: KbColumns, row: CompiledRow) => Promise<RowSets>;

/** The ids a query selects, packed by PostgreSQL (a property or assay-type row may select hundreds of thousands). */
async function ids(db: Db, query: RawBuilder<unknown>): Promise<RoaringBitmap32> {
  const [values] = await readPacked(db, sql`FROM (${query}) AS x(id) WHERE x.id IS NOT NULL`, [{ kind: 'int', expr: sql`x.id` }]);
  return new RoaringBitmap32(values as Int32Array);
}

/**
 * The queries that read a row's sets, in the order of `RowSets` (null: nothing to read). A linked
 * row reads its few targets, documents or assays (or the activity ids themselves).
 */
export function rowSetQueries(
  row: CompiledRow,
  propertiesInMemory = true,
): [RawBuilder<unknown> | null, RawBuilder<unknown> | null, RawBuilder<unknown> | null] {
  // A row on the activity's own fields, or on assay types, is evaluated in memory: nothing to read at the activity level.
  const activities =
    row.fields || row.assayTypes
      ? null
      : row.link
        ? row.link.ids
        : row.activity
          ? sql`SELECT a.act_id FROM ${ACTIVITY_FROM} WHERE ${row.activity}`
          : null;
  // Engine hits are in memory (`readRowSets`): only the row's other parts are read.
  const direct = row.engine
    ? row.properties && propertiesInMemory
      ? row.engine.lists
      : row.engine.others
    : row.properties && propertiesInMemory
      ? row.properties.others
      : row.direct;
  return [
    activities,
    // Property bounds tested in memory: only the row's other parts are read.
    direct,
    row.clinical ? sql`SELECT cc.clinical_compound_id FROM clinical_compounds cc WHERE ${row.clinical}` : null,
  ];
}

/** The activities of the ids a linked row read (targets, documents, assays, or activities). */
function linkedActivities(
  columns: KbColumns,
  link: NonNullable<CompiledRow['link']>,
  ids: RoaringBitmap32,
  turns: MainThreadTurns,
): Promise<RoaringBitmap32> | RoaringBitmap32 {
  if (link.column === 'act_id') return new RoaringBitmap32(positionsOf(columns.actIds, ids));
  const links: Links =
    link.column === 'target_id'
      ? { index: columns.byTarget, forward: columns.actTarget }
      : link.column === 'ref_id'
        ? { index: columns.byRef, forward: columns.actRef }
        : { index: columns.byAssay, forward: columns.actAssay };
  return childrenOfAll(links, ids, turns);
}

/** Reads a row's sets from the database. */
export async function readRowSets(db: Db, columns: KbColumns, row: CompiledRow): Promise<RowSets> {
  const turns = new MainThreadTurns();
  // Property rows in SQL until the property columns are read (moments after the other columns):
  // then `directRead` is the whole row's SQL, else its parts other than the bounds.
  const properties = row.properties ? columns.properties.loaded : null;
  if (row.properties && !properties) columns.properties.readSoon();
  const [read, directRead, clinical] = await Promise.all(rowSetQueries(row, !!properties).map((query) => (query ? ids(db, query) : null)));
  const inRange = properties ? matchProperties(properties, row.properties!.bounds) : null;
  const hits = row.engine ? new RoaringBitmap32(Uint32Array.from(row.engine.hits)) : null;
  const parts = [hits, inRange, directRead].filter((part): part is RoaringBitmap32 => part != null);
  const direct = parts.length ? parts.reduce((all, part) => RoaringBitmap32.and(all, part)) : null;
  const activities = row.fields
    ? matchActivityFields(columns.fields, row.fields)
    : row.assayTypes
      ? await childrenOfAll({ index: columns.byAssay, forward: columns.actAssay }, assaysOfTypes(columns, row.assayTypes), turns)
      : read && row.link
        ? await linkedActivities(columns, row.link, read, turns)
        : read && new RoaringBitmap32(positionsOf(columns.actIds, read));
  // Direct matches are judged over the structures table (`s.str_id IN (...)`).
  return {
    activities: activities ?? null,
    direct: direct ? RoaringBitmap32.and(direct, columns.allStructures) : null,
    clinical: clinical ?? null,
  };
}

/** The assays of some types (as `sa.assay_type = ANY(types)`: exact, NULL never matching); the column is indexed by assay id. */
function assaysOfTypes(columns: KbColumns, types: readonly string[]): RoaringBitmap32 {
  return scan(columns.assayType, flagsOf(columns.assayTypes, types));
}

/** A reverse list with the forward column it was built from (child → parent). */
interface Links {
  index: ReverseIndex;
  forward: Int32Array;
}

/**
 * Every child of some parents (the activities of some structures, of some targets, ...). When the
 * children are many (binding assays hold half the activities) one pass over the forward column
 * finds them already in order, instead of gathering millions of ids list by list.
 */
async function childrenOfAll({ index, forward }: Links, parents: RoaringBitmap32, turns: MainThreadTurns): Promise<RoaringBitmap32> {
  let total = 0;
  for (const parent of parents) total += childCount(index, parent);
  if (total > forward.length / 16) {
    const wanted = new Uint8Array(index.start.length);
    // Parents as `childrenOf` sees them: one beyond the index has no children.
    for (const parent of parents) if (parent + 1 < wanted.length) wanted[parent] = 1;
    const found = new Int32Array(total);
    let at = 0;
    await inChunks(forward.length, turns, (start, end) => {
      for (let child = start; child < end && at < total; child++) if (wanted[forward[child]!] === 1) found[at++] = child;
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
  let distinct = 0;
  await inChunks(positions.length, turns, (start, end) => {
    for (let i = start; i < end; i++) {
      const value = link[positions[i]!]!;
      if (value > 0 && seen[value] === 0) {
        seen[value] = 1;
        distinct++;
      }
    }
  });
  const out = new Uint32Array(distinct);
  let k = 0;
  await inChunks(max + 1, turns, (start, end) => {
    for (let value = Math.max(1, start); value < end; value++) if (seen[value] === 1) out[k++] = value;
  });
  return new RoaringBitmap32(out);
}

/** Whether the direct-level expression can hold at all (as `levels.direct !== false` in materialise.ts). */
function directPossible(expr: Expr, rows: readonly CompiledRow[]): boolean {
  return canHold(expr, (i) => !!rows[i]!.direct);
}

/** A search's six sets in memory (materialise.ts `writeSetsFromBitmaps` writes them as the session's sets). */
export interface BitmapSearchResult {
  counts: SearchCounts;
  /** Structure ids. */
  structures: RoaringBitmap32;
  /** Activity positions (`columns.actIds` turns them into act_ids). */
  activities: RoaringBitmap32;
  /** Compound record, assay, reference and development compound ids. */
  compounds: RoaringBitmap32;
  assays: RoaringBitmap32;
  references: RoaringBitmap32;
  clinical: RoaringBitmap32;
}

/**
 * Each row of `expr`'s bitmap at one level, made one after the other (each may take tens of
 * milliseconds at L, and the thread gives way between them), as the sync leaf `evaluateSets` reads.
 */
async function leavesOf(
  expr: Expr,
  make: (index: number) => Promise<RoaringBitmap32> | RoaringBitmap32,
  turns: MainThreadTurns,
): Promise<(index: number) => RoaringBitmap32> {
  const leaves = new Map<number, RoaringBitmap32>();
  for (const index of rowIndexes(expr)) {
    leaves.set(index, await make(index));
    await turns.pause();
  }
  return (index) => leaves.get(index)!;
}

/** The leaves of a compiled search over the columns, and the activities and direct structures its expression keeps. */
async function evaluateLevels(
  db: Db,
  columns: KbColumns,
  compiled: { expr: Expr; rows: CompiledRow[] },
  source: RowSetSource,
  turns: MainThreadTurns,
) {
  const { expr, rows } = compiled;
  const sets: RowSets[] = [];
  for (const row of rows) sets.push(await source(db, columns, row));
  const empty = new RoaringBitmap32();
  // Levels (docs/search-semantics.md "How rows combine"): a structure row on an activity means
  // "the activity's structure matches"; on a structure, an activity row means "has a matching activity".
  const activityLeaf = await leavesOf(
    expr,
    (i) =>
      sets[i]!.activities ??
      (sets[i]!.direct
        ? rowLevel(sets[i]!, 'activities', () =>
            childrenOfAll({ index: columns.byStructure, forward: columns.actStr }, sets[i]!.direct!, turns),
          )
        : empty),
    turns,
  );
  const matching = evaluateSets(expr, activityLeaf, columns.allActivities);
  await turns.pause();
  const direct = evaluateSets(expr, (i) => sets[i]!.direct ?? empty, columns.allStructures);
  await turns.pause();
  // The structure and development compound levels: only a search with NOT, or with development compound rows, judges on them.
  const structureLeaf = (i: number) =>
    rowLevel(sets[i]!, 'structures', async () => {
      // Kept with the row for later searches: its own bitmap, never this search's `empty`.
      const own = sets[i]!.activities ? await linked(columns.actStr, sets[i]!.activities!, turns) : new RoaringBitmap32();
      return sets[i]!.direct ? RoaringBitmap32.or(own, sets[i]!.direct!) : own;
    });
  const structureLeaves = () => leavesOf(expr, structureLeaf, turns);
  const clinicalLeaves = () =>
    leavesOf(expr, async (i) => sets[i]!.clinical ?? clinicalOfStructures(columns, await structureLeaf(i)), turns);
  return { structureLeaves, clinicalLeaves, matching, direct };
}

/** The structures of a search with NOT: judged on the structure level, with a matching activity or a direct match. */
async function judgedStructures(
  columns: KbColumns,
  expr: Expr,
  levels: Awaited<ReturnType<typeof evaluateLevels>>,
  turns: MainThreadTurns,
): Promise<RoaringBitmap32> {
  const judged = evaluateSets(expr, await levels.structureLeaves(), columns.allStructures);
  return RoaringBitmap32.and(judged, RoaringBitmap32.or(await linked(columns.actStr, levels.matching, turns), levels.direct));
}

/**
 * Only the structures of a compiled search (no activity cap, no other sets): the candidates of a
 * last structure row (SearchService.structuresOf).
 */
export async function bitmapStructures(
  db: Db,
  columns: KbColumns,
  compiled: { expr: Expr; rows: CompiledRow[] },
  source: RowSetSource = readRowSets,
): Promise<RoaringBitmap32> {
  const turns = new MainThreadTurns();
  const levels = await evaluateLevels(db, columns, compiled, source, turns);
  if (hasNot(compiled.expr)) return judgedStructures(columns, compiled.expr, levels, turns);
  return RoaringBitmap32.or(await linked(columns.actStr, levels.matching, turns), levels.direct);
}

/** Counts a compiled search from the in-memory columns; throws the activity-cap error as the SQL path does. */
export async function bitmapSearch(
  db: Db,
  columns: KbColumns,
  compiled: { expr: Expr; rows: CompiledRow[] },
  cap: number,
  source: RowSetSource = readRowSets,
): Promise<BitmapSearchResult> {
  const core = await coreSets(db, columns, compiled, cap, source);
  const { structures, activities, clinical } = core;
  const link = linkedSets(columns, compiled, core);
  const [compounds, assays, references] = [await link('compounds'), await link('assays'), await link('references')];
  return {
    counts: {
      stridscount: structures.size,
      actidscount: activities.size,
      gvkidscount: compounds.size,
      assayidscount: assays.size,
      refidscount: references.size,
      clinicalcompoundidscount: clinical.size,
    },
    structures,
    activities,
    compounds,
    assays,
    references,
    clinical,
  };
}

/** A search's structures, activities and development compounds, with what its linked sets are made from. */
interface CoreSets {
  structures: RoaringBitmap32;
  activities: RoaringBitmap32;
  clinical: RoaringBitmap32;
  /** The structures of the activities (a structure matched without one brings all of its compound records). */
  activityStructures: RoaringBitmap32;
}

async function coreSets(
  db: Db,
  columns: KbColumns,
  compiled: { expr: Expr; rows: CompiledRow[] },
  cap: number,
  source: RowSetSource,
): Promise<CoreSets> {
  const { expr, rows } = compiled;
  // Tens of milliseconds a step at L: the thread gives way between them (main-thread-turns.ts).
  const turns = new MainThreadTurns();
  const levels = await evaluateLevels(db, columns, compiled, source, turns);
  const { matching, direct } = levels;
  let structures: RoaringBitmap32;
  let activities: RoaringBitmap32;
  let activityStructures: RoaringBitmap32;
  if (!hasNot(expr)) {
    activities = matching;
    if (activities.size > cap) throw activityCapError();
    activityStructures = await linked(columns.actStr, activities, turns);
    structures = RoaringBitmap32.or(activityStructures, direct);
  } else {
    structures = await judgedStructures(columns, expr, levels, turns);
    // An activity without a structure is kept when the expression holds for it (docs: "Activities without a structure").
    activities = await keptActivities(columns.actStr, matching, structures, cap, turns);
    activityStructures = await linked(columns.actStr, activities, turns);
  }
  const hasClinicalRows = rows.some((r) => r.clinical);
  const clinicalJudged = hasClinicalRows ? evaluateSets(expr, await levels.clinicalLeaves(), columns.allClinical) : columns.allClinical;
  const clinical = RoaringBitmap32.and(clinicalJudged, clinicalOfStructures(columns, structures));
  return { structures, activities, clinical, activityStructures };
}

/**
 * A maker of the linked sets of a search (each made once, references after the compound records
 * they also link from): about three quarters of a count's set algebra at L is this linking.
 */
function linkedSets(
  columns: KbColumns,
  { expr, rows }: { expr: Expr; rows: CompiledRow[] },
  { structures, activities, activityStructures }: CoreSets,
): (kind: LinkedKind) => Promise<RoaringBitmap32> {
  const turns = new MainThreadTurns();
  const hasActivityRows = rows.some((r) => r.activity);
  const makeCompounds = async () => {
    const compounds = hasActivityRows ? await linked(columns.actGvk, activities, turns) : new RoaringBitmap32();
    if (!hasActivityRows || directPossible(expr, rows)) {
      // A structure matched without any result activity brings all of its compound records.
      const withoutActivity = hasActivityRows ? RoaringBitmap32.andNot(structures, activityStructures) : structures;
      compounds.orInPlace(await childrenOfAll({ index: columns.compoundsByStructure, forward: columns.gvkStr }, withoutActivity, turns));
    }
    return compounds;
  };
  const made = new Map<LinkedKind, Promise<RoaringBitmap32>>();
  const make = (kind: LinkedKind): Promise<RoaringBitmap32> => {
    let found = made.get(kind);
    if (!found) {
      found =
        kind === 'compounds'
          ? makeCompounds()
          : kind === 'assays'
            ? linked(columns.actAssay, activities, turns)
            : (async () =>
                RoaringBitmap32.or(
                  await linked(columns.actRef, activities, turns),
                  await linked(columns.gvkRef, await make('compounds'), turns),
                ))();
      made.set(kind, found);
    }
    return found;
  };
  return make;
}

/**
 * A compiled search's sets with the linked ones (compound records, assays, references) made only
 * when first asked for (`make`): a server recomputing a session another one ran
 * (SearchService `recompute`) pays for the sets its reader needs — a Structures or Activities page
 * none of them. Their counts are the stored ones until then; each made set is checked against it.
 */
export async function bitmapSearchOnRead(
  db: Db,
  columns: KbColumns,
  compiled: { expr: Expr; rows: CompiledRow[] },
  cap: number,
  stored: SearchCounts,
  source: RowSetSource = readRowSets,
): Promise<SetsMadeOnRead> {
  const core = await coreSets(db, columns, compiled, cap, source);
  return new SetsMadeOnRead(core, linkedSets(columns, compiled, core), stored);
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
    for (let i = start; i < end; i++) {
      const str = actStr[positions[i]!]!;
      if (str !== 0 && inStructures[str] !== 1) continue;
      kept[n++] = positions[i]!;
      if (n > cap) throw activityCapError();
    }
  });
  return new RoaringBitmap32(kept.subarray(0, n));
}

/** Development compounds whose structure is one of `structures`. */
function clinicalOfStructures(columns: KbColumns, structures: RoaringBitmap32): RoaringBitmap32 {
  // The structures with a development compound first (one native AND), then their compounds: a
  // `has` per development compound took 4 ms a search at L (5 s of a two-server run's profile).
  const out: number[] = [];
  for (const str of RoaringBitmap32.and(structures, columns.clinicalStructures).toUint32Array())
    for (const cc of childrenOf(columns.clinicalByStructure, str)) out.push(cc);
  return new RoaringBitmap32(out);
}
