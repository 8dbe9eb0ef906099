import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import type { SearchCounts } from '@kb/contracts/search';
import { ACTIVITY_CAP } from '@kb/contracts/search';
import type { Database } from '../../db/schema.ts';
import { SEARCH_SET_TABLES } from '../../db/tables/search-tables.ts';
import type { DatabaseKind } from '../../db/database.ts';
import type { Expr } from './expression.ts';
import { ACTIVITY_FROM } from './row-compiler.ts';
import type { CompiledRow } from './row-compiler.ts';
import { activityCapError } from './search-plan.ts';
import type { CompiledSearch } from './search-plan.ts';
import type { StructureScores } from './structure-query.ts';
import { searchCancelled } from './structure-query.ts';
import { activityRowsOver, linkOver, withActivityCounts } from './bitmaps/activity-rows.ts';
import type { WrittenActivityRows } from './bitmaps/activity-rows.ts';
import type { BitmapSearchResult } from './bitmaps/bitmap-counts.ts';
import type { RoaringBitmap32 } from './bitmaps/roaring.ts';
import { int4ArrayParam } from '../../db/array-param.ts';
import type { KbColumns } from './bitmaps/kb-columns.ts';

/**
 * Runs a search into its id sets (the spec's "log tables"): structures, activities, compound
 * records, assays, references and clinical compounds of one set id. The rules are those of
 * docs/search-semantics.md; every later view (counts, tabs, charts, exports) reads these sets.
 */

/* The expression in SQL (expression.ts is its shape): each row's predicate at a level, folded where constant. */

/** A row's predicate at one level; null = the row cannot be true at this level (constant false). */
type RowPredicate = (index: number) => RawBuilder<boolean> | null;

/** A predicate, or the constant it folds to. */
type Rendered = RawBuilder<boolean> | boolean;

function renderNode(expr: Expr, predicate: RowPredicate): Rendered {
  switch (expr.kind) {
    case 'const':
      return expr.value;
    case 'row':
      return predicate(expr.index) ?? false;
    case 'not': {
      const inner = renderNode(expr.inner, predicate);
      // Unknown (NULL) counts as "does not match": an activity without a mechanism is NOT an inhibitor.
      return typeof inner === 'boolean' ? !inner : sql<boolean>`NOT coalesce((${inner}), false)`;
    }
    case 'and':
    case 'or': {
      const left = renderNode(expr.left, predicate);
      const right = renderNode(expr.right, predicate);
      const isAnd = expr.kind === 'and';
      // Constant folding keeps generated SQL small and lets us skip whole parts (e.g. the
      // structure-only part of a search whose every path needs an activity).
      if (typeof left === 'boolean') return left === isAnd ? right : left;
      if (typeof right === 'boolean') return right === isAnd ? left : right;
      return isAnd ? sql<boolean>`(${left} AND ${right})` : sql<boolean>`(${left} OR ${right})`;
    }
  }
}

/** How the expression is rendered at one level: each row's predicate there, and what the whole must also hold (null: nothing). */
interface LevelRendering {
  row: RowPredicate;
  within?: RawBuilder<boolean> | null;
}

/**
 * The expression rendered at every level at once (activity, structure, direct, clinical), each ANDed with its `within` (a load window) unless it folds to false, and whether the
 * search negates a row (NOT searches judge structures as a whole).
 */
function renderLevels<L extends string>(expr: Expr, levels: Record<L, LevelRendering>): Record<L, Rendered> {
  const rendered = {} as Record<L, Rendered>;
  for (const level of Object.keys(levels) as L[]) {
    const { row, within } = levels[level];
    const whole = renderNode(expr, row);
    rendered[level] = !within || whole === false ? whole : sql<boolean>`(${asSql(whole)} AND ${within})`;
  }
  return rendered;
}

/** Renders a folded constant as SQL too, for places that need a predicate. */
function asSql(rendered: Rendered): RawBuilder<boolean> {
  return typeof rendered === 'boolean' ? (rendered ? sql<boolean>`TRUE` : sql<boolean>`FALSE`) : rendered;
}

