import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { SearchCounts, SearchCriteria } from '@kb/contracts/search';
import { ACTIVITY_CAP } from '@kb/contracts/search';
import type { Database } from '../../db/schema.ts';
import type { DatabaseKind } from '../../db/database.ts';
import { withSetsLane } from '../../db/db-priority.ts';
import { clearSets, compileCriteria, markSets, materialiseSets } from './materialise.ts';
import type { LoadWindow } from './materialise.ts';
import { resolveTargetIds } from '../targets/target-resolver.ts';
import type { ChemEngine } from '../chemistry/chem-engine.ts';
import type { CompileContext, CompiledRow } from './row-compiler.ts';
import type { Expr } from './expression.ts';
import { StructureRowResolver, searchCancelled } from './structure-query.ts';
import type { StructureScores } from './structure-query.ts';
import { BitmapIndex } from './bitmaps/bitmap-index.ts';
import { bitmapSearch, bitmapStructures } from './bitmaps/bitmap-counts.ts';
import type { BitmapSearchResult } from './bitmaps/bitmap-counts.ts';
import type { KbColumns } from './bitmaps/kb-columns.ts';
import { writeSetsFromBitmaps } from './bitmaps/write-sets.ts';
import type { WrittenActivityRows } from './bitmaps/write-sets.ts';
import type { LiveRun } from './session-lifecycle.ts';
import type { HeldSets } from './session-sets.ts';

export interface SearchRunOptions {
  /** Spec §5 cap (750,000); lowered only by tests that need to reach it on small data. */
  activityCap?: number;
  /** Longest a structure search may run before it is stopped with a message. */
  structureTimeLimitMs?: number;
  /** Count searches from id bitmaps in memory instead of writing the sets (issue 18; `SEARCH_BITMAPS=1`). */
  bitmapCounts?: boolean;
  /** How id lists are sent when sets are written from the bitmaps (binary on a server, text to PGlite). */
  databaseKind?: DatabaseKind;
  /** A local file the bitmap engine's columns are kept in between starts (bitmaps/column-snapshot.ts). */
  columnSnapshotFile?: string | null;
  /** What went wrong beside the counts (a snapshot not used, property columns not read): counts go on, in SQL where need be. */
  onBitmapsError?: (message: string, error: unknown) => void;
  /**
   * Whether a last structure row joined by AND / NOT is searched among the structures the other
   * rows leave (default true; tests and the results bench build a service without it for the
   * reference run: the engine then searches the whole index).
   */
  structureCandidates?: boolean;
  /** Above this share of the indexed structures the engine searches everything (default 0.5; the same answer; tests use 1). */
  structureCandidatesMaxShare?: number;
  /**
   * The members of a collection as user `userId` may read them (null: not there for them), for
   * "In collection" rows. The workspace module answers it (services.ts wires it); without it such
   * rows are refused.
   */
  collectionMembers?: CollectionMembers;
}

/** Structure ids of collection `collectionId` for user `userId`; null when it does not exist or is not shared with them. */
export type CollectionMembers = (userId: number, collectionId: number) => Promise<number[] | null>;

export interface CountOptions {
  /** Only rows first brought in by these loads count (alerts). */
  loadWindow?: LoadWindow | null;
  /** Whom the count is for (the caller, or an alert's owner): "In collection" rows read only their collections. */
  userId?: number | null;
}

/** A search counted from the bitmaps before its sets were written: the sets are written from it. */
export interface EarlyCounts {
  columns: KbColumns;
  sets: BitmapSearchResult;
}

export type CompiledCriteria = Awaited<ReturnType<typeof compileCriteria>>;

/** Stable hash of criteria (and of a load window): the same search in the same session is not run twice. */
export function criteriaHash(criteria: SearchCriteria, loadWindow: LoadWindow | null = null): string {
  const window = loadWindow ? `|loads:${loadWindow.afterLoad}:${loadWindow.upToLoad}` : '';
  return crypto
    .createHash('sha256')
    .update(JSON.stringify(criteria) + window)
    .digest('hex');
}

class RollbackWith extends Error {
  constructor(readonly counts: SearchCounts) {
    super('rollback');
  }
}

