import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import { RoaringBitmap32 } from './roaring.ts';
import type { SearchCounts } from '@kb/contracts/search';
import type { Database } from '../../../db/schema.ts';
import type { Expr } from '../expression.ts';
import { ACTIVITY_FROM } from '../row-compiler.ts';
import { activityCapError } from '../search-plan.ts';
import type { CompiledRow, RowsPlan } from '../row-compiler.ts';
import type { KbColumns } from './kb-columns.ts';
import { positionsOf, readPacked } from '../../../db/column-read.ts';
import { flagsOf, matchActivityFields, scan } from './activity-fields.ts';
import { matchProperties } from './structure-properties.ts';
import { MainThreadTurns } from '../../../workers/main-thread-turns.ts';
import { childrenOfAll, clinicalOfStructures, keptActivities, linked } from './id-links.ts';
import type { Links } from './id-links.ts';
import { DERIVED_KINDS, SetsMadeOnRead, sourcesOf } from './sets-made-on-read.ts';
import type { DerivedKind, SetMaker } from './sets-made-on-read.ts';

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

// ---------------------------------------------------------------- the expression over id sets

/*
 * A search expression over id sets instead of SQL predicates: a row is the set of ids it holds for,
 * AND is intersection, OR union, and NOT the complement within `universe` (every id of that
 * level). Exact against the SQL rendering (expression.ts): there an unknown (NULL) row value only
 * meets AND / OR, which are monotone, and NOT is coalesced to false first, so reading "unknown" as
 * "not in the set" gives the same rows. Kept in this file with the levels that use it, so that a
 * search's run goes through its set algebra in one place.
 */

/**
 * The ids `expr` holds for. `leaf` may return the same bitmap for several calls (a cache): results
 * are always new bitmaps, leaves are never changed.
 */
export function evaluateSets(expr: Expr, leaf: (index: number) => RoaringBitmap32, universe: RoaringBitmap32): RoaringBitmap32 {
  switch (expr.kind) {
    case 'const':
      return expr.value ? universe.clone() : new RoaringBitmap32();
    case 'row':
      return leaf(expr.index).clone();
    case 'not':
      return RoaringBitmap32.andNot(universe, evaluateLeafOrSet(expr.inner, leaf, universe));
    case 'and':
      return RoaringBitmap32.and(evaluateLeafOrSet(expr.left, leaf, universe), evaluateLeafOrSet(expr.right, leaf, universe));
    case 'or':
      return RoaringBitmap32.or(evaluateLeafOrSet(expr.left, leaf, universe), evaluateLeafOrSet(expr.right, leaf, universe));
  }
}

/** A row's own bitmap (not copied: the binary operations above make new ones), else the evaluated node. */
function evaluateLeafOrSet(expr: Expr, leaf: (index: number) => RoaringBitmap32, universe: RoaringBitmap32): RoaringBitmap32 {
  return expr.kind === 'row' ? leaf(expr.index) : evaluateSets(expr, leaf, universe);
}

/** The rows `expr` reads, each once, in the order it names them. */
function rowIndexes(expr: Expr): number[] {
  switch (expr.kind) {
    case 'const':
      return [];
    case 'row':
      return [expr.index];
    case 'not':
      return rowIndexes(expr.inner);
    case 'and':
    case 'or':
      return [...new Set([...rowIndexes(expr.left), ...rowIndexes(expr.right)])];
  }
}

/**
 * Whether the expression can hold at all when the rows `possible` says no to never hold there (the
 * SQL path folds such rows to FALSE the same way, materialise.ts): the bitmap engine skips a level
 * the SQL path would not render, e.g. direct structure matches of a search whose every path needs an activity.
 */
export function canHold(expr: Expr, possible: (index: number) => boolean): boolean {
  return fold(expr, possible) !== false;
}

/** A node folded to a constant, or 'open' when it depends on the rows' values. */
function fold(expr: Expr, possible: (index: number) => boolean): boolean | 'open' {
  switch (expr.kind) {
    case 'const':
      return expr.value;
    case 'row':
      return possible(expr.index) ? 'open' : false;
    case 'not': {
      const inner = fold(expr.inner, possible);
      return inner === 'open' ? 'open' : !inner;
    }
    case 'and':
    case 'or': {
      const left = fold(expr.left, possible);
      const right = fold(expr.right, possible);
      const isAnd = expr.kind === 'and';
      if (typeof left === 'boolean') return left === isAnd ? right : left;
      if (typeof right === 'boolean') return right === isAnd ? left : right;
      return 'open';
    }
  }
}

/** Whether the direct-level expression can hold at all (as `levels.direct !== false` in materialise.ts). */
function directPossible(expr: Expr, rows: readonly CompiledRow[]): boolean {
  return canHold(expr, (i) => !!rows[i]!.direct);
}