interface Levels {
  /** Predicate on one activity `a`. */
  activity: Rendered;
  /** Predicate on one structure `s`, every row judged by "has a matching activity or matches directly". */
  structure: Rendered;
  /** Predicate on `s` with activity rows false: structures the search matches without any activity. */
  direct: Rendered;
  /** Predicate on one clinical compound `cc`. */
  clinical: Rendered;
}

function existsSet(row: CompiledRow): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [];
  // Activities without a structure are left out: a NULL in `s.str_id IN (...)` would turn a
  // negated row's FALSE into NULL and drop every structure from a NOT search.
  if (row.activity) parts.push(sql`SELECT a.str_id FROM ${ACTIVITY_FROM} WHERE ${row.activity} AND a.str_id IS NOT NULL`);
  if (row.direct) parts.push(row.direct);
  return sql.join(parts, sql` UNION `);
}

/**
 * The search's predicates at each level (`renderLevels` renders the shape once for all four); with a
 * load window, activities and direct structure matches only of those loads — `structure` stays the
 * search's truth for a structure (NOT searches): its rows come in only through restricted
 * activities or restricted direct matches.
 */
function renderSearchLevels(expr: Expr, rows: readonly CompiledRow[], window: LoadWindow | null): Levels {
  const row = (i: number) => rows[i]!;
  const inWindow = (alias: 'a' | 's') =>
    window
      ? sql<boolean>`(${sql.ref(`${alias}.load_id`)} > ${window.afterLoad} AND ${sql.ref(`${alias}.load_id`)} <= ${window.upToLoad})`
      : null;
  return renderLevels(expr, {
    // A structure row never matches an activity without structure: FALSE, not NULL, so NOT of it holds.
    activity: {
      row: (i) => row(i).activity ?? (row(i).direct ? sql<boolean>`(a.str_id IS NOT NULL AND a.str_id IN (${row(i).direct}))` : null),
      within: inWindow('a'),
    },
    structure: { row: (i) => sql<boolean>`s.str_id IN (${existsSet(row(i))})` },
    direct: { row: (i) => (row(i).direct ? sql<boolean>`s.str_id IN (${row(i).direct})` : null), within: inWindow('s') },
    clinical: { row: (i) => row(i).clinical ?? sql<boolean>`cc.str_id IN (${existsSet(row(i))})` },
  });
}

async function insertActivities(trx: Kysely<Database>, setId: number, where: RawBuilder<boolean>, cap: number): Promise<void> {
  const { rows } = await sql<{ n: number }>`WITH ins AS (
      INSERT INTO search_activities (set_id, act_id, str_id, gvk_id, assay_id, ref_id, target_id)
      SELECT ${setId}::bigint, a.act_id, a.str_id, a.gvk_id, a.assay_id, a.ref_id, a.target_id FROM ${ACTIVITY_FROM}
      WHERE ${where} LIMIT ${cap + 1}
      RETURNING 1)
    SELECT count(*)::int AS n FROM ins`.execute(trx);
  if ((rows[0]?.n ?? 0) > cap) throw activityCapError();
}

async function insertStructures(trx: Kysely<Database>, setId: number, levels: Levels, negated: boolean): Promise<void> {
  const direct = levels.direct;
  if (!negated) {
    // Without NOT, the structures are those of the matching activities plus direct matches.
    await sql`INSERT INTO search_structures (set_id, str_id)
      SELECT ${setId}::bigint, str_id FROM search_activities WHERE set_id = ${setId} AND str_id IS NOT NULL
      UNION SELECT ${setId}::bigint, s.str_id FROM structures s WHERE ${asSql(direct)}`.execute(trx);
    return;
  }
  const activity = asSql(levels.activity);
  await sql`INSERT INTO search_structures (set_id, str_id)
    SELECT ${setId}::bigint, s.str_id FROM structures s
    WHERE ${asSql(levels.structure)}
      AND (s.str_id IN (SELECT a.str_id FROM ${ACTIVITY_FROM} WHERE ${activity} AND a.str_id IS NOT NULL) OR ${asSql(direct)})`.execute(
    trx,
  );
}