/** A run's session as the runner sees it (session-lifecycle.ts keeps its states): where its sets go, how its answer is committed. */
export interface RunTarget {
  setId: number;
  hash: string;
  run: LiveRun;
  /** Counts known before the sets are written: results calls, on any server, then wait for the sets. */
  countedEarly(): Promise<void>;
  /** The session `ready` under this answer, in the transaction that writes (or clears) its sets. */
  finish(trx: Kysely<Database>, counts: SearchCounts, answer: { version: string; kbVersion: string | null }): Promise<void>;
}

/** What a run is asked: the search, for whom, and where its sets may stay. */
export interface RunRequest {
  criteria: SearchCriteria;
  /** Whom it runs for ("In collection" rows read that user's collections). */
  userId: number;
  loadWindow: LoadWindow | null;
  /** The session's sets held in memory, written out as they are (a reader needs the tables). */
  heldAnswer: HeldSets | null;
  /** Keep the sets in memory when the bitmaps counted them: nothing written but the session row. */
  keepInMemory: boolean;
  /** Told the counts as soon as they are known (before the sets are written). */
  onCounts?: (counts: SearchCounts) => void;
}

/** What a run did: its sets kept in memory (to be held under `version`), or written to the set tables. */
export type RunOutcome =
  | { counts: SearchCounts; kept: Omit<HeldSets, 'setId' | 'criteriaHash'> }
  | { counts: SearchCounts; written: { mark: string; rows: WrittenActivityRows } | null };

/**
 * What a search computes, criteria → sets: the rows compiled (structure rows through the engine,
 * restricted to the other rows' structures when the bitmaps know them), counted from the bitmaps
 * or in SQL, and the sets written in one transaction with their mark. No session state here: the
 * session's row and its transitions are session-lifecycle.ts; search-service.ts drives the two.
 */