// ---------------------------------------------------------------- a search's sets

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
async function evaluateLevels(db: Db, columns: KbColumns, compiled: RowsPlan, source: RowSetSource, turns: MainThreadTurns) {
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
 * last structure row (SearchRunner.structuresOf).
 */
export async function bitmapStructures(
  db: Db,
  columns: KbColumns,
  compiled: RowsPlan,
  source: RowSetSource = readRowSets,
): Promise<RoaringBitmap32> {
  const turns = new MainThreadTurns();
  const levels = await evaluateLevels(db, columns, compiled, source, turns);
  if (compiled.negated) return judgedStructures(columns, compiled.expr, levels, turns);
  return RoaringBitmap32.or(await linked(columns.actStr, levels.matching, turns), levels.direct);
}

/** Counts a compiled search from the in-memory columns; throws the activity-cap error as the SQL path does. */
export async function bitmapSearch(
  db: Db,
  columns: KbColumns,
  compiled: RowsPlan,
  cap: number,
  source: RowSetSource = readRowSets,
): Promise<BitmapSearchResult> {
  const { activities, make } = await searchSets(db, columns, compiled, cap, source);
  const derived: Partial<Record<DerivedKind, RoaringBitmap32>> = {};
  // One after the other, in DERIVED_KINDS' order (each may take tens of milliseconds at L).
  for (const kind of DERIVED_KINDS) derived[kind] = await make(kind, sourcesOf(kind, derived));
  const { structures, clinical, compounds, assays, references } = derived as Record<DerivedKind, RoaringBitmap32>;
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

/** A search's activities (what its activity cap is judged on), and the maker of its other sets. */
interface SearchSets {
  activities: RoaringBitmap32;
  make: SetMaker;
}

async function searchSets(db: Db, columns: KbColumns, compiled: RowsPlan, cap: number, source: RowSetSource): Promise<SearchSets> {
  // Tens of milliseconds a step at L: the thread gives way between them (main-thread-turns.ts).
  const turns = new MainThreadTurns();
  const levels = await evaluateLevels(db, columns, compiled, source, turns);
  if (!compiled.negated) {
    // Without NOT the activities are the matching ones: no structure is needed to know them.
    if (levels.matching.size > cap) throw activityCapError();
    return { activities: levels.matching, make: derivedSets(columns, compiled, levels, levels.matching, null) };
  }
  const structures = await judgedStructures(columns, compiled.expr, levels, turns);
  // An activity without a structure is kept when the expression holds for it (docs: "Activities without a structure").
  const activities = await keptActivities(columns.actStr, levels.matching, structures, cap, turns);
  return { activities, make: derivedSets(columns, compiled, levels, activities, structures) };
}

/**
 * A maker of a search's sets beyond its activities, each made once when first asked for (those it
 * links from first): linking millions of activities to their structures, compound records, assays
 * and references is most of a count's set algebra at L. `judged`: a NOT search's structures,
 * judged already to know its activities.
 */
function derivedSets(
  columns: KbColumns,
  { expr, rows }: RowsPlan,
  levels: Awaited<ReturnType<typeof evaluateLevels>>,
  activities: RoaringBitmap32,
  judged: RoaringBitmap32 | null,
): SetMaker {
  const turns = new MainThreadTurns();
  const hasActivityRows = rows.some((r) => r.activity);
  const made = new Map<DerivedKind | 'activityStructures', Promise<RoaringBitmap32>>();
  const once = (key: DerivedKind | 'activityStructures', build: () => Promise<RoaringBitmap32>) => {
    let found = made.get(key);
    if (!found) made.set(key, (found = build()));
    return found;
  };
  // The structures of the activities (a structure matched without one brings all of its compound records).
  const activityStructures = () => once('activityStructures', () => linked(columns.actStr, activities, turns));
  // Each maker reads the sets it is made from through `source` (MADE_FROM says which).
  const makers: Record<DerivedKind, (source: (from: DerivedKind) => RoaringBitmap32) => Promise<RoaringBitmap32>> = {
    structures: async () => judged ?? RoaringBitmap32.or(await activityStructures(), levels.direct),
    clinical: async (source) => {
      const clinicalJudged = rows.some((r) => r.clinical)
        ? evaluateSets(expr, await levels.clinicalLeaves(), columns.allClinical)
        : columns.allClinical;
      return RoaringBitmap32.and(clinicalJudged, clinicalOfStructures(columns, source('structures')));
    },
    compounds: async (source) => {
      const compounds = hasActivityRows ? await linked(columns.actGvk, activities, turns) : new RoaringBitmap32();
      if (!hasActivityRows || directPossible(expr, rows)) {
        const structures = source('structures');
        const withoutActivity = hasActivityRows ? RoaringBitmap32.andNot(structures, await activityStructures()) : structures;
        compounds.orInPlace(await childrenOfAll({ index: columns.compoundsByStructure, forward: columns.gvkStr }, withoutActivity, turns));
      }
      return compounds;
    },
    assays: () => linked(columns.actAssay, activities, turns),
    references: async (source) =>
      RoaringBitmap32.or(await linked(columns.actRef, activities, turns), await linked(columns.gvkRef, source('compounds'), turns)),
  };
  // Concurrent readers asking for one set share its making.
  return (kind, source) => once(kind, () => makers[kind](source));
}

/**
 * A compiled search's sets with all but the activities made only when first asked for
 * (`SetsMadeOnRead.make`): a server recomputing a session another one ran (SearchService
 * `recompute`) pays for the sets its reader needs — an Activities page none of them. Their counts
 * are the stored ones until then; each made set is checked against it.
 */
export async function bitmapSearchOnRead(
  db: Db,
  columns: KbColumns,
  compiled: RowsPlan,
  cap: number,
  stored: SearchCounts,
  source: RowSetSource = readRowSets,
): Promise<SetsMadeOnRead> {
  const { activities, make } = await searchSets(db, columns, compiled, cap, source);
  return new SetsMadeOnRead(activities, make, stored);
}