async function insertDerivedSets(
  trx: Kysely<Database>,
  setId: number,
  levels: Levels,
  hasActivityRows: boolean,
  hasClinicalRows: boolean,
): Promise<void> {
  // Compound records: those of the matching activities; a structure matched without an activity
  // (or a search with no activity rows) brings all of its records. A structure of the result
  // without a result activity can only have come in through a direct match, so when nothing can
  // match directly the second part is skipped (it is the expensive one at scale).
  const directPossible = levels.direct !== false;
  if (hasActivityRows) {
    await sql`INSERT INTO search_compounds (set_id, gvk_id)
      SELECT DISTINCT ${setId}::bigint, gvk_id FROM search_activities WHERE set_id = ${setId} AND gvk_id IS NOT NULL`.execute(trx);
  }
  if (!hasActivityRows || directPossible) {
    await sql`INSERT INTO search_compounds (set_id, gvk_id)
      SELECT ${setId}::bigint, c.gvk_id FROM compounds c JOIN search_structures ss ON ss.set_id = ${setId} AND ss.str_id = c.str_id
      WHERE NOT ${hasActivityRows}
         OR NOT EXISTS (SELECT 1 FROM search_activities sa WHERE sa.set_id = ${setId} AND sa.str_id = c.str_id)
      ON CONFLICT DO NOTHING`.execute(trx);
  }
  // Assays and references keep how many of the search's activities they hold (results columns).
  await sql`INSERT INTO search_assays (set_id, assay_id, activities)
    SELECT ${setId}::bigint, assay_id, count(*) FROM search_activities WHERE set_id = ${setId} AND assay_id IS NOT NULL GROUP BY assay_id`.execute(
    trx,
  );
  await sql`INSERT INTO search_references (set_id, ref_id, activities)
    SELECT ${setId}::bigint, ref_id, sum(n) FROM (
      SELECT ref_id, count(*) AS n FROM search_activities WHERE set_id = ${setId} AND ref_id IS NOT NULL GROUP BY ref_id
      UNION ALL SELECT c.ref_id, 0 FROM compounds c JOIN search_compounds sc ON sc.set_id = ${setId} AND sc.gvk_id = c.gvk_id
      WHERE c.ref_id IS NOT NULL) refs
    GROUP BY ref_id`.execute(trx);
  // Without clinical rows the expression holds for the development compound of every result
  // structure (it holds for the structure), so no predicate needs evaluating.
  const clinical = hasClinicalRows ? asSql(levels.clinical) : sql<boolean>`TRUE`;
  await sql`INSERT INTO search_clinical_compounds (set_id, clinical_compound_id)
    SELECT ${setId}::bigint, cc.clinical_compound_id FROM clinical_compounds cc
    JOIN search_structures ss ON ss.set_id = ${setId} AND ss.str_id = cc.str_id
    WHERE ${clinical}`.execute(trx);
}

export async function readCounts(db: Kysely<Database>, setId: number): Promise<SearchCounts> {
  const { rows } = await sql<SearchCounts>`SELECT
      (SELECT count(*)::int FROM search_structures WHERE set_id = ${setId}) AS stridscount,
      (SELECT count(*)::int FROM search_activities WHERE set_id = ${setId}) AS actidscount,
      (SELECT count(*)::int FROM search_compounds WHERE set_id = ${setId}) AS gvkidscount,
      (SELECT count(*)::int FROM search_assays WHERE set_id = ${setId}) AS assayidscount,
      (SELECT count(*)::int FROM search_references WHERE set_id = ${setId}) AS refidscount,
      (SELECT count(*)::int FROM search_clinical_compounds WHERE set_id = ${setId}) AS clinicalcompoundidscount`.execute(db);
  return rows[0]!;
}

/** Every table holding rows of a search's set id (`clearSets`). */
const SET_ROW_TABLES = [
  'search_set_marks',
  ...SEARCH_SET_TABLES,
  'result_similarity',
  'result_filtered',
  'sar_sets',
  'sar_set_structures',
  'sar_set_activities',
] as const;