export class SearchRunner {
  private readonly bitmaps: BitmapIndex | null;
  private readonly activityCap: number;
  private readonly structureTimeLimitMs: number;
  private readonly structureCandidates: boolean;
  private readonly structureCandidatesMaxShare: number;
  /** How id lists are sent to the database (binary int4[] on a server, text to PGlite); results use it too. */
  readonly databaseKind: DatabaseKind;
  private readonly onBitmapsError: SearchRunOptions['onBitmapsError'];
  private readonly collectionMembers: CollectionMembers | null;
  private readonly writtenListeners: ((setId: number, mark: string, rows: WrittenActivityRows) => void)[] = [];
  /**
   * Count calls answered by each path since start, and search runs answered early from the bitmaps
   * (their sets then written from them too): tests and benchmarks check which one ran.
   */
  readonly countPaths = { bitmaps: 0, sql: 0, early: 0 };

  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: ChemEngine,
    options: SearchRunOptions = {},
  ) {
    this.activityCap = options.activityCap ?? ACTIVITY_CAP;
    this.structureTimeLimitMs = options.structureTimeLimitMs ?? 120_000;
    this.structureCandidates = options.structureCandidates ?? true;
    this.structureCandidatesMaxShare = options.structureCandidatesMaxShare ?? 0.5;
    // Text arrays when not told: both drivers take them.
    this.databaseKind = options.databaseKind ?? 'pglite';
    this.onBitmapsError = options.onBitmapsError;
    this.collectionMembers = options.collectionMembers ?? null;
    this.bitmaps = options.bitmapCounts
      ? new BitmapIndex(db, {
          snapshotFile: options.columnSnapshotFile ?? null,
          ...(options.onBitmapsError ? { onError: options.onBitmapsError } : {}),
        })
      : null;
  }

  /**
   * How the rows of a search are compiled; with a run, its structure search reports progress to it
   * and stops with it. `userId` is whom the search runs for (the caller; the owner of an alert or
   * of a session re-run): "In collection" rows read only collections that user may read, and none
   * without one.
   */
  async context(userId: number | null, run?: LiveRun): Promise<{ ctx: CompileContext; structures: StructureRowResolver }> {
    const units = await this.db.selectFrom('units').select(['unit', 'to_micromolar']).where('to_micromolar', 'is not', null).execute();
    const structures = new StructureRowResolver(this.engine, this.db, {
      timeLimitMs: this.structureTimeLimitMs,
      ...(run
        ? {
            signal: run.controller.signal,
            onProgress: (p) => {
              run.progress = {
                ...run.progress,
                phase: p.phase === 'index' ? 'index' : 'structure',
                searched: p.searched,
                total: p.total,
                hits: p.hits,
              };
            },
          }
        : {}),
    });
    const ctx: CompileContext = {
      structures,
      targets: (terms) => resolveTargetIds(this.db, terms),
      unitFactors: new Map(units.map((u) => [u.unit, Number(u.to_micromolar)])),
      structuresOf: (compiled) => this.structuresOf(compiled),
    };
    const members = this.collectionMembers;
    if (members) ctx.collections = async (collectionId) => (userId === null ? null : members(userId, collectionId));
    return { ctx, structures };
  }

  /**
   * The structures of a search from the bitmaps (null while their columns are not current): the
   * candidates of a last structure row joined by AND / NOT (materialise.ts compileCriteria). No
   * activity cap here: the whole search is capped when it is counted.
   */
  private async structuresOf(compiled: { expr: Expr; rows: CompiledRow[] }): Promise<Float64Array | null> {
    if (!this.structureCandidates) return null;
    const columns = this.bitmaps ? await this.bitmaps.ifCurrent() : null;
    if (!columns) return null;
    const structures = await bitmapStructures(this.db, columns, compiled, this.bitmaps!.rowSets);
    // Most of the knowledge base: restricting saves the engine little, and sending the list costs.
    if (structures.size > columns.allStructures.size * this.structureCandidatesMaxShare) return null;
    return Float64Array.from(structures.toUint32Array());
  }

  /**
   * Calls `listener` with the activity rows of every set this process writes from the bitmaps,
   * once committed, with the set's mark (results/session-rows.ts holds them for charts and filters).
   */
  onSetsWritten(listener: (setId: number, mark: string, rows: WrittenActivityRows) => void): void {
    this.writtenListeners.push(listener);
  }

  announceWritten(setId: number, written: { mark: string; rows: WrittenActivityRows }): void {
    for (const listener of this.writtenListeners) listener(setId, written.mark, written.rows);
  }

  /** Reads the bitmap columns (structure properties included) if they are not current, and says whether counts will use them. */
  async bitmapsReady(): Promise<boolean> {
    if (!this.bitmaps) return false;
    const columns = await this.bitmaps.current();
    // Without them property rows are counted in SQL; the failure is reported, the counts go on.
    await columns.properties
      .read()
      .catch((error: unknown) =>
        this.onBitmapsError?.('Reading the structure property columns failed; property rows are counted in SQL', error),
      );
    return true;
  }

  /**
   * The knowledge base's columns when they are current (null while they are read, or with no
   * bitmap engine): other modules read them instead of the database (the sheet, modules/sheet).
   */
  columnsIfCurrent(): Promise<KbColumns | null> {
    return this.bitmaps ? this.bitmaps.ifCurrent() : Promise.resolve(null);
  }

  /** Where the bitmap engine's columns were last read from (null: not read, or no engine). */
  get bitmapsSource(): 'database' | 'snapshot' | null {
    return this.bitmaps?.lastSource ?? null;
  }

  /**
   * Counts without keeping a session (`api/guidedsearch/count`): the sets are built and rolled back.
   * With a load window, only rows first brought in by those loads count (alerts); `userId` is whom
   * it counts for ("In collection" rows read that user's collections; without one they are refused).
   */
  async countOnly(criteria: SearchCriteria, options: CountOptions = {}): Promise<SearchCounts> {
    const { ctx, structures } = await this.context(options.userId ?? null);
    try {
      const compiled = await compileCriteria(criteria, ctx);
      // Alert windows (new since a load) stay on the SQL path: the columns hold no load ids.
      // From the bitmaps when their columns are current; while they are (re-)read after start-up or
      // a load, on the SQL path, which is exact too.
      const columns = this.bitmaps && !options.loadWindow ? await this.bitmaps.ifCurrent() : null;
      if (columns) {
        this.countPaths.bitmaps++;
        return (await bitmapSearch(this.db, columns, compiled, this.activityCap, this.bitmaps!.rowSets)).counts;
      }
      this.countPaths.sql++;
      await this.db.transaction().execute(async (trx) => {
        const setId = -crypto.randomInt(1, 2 ** 47);
        throw new RollbackWith(await materialiseSets(trx, setId, compiled, this.activityCap, options));
      });
    } catch (error) {
      if (error instanceof RollbackWith) return error.counts;
      throw error;
    } finally {
      await structures.cleanup();
    }
    throw new Error('unreachable');
  }

  /**
   * A run's counts from the bitmaps (when their columns are current), before its sets are written.
   * A count over the activity cap throws here, as writing the sets would. Answers the sets found,
   * to be written from memory (null: the columns are not current, and the SQL path counts and writes).
   */
  async countEarly(compiled: CompiledCriteria): Promise<EarlyCounts | null> {
    const columns = this.bitmaps ? await this.bitmaps.ifCurrent() : null;
    if (!columns) return null;
    return { columns, sets: await bitmapSearch(this.db, columns, compiled, this.activityCap, this.bitmaps!.rowSets) };
  }

  /**
   * One run, criteria → sets: the criteria compiled (once, and only when needed: sets held in
   * memory are written out without it), counted early from the bitmaps when their columns are
   * current (`onCounts`), then the sets kept in memory (`keepInMemory`) or written to the set tables
   * in one transaction with the session's `ready` (`target.finish`). The engine's hits are cleaned up
   * whatever happens.
   */
  async run(request: RunRequest, target: RunTarget): Promise<RunOutcome> {
    const { run } = target;
    let structures: StructureRowResolver | null = null;
    let compiling: Promise<CompiledCriteria> | null = null;
    const compile = () =>
      (compiling ??= this.context(request.userId, run).then((prepared) => {
        structures = prepared.structures;
        return compileCriteria(request.criteria, prepared.ctx);
      }));
    const scoresOfRun = () => (structures as StructureRowResolver | null)?.similarityScores() ?? null;
    try {
      const held = request.heldAnswer;
      let early: EarlyCounts | null = held ? { columns: held.columns, sets: held.sets } : null;
      if (!early && !request.loadWindow) early = await this.countEarly(await compile());
      if (early) {
        if (!held) {
          await target.countedEarly();
          this.countPaths.early++;
        }
        request.onCounts?.(early.sets.counts);
      }
      run.progress = { ...run.progress, phase: 'sets' };
      if (early && request.keepInMemory) {
        const version = crypto.randomUUID();
        const { columns, sets } = early;
        await this.commitWithoutSets(target.setId, run.controller.signal, (trx) =>
          target.finish(trx, sets.counts, { version, kbVersion: columns.version }),
        );
        return { counts: sets.counts, kept: { version, columns, sets, scores: scoresOfRun() } };
      }
      const { counts, written } = await this.writeSets({
        setId: target.setId,
        hash: target.hash,
        compile,
        early,
        heldAnswer: held !== null,
        // Sets held in memory are written out with the scores held with them; a run's with its engine hits'.
        similarities: () => (held ? held.scores : scoresOfRun()),
        loadWindow: request.loadWindow,
        signal: run.controller.signal,
        // Written from the early counts: the same answer as held (its version kept), else a new one.
        commit: (trx, result, fromEarly) =>
          target.finish(trx, result, {
            version: held && fromEarly ? held.version : crypto.randomUUID(),
            kbVersion: fromEarly ? early!.columns.version : null,
          }),
      });
      if (written) this.announceWritten(target.setId, written);
      await this.analyse(counts);
      return { counts, written };
    } finally {
      await (structures as StructureRowResolver | null)?.cleanup().catch(() => undefined);
    }
  }

  /**
   * Writes the sets of one search in one transaction (in the sets lane, db/lane-pool.ts: sets
   * written after early counts must not hold the connections the next searches' counts need): from
   * the early counts while the bitmaps' columns are still the knowledge base's, else in SQL; then
   * the similarities and the mark, and `commit` (the session's `ready`) in the same transaction. A
   * cancel rolls it all back. `written`: the activity rows when they came from memory.
   */
  async writeSets(job: {
    setId: number;
    hash: string;
    /** The criteria compiled (asked only when the sets are not written from the early counts). */
    compile: () => Promise<CompiledCriteria>;
    early: EarlyCounts | null;
    /** `early` are sets held in memory (session-sets.ts): this answer, written out as it is even after a load. */
    heldAnswer?: boolean;
    /** The structures' scores of the similarity rows: the run's engine hits', or the ones held with the sets (null: none). */
    similarities: () => StructureScores | null;
    loadWindow: LoadWindow | null;
    signal: AbortSignal;
    /** `fromEarly`: the sets written are the early counts' (the same answer), not found again in SQL. */
    commit: (trx: Kysely<Database>, counts: SearchCounts, fromEarly: boolean) => Promise<void>;
  }): Promise<{ counts: SearchCounts; written: { mark: string; rows: WrittenActivityRows } | null }> {
    const { setId, early } = job;
    const fromBitmaps = early && (job.heldAnswer || (await this.stillCurrent(early.columns))) ? early : null;
    const compiled = fromBitmaps ? null : await job.compile();
    let written: { mark: string; rows: WrittenActivityRows } | null = null;
    const counts = await withSetsLane(() =>
      this.db.transaction().execute(async (trx) => {
        await clearSets(trx, setId);
        const fromMemory = fromBitmaps
          ? await writeSetsFromBitmaps(trx, setId, fromBitmaps.columns, fromBitmaps.sets, this.databaseKind)
          : null;
        const result = fromMemory
          ? fromMemory.counts
          : await materialiseSets(trx, setId, compiled!, this.activityCap, { loadWindow: job.loadWindow });
        await copySimilarities(trx, setId, job.similarities());
        // Cancelled while the sets were being built: roll them back.
        if (job.signal.aborted) throw searchCancelled();
        // Sets, mark and `ready` commit together: a ready session has its mark unless a crash took both.
        const mark = await markSets(trx, setId, job.hash);
        if (fromMemory) written = { mark, rows: fromMemory.rows };
        await job.commit(trx, result, fromMemory !== null);
        return result;
      }),
    );
    return { counts, written };
  }

  /**
   * A run's end without writing its sets (they are held in memory, session-sets.ts): the set id's
   * old rows cleared (a search run before in this session) and `commit` (the session's `ready`) in
   * one transaction; a cancel meanwhile rolls it back.
   */
  async commitWithoutSets(setId: number, signal: AbortSignal, commit: (trx: Kysely<Database>) => Promise<void>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await clearSets(trx, setId);
      if (signal.aborted) throw searchCancelled();
      await commit(trx);
    });
  }

  /** Whether columns read earlier are still the knowledge base's (no load ended or running since). */
  async stillCurrent(columns: KbColumns): Promise<boolean> {
    return this.bitmaps ? this.bitmaps.stillCurrent(columns) : false;
  }

  /** The rows of one of a set's tables. */
  async tableRows(setId: number, table: 'structures' | 'activities' | 'assays'): Promise<number> {
    const name = table === 'structures' ? 'search_structures' : table === 'activities' ? 'search_activities' : 'search_assays';
    const row = await this.db
      .selectFrom(name)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('set_id', '=', setId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Fresh statistics of the set tables after a large search (at most once a minute; analyseSets). */
  async analyse(counts: SearchCounts): Promise<void> {
    await withSetsLane(() => analyseSets(this.db, counts));
  }
}

/** At most one ANALYZE of the set tables this often per database and process. */
const ANALYSE_EVERY_MS = 60_000;
const lastAnalysed = new WeakMap<Kysely<Database>, number>();

/**
 * Fresh statistics for the set tables after a large search: without them PostgreSQL guesses a new
 * set holds a few dozen rows and plans the results' joins and filters as nested loops over sets of
 * hundreds of thousands (seconds instead of milliseconds). ANALYZE samples, so it costs about the
 * same for any set size; SKIP_LOCKED lets a search that finds another ANALYZE running go on.
 * Statistics describe the tables, not one set, so once a minute is enough: after every large
 * search it took 0.5–1.5 s of the embedded database's one connection under load (issue 13, the
 * main reason logins waited).
 */
async function analyseSets(db: Kysely<Database>, counts: SearchCounts): Promise<void> {
  if (counts.actidscount + counts.stridscount < 5_000) return;
  const last = lastAnalysed.get(db);
  if (last !== undefined && Date.now() - last < ANALYSE_EVERY_MS) return;
  lastAnalysed.set(db, Date.now());
  // A tenth of the default sample (3,000 rows a table instead of 30,000): the planner needs the
  // sets' sizes and rough spread, and on the embedded database a full sample took up to 3 s.
  await db.transaction().execute(async (trx) => {
    await sql`SET LOCAL default_statistics_target = 10`.execute(trx);
    await sql`ANALYZE (SKIP_LOCKED) search_structures, search_activities, search_compounds, search_assays, search_references, search_clinical_compounds`.execute(
      trx,
    );
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
