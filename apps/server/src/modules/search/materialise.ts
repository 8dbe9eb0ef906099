import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import type { SearchCounts } from '@kb/contracts/search';
import { ACTIVITY_CAP } from '@kb/contracts/search';
import type { Database } from '../../db/schema.ts';
import { SEARCH_SET_TABLES } from '../../db/tables/search-tables.ts';
import type { DatabaseKind } from '../../db/database.ts';
import { asSql, renderLevels } from './expression.ts';
import type { Expr, Rendered } from './expression.ts';
import { ACTIVITY_FROM } from './row-compiler.ts';
import type { CompiledRow } from './row-compiler.ts';
import { activityCapError } from './search-plan.ts';
import type { CompiledSearch } from './search-plan.ts';
import type { StructureScores } from './structure-query.ts';
import { searchCancelled } from './structure-query.ts';
import { writeSetsFromBitmaps } from './bitmaps/write-sets.ts';
import type { WrittenActivityRows } from './bitmaps/write-sets.ts';
import type { KbColumns } from './bitmaps/kb-columns.ts';

/**
 * Runs a search into its id sets (the spec's "log tables"): structures, activities, compound
 * records, assays, references and clinical compounds of one set id. The rules are those of
 * docs/search-semantics.md; every later view (counts, tabs, charts, exports) reads these sets.
 */

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
 * The search's predicates at each level (expression.ts renders the shape once for all four); with a
 * load window, activities and direct structure matches only of those loads — `structure` stays the
 * search's truth for a structure (NOT searches): its rows come in only through restricted
 * activities or restricted direct matches.
 */
function renderSearchLevels(expr: Expr, rows: readonly CompiledRow[], window: LoadWindow | null): { levels: Levels; negated: boolean } {
  const row = (i: number) => rows[i]!;
  const inWindow = (alias: 'a' | 's') =>
    window
      ? sql<boolean>`(${sql.ref(`${alias}.load_id`)} > ${window.afterLoad} AND ${sql.ref(`${alias}.load_id`)} <= ${window.upToLoad})`
      : null;
  const { rendered, negated } = renderLevels(expr, {
    // A structure row never matches an activity without structure: FALSE, not NULL, so NOT of it holds.
    activity: {
      row: (i) => row(i).activity ?? (row(i).direct ? sql<boolean>`(a.str_id IS NOT NULL AND a.str_id IN (${row(i).direct}))` : null),
      within: inWindow('a'),
    },
    structure: { row: (i) => sql<boolean>`s.str_id IN (${existsSet(row(i))})` },
    direct: { row: (i) => (row(i).direct ? sql<boolean>`s.str_id IN (${row(i).direct})` : null), within: inWindow('s') },
    clinical: { row: (i) => row(i).clinical ?? sql<boolean>`cc.str_id IN (${existsSet(row(i))})` },
  });
  return { levels: rendered, negated };
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

export async function clearSets(db: Kysely<Database>, setId: number): Promise<void> {
  // The mark first: whatever happens next, a set without its mark counts as lost, never as kept.
  await db.deleteFrom('search_set_marks').where('set_id', '=', setId).execute();
  for (const table of SEARCH_SET_TABLES) {
    await db.deleteFrom(table).where('set_id', '=', setId).execute();
  }
  // Similarity sorts and filtered rows of the results are derived from the sets and go with them.
  await db.deleteFrom('result_similarity').where('set_id', '=', setId).execute();
  await db.deleteFrom('result_filtered').where('set_id', '=', setId).execute();
  // The SAR view's rows (migration 0013) were taken from these sets.
  for (const table of ['sar_sets', 'sar_set_structures', 'sar_set_activities'] as const)
    await db.deleteFrom(table).where('set_id', '=', setId).execute();
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
  const { levels, negated } = renderSearchLevels(compiled.expr, compiled.rows, options.loadWindow ?? null);
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
  const fromMemory = fromBitmaps ? await writeSetsFromBitmaps(trx, setId, fromBitmaps.columns, fromBitmaps.sets, job.databaseKind) : null;
  const counts = fromMemory ? fromMemory.counts : await materialiseSets(trx, setId, job.compiled!, job.cap, { loadWindow: job.loadWindow });
  await copySimilarities(trx, setId, job.similarities);
  if (job.signal.aborted) throw searchCancelled();
  const mark = await markSets(trx, setId, job.hash);
  await job.commit(trx, counts, fromMemory !== null);
  return { counts, written: fromMemory ? { mark, rows: fromMemory.rows } : null };
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