export async function clearSets(db: Kysely<Database>, setId: number): Promise<void> {
  // One statement, so one round trip instead of twelve (every search's end clears its set id) and
  // atomic: a set is never left without its mark but with some of its rows. Beside the sets and
  // their mark: the results' similarity sorts and filtered rows, and the SAR view's rows (migration
  // 0013), all derived from these sets.
  const deletes = SET_ROW_TABLES.map((table, i) => sql`${sql.raw(`d${i}`)} AS (DELETE FROM ${sql.table(table)} WHERE set_id = ${setId})`);
  await sql`WITH ${sql.join(deletes)} SELECT 1`.execute(db);
}

/**
 * Marks the sets of `setId` as kept, inside the transaction that wrote them. The mark is UNLOGGED
 * like the sets, so a crash recovery (PostgreSQL, or PGlite reopened after an unclean stop) that
 * empties them empties it too; its absence is how a ready session learns its sets are gone.
 * Answers the mark (its `written_at` as text), which names this write of the sets.
 */
async function markSets(trx: Kysely<Database>, setId: number, criteriaHash: string): Promise<string> {
  const { rows } = await sql<{
    mark: string;
  }>`INSERT INTO search_set_marks (set_id, criteria_hash) VALUES (${setId}, ${criteriaHash}) RETURNING written_at::text AS mark`.execute(
    trx,
  );
  return rows[0]!.mark;
}

/**
 * A window of knowledge-base loads (kb_loads ids): only rows first brought in by a load `afterLoad
 * < load_id <= upToLoad` are kept. Alerts count "the new rows" of a saved search with it
 * (docs/search-semantics.md "New since a load"). Rows loaded before loads were recorded (NULL) are
 * never new.
 */
export interface LoadWindow {
  afterLoad: number;
  upToLoad: number;
}

/** Fills the six sets of `setId` (inside the caller's transaction) and answers their counts. */
export async function materialiseSets(
  trx: Kysely<Database>,
  setId: number,
  compiled: CompiledSearch,
  cap: number = ACTIVITY_CAP,
  options: { loadWindow?: LoadWindow | null } = {},
): Promise<SearchCounts> {
  // The engine's hits, which the rows' SQL reads from structure_hits.
  await compiled.writeHits?.(trx);
  // Row sets are tested with `IN (subquery)`: with the default 4 MB of work memory PostgreSQL gives
  // up hashing a set of a few hundred thousand ids and re-runs the subquery per structure (a NOT
  // search at L ran for minutes). Only this transaction gets more.
  await sql`SET LOCAL work_mem = '256MB'`.execute(trx);
  const levels = renderSearchLevels(compiled.expr, compiled.rows, options.loadWindow ?? null);
  const negated = compiled.negated;
  const hasActivityRows = compiled.rows.some((r) => r.activity);
  if (negated) {
    await insertStructures(trx, setId, levels, true);
    // An activity without structure has no structure to judge: it is kept when the expression holds
    // for the activity itself (docs/search-semantics.md, "Activities without a structure").
    await insertActivities(
      trx,
      setId,
      sql<boolean>`${asSql(levels.activity)}
      AND (a.str_id IN (SELECT str_id FROM search_structures WHERE set_id = ${setId}) OR a.str_id IS NULL)`,
      cap,
    );
  } else {
    await insertActivities(trx, setId, asSql(levels.activity), cap);
    await insertStructures(trx, setId, levels, false);
  }
  await insertDerivedSets(
    trx,
    setId,
    levels,
    hasActivityRows,
    compiled.rows.some((r) => r.clinical),
  );
  return readCounts(trx, setId);
}

/** What a run writes: its sets from the bitmaps' early counts (`fromBitmaps`) or found again in SQL (`compiled`). */
export interface SetsToWrite {
  setId: number;
  hash: string;
  fromBitmaps: { columns: KbColumns; sets: Parameters<typeof writeSetsFromBitmaps>[3] } | null;
  compiled: CompiledSearch | null;
  cap: number;
  loadWindow: LoadWindow | null;
  /** The structures' scores of the similarity rows (null: none). */
  similarities: StructureScores | null;
  databaseKind: DatabaseKind;
  signal: AbortSignal;
  /** The session's `ready`, in the same transaction; `fromEarly`: the sets are the early counts' (the same answer). */
  commit: (trx: Kysely<Database>, counts: SearchCounts, fromEarly: boolean) => Promise<void>;
}

/* The sets written from memory. */

/**
 * Rows per INSERT: bounded parameters whatever the set (a NOT search may hold every structure).
 * Each statement's columns are built and sent to the socket in one go on the main thread, so this
 * also bounds how long other calls wait: 250,000 rows (12 MB on the wire) made stretches of
 * 50–100 ms in which a login or health check could not run (issue 39, sixth step).
 */
const ROWS_PER_INSERT = 50_000;

/** One column to insert: its values, and whether 0 stands for NULL (a missing link). */
interface Column {
  name: string;
  values: Int32Array;
  zeroIsNull?: boolean;
}

/** Inserts the rows of equally long `columns` into a set table, ROWS_PER_INSERT at a time. */
async function insertColumns(
  trx: Kysely<Database>,
  kind: DatabaseKind,
  table: string,
  setId: number,
  columns: readonly Column[],
): Promise<void> {
  const length = columns[0]?.values.length ?? 0;
  const names = columns.map((column) => sql.ref(column.name));
  const aliases = columns.map((_, i) => sql.ref(`c${i}`));
  const values = columns.map((column, i) => (column.zeroIsNull ? sql`nullif(${aliases[i]}, 0)` : aliases[i]!));
  for (let from = 0; from < length; from += ROWS_PER_INSERT) {
    const arrays = columns.map((column) => sql`${int4ArrayParam(column.values.subarray(from, from + ROWS_PER_INSERT), kind)}::int[]`);
    await sql`INSERT INTO ${sql.table(table)} (set_id, ${sql.join(names)})
      SELECT ${setId}::bigint, ${sql.join(values)} FROM unnest(${sql.join(arrays)}) AS t(${sql.join(aliases)})`.execute(trx);
  }
}

/**
 * Fills the sets of `setId` (inside the caller's transaction) from the bitmaps that counted the
 * search (issue 18), instead of running its SQL a second time: the rows `materialiseSets` would
 * write, with the same columns, taken from the id links in memory (bitmaps/activity-rows.ts). The
 * database only inserts: at L a 728,366-activity search spent 8.2 s in the SQL path, most of it
 * finding the rows again. Answers the counts and the activity rows written.
 */
async function writeSetsFromBitmaps(
  trx: Kysely<Database>,
  setId: number,
  columns: KbColumns,
  sets: BitmapSearchResult,
  kind: DatabaseKind,
): Promise<{ counts: SearchCounts; rows: WrittenActivityRows }> {
  const activities = sets.activities.toUint32Array();
  const overActivities = linkOver(activities);
  const rows = activityRowsOver(columns, activities);
  const link = (name: string, values: Int32Array): Column => ({ name, values, zeroIsNull: true });
  await insertColumns(trx, kind, 'search_activities', setId, [
    { name: 'act_id', values: rows.act },
    link('str_id', rows.str),
    link('gvk_id', overActivities(columns.actGvk)),
    link('assay_id', rows.assay),
    link('ref_id', rows.ref),
    link('target_id', rows.target),
  ]);
  const ids = (bitmap: RoaringBitmap32) => Int32Array.from(bitmap.toUint32Array());
  await insertColumns(trx, kind, 'search_structures', setId, [{ name: 'str_id', values: ids(sets.structures) }]);
  await insertColumns(trx, kind, 'search_compounds', setId, [{ name: 'gvk_id', values: ids(sets.compounds) }]);
  await insertColumns(trx, kind, 'search_clinical_compounds', setId, [{ name: 'clinical_compound_id', values: ids(sets.clinical) }]);
  // Assays and references keep how many of the search's activities they hold (results columns); a
  // reference reached only through a compound record holds none.
  const [assays, assayCounts] = withActivityCounts(sets.assays, columns.actAssay, activities);
  await insertColumns(trx, kind, 'search_assays', setId, [
    { name: 'assay_id', values: assays },
    { name: 'activities', values: assayCounts },
  ]);
  const [references, referenceCounts] = withActivityCounts(sets.references, columns.actRef, activities);
  await insertColumns(trx, kind, 'search_references', setId, [
    { name: 'ref_id', values: references },
    { name: 'activities', values: referenceCounts },
  ]);
  return { counts: sets.counts, rows };
}

/**
 * Writes a run's sets in the caller's transaction: the old rows of the set id cleared, the sets
 * written (from memory, or in SQL), the similarities and the mark, then `commit` (the session's
 * `ready`): sets, mark and `ready` commit together, so a ready session has its mark unless a crash
 * took both. A cancel meanwhile rolls it all back. `written`: the activity rows when they came from memory.
 */
export async function writeSessionSets(
  trx: Kysely<Database>,
  job: SetsToWrite,
): Promise<{ counts: SearchCounts; written: { mark: string; rows: WrittenActivityRows } | null }> {
  const { setId, fromBitmaps } = job;
  await clearSets(trx, setId);
  // Found again in SQL, or written from memory (then with the activity rows written).
  const { counts, rows } = fromBitmaps
    ? await writeSetsFromBitmaps(trx, setId, fromBitmaps.columns, fromBitmaps.sets, job.databaseKind)
    : { counts: await materialiseSets(trx, setId, job.compiled!, job.cap, { loadWindow: job.loadWindow }), rows: null };
  await copySimilarities(trx, setId, job.similarities);
  if (job.signal.aborted) throw searchCancelled();
  const mark = await markSets(trx, setId, job.hash);
  await job.commit(trx, counts, rows !== null);
  return { counts, written: rows ? { mark, rows } : null };
}

/**
 * A run's end without writing its sets (they are held in memory, session-sets.ts): the set id's
 * old rows cleared (a search run before in this session) and `commit` (the session's `ready`) in
 * one transaction; a cancel meanwhile rolls it back.
 */
export async function commitWithoutSets(
  db: Kysely<Database>,
  setId: number,
  signal: AbortSignal,
  commit: (trx: Kysely<Database>) => Promise<void>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await clearSets(trx, setId);
    if (signal.aborted) throw searchCancelled();
    await commit(trx);
  });
}

/**
 * Similarity rows: each structure keeps its best Tanimoto, each activity and development compound
 * its structure's, and each assay and reference the best of its activities, so that every tab of
 * the search can show and sort by the score from its own set (one pass here instead of a lookup per
 * row in every page). The structures' scores are the run's (its engine hits) or, when sets held in
 * memory are written out, the ones held with them.
 */
async function copySimilarities(trx: Kysely<Database>, setId: number, source: StructureScores | null): Promise<void> {
  if (!source) return;
  const scores = sql`SELECT u.str_id, u.similarity FROM unnest(${Array.from(source.strIds)}::bigint[], ${Array.from(source.scores)}::real[]) AS u(str_id, similarity)`;
  await sql`UPDATE search_structures ss SET similarity = h.similarity FROM (${scores}) h
    WHERE ss.set_id = ${setId} AND ss.str_id = h.str_id`.execute(trx);
  await sql`UPDATE search_activities sa SET similarity = ss.similarity FROM search_structures ss
    WHERE sa.set_id = ${setId} AND ss.set_id = ${setId} AND ss.str_id = sa.str_id AND ss.similarity IS NOT NULL`.execute(trx);
  await sql`UPDATE search_clinical_compounds scc SET similarity = ss.similarity FROM clinical_compounds cc, search_structures ss
    WHERE scc.set_id = ${setId} AND cc.clinical_compound_id = scc.clinical_compound_id
      AND ss.set_id = ${setId} AND ss.str_id = cc.str_id AND ss.similarity IS NOT NULL`.execute(trx);
  const best = (key: 'assay_id' | 'ref_id') => sql`SELECT ${sql.ref(key)} AS id, max(similarity) AS similarity FROM search_activities
    WHERE set_id = ${setId} AND similarity IS NOT NULL AND ${sql.ref(key)} IS NOT NULL GROUP BY ${sql.ref(key)}`;
  await sql`UPDATE search_assays sy SET similarity = m.similarity FROM (${best('assay_id')}) m
    WHERE sy.set_id = ${setId} AND sy.assay_id = m.id`.execute(trx);
  await sql`UPDATE search_references sr SET similarity = m.similarity FROM (${best('ref_id')}) m
    WHERE sr.set_id = ${setId} AND sr.ref_id = m.id`.execute(trx);
}
