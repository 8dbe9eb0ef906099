import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { SearchCounts, SearchCriteria } from '@kb/contracts/search';
import { ACTIVITY_CAP } from '@kb/contracts/search';
import type { Database } from '../../db/schema.ts';
import type { DatabaseKind } from '../../db/database.ts';
import { withSetsLane } from '../../db/db-priority.ts';
import { commitWithoutSets, materialiseSets, writeSessionSets } from './materialise.ts';
import { compileCriteria } from './search-plan.ts';
import type { LoadWindow } from './materialise.ts';
import { resolveTargetIds } from '../targets/target-resolver.ts';
import type { ChemEngine } from '../chemistry/chem-engine.ts';
import type { CompileContext, RowsPlan } from './row-compiler.ts';
import { StructureRowResolver } from './structure-query.ts';
import { BitmapIndex } from './bitmaps/bitmap-index.ts';
import { bitmapSearch, bitmapSearchOnRead, bitmapStructures } from './bitmaps/bitmap-counts.ts';
import type { BitmapSearchResult } from './bitmaps/bitmap-counts.ts';
import type { KbColumns } from './bitmaps/kb-columns.ts';
import type { WrittenActivityRows } from './bitmaps/activity-rows.ts';
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
   * candidates of a last structure row joined by AND / NOT (search-plan.ts compileCriteria). No
   * activity cap here: the whole search is capped when it is counted.
   */
  private async structuresOf(compiled: RowsPlan): Promise<Float64Array | null> {
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
   * One run, criteria → sets: the criteria compiled once into the search's plan (search-plan.ts;
   * not at all when held sets are written out as they are), counted early from the bitmaps when
   * their columns are current (`onCounts`), then the sets kept in memory (`keepInMemory`) or
   * written to the set tables (materialise.ts) in one transaction with the session's `ready`
   * (`target.finish`). The engine's hits are cleaned up whatever happens.
   */
  async runToSets(request: RunRequest, target: RunTarget): Promise<RunOutcome> {
    const { run } = target;
    const held = request.heldAnswer;
    // Read at once (each wait for the database is also one for the main thread under load). Alert
    // windows (new since a load) stay on the SQL path: the columns hold no load ids. Held sets
    // written out as they are need no plan (nor the units a plan reads).
    const [columns, planning] = await Promise.all([
      held || request.loadWindow || !this.bitmaps ? null : this.bitmaps.ifCurrent(),
      held ? null : this.context(request.userId, run),
    ]);
    try {
      const compiled = planning ? await compileCriteria(request.criteria, planning.ctx) : null;
      const scores = held ? held.scores : (planning?.structures.similarityScores() ?? null);
      const counted = columns && compiled ? await bitmapSearch(this.db, columns, compiled, this.activityCap, this.bitmaps!.rowSets) : null;
      const early: EarlyCounts | null = held ?? (counted && { columns: columns!, sets: counted });
      if (counted) this.countPaths.early++;
      run.progress = { ...run.progress, phase: 'sets' };
      if (early && request.keepInMemory) {
        // Nothing long is left: the session is made `ready` first and the counts answered then, so
        // a results call on any server finds it ready at once, instead of looking again for the
        // run's end (session-lifecycle.ts `afterOtherRuns`, every 250 ms).
        const version = crypto.randomUUID();
        await commitWithoutSets(this.db, target.setId, run.controller.signal, (trx) =>
          target.finish(trx, early.sets.counts, { version, kbVersion: early.columns.version }),
        );
        request.onCounts?.(early.sets.counts);
        return { counts: early.sets.counts, kept: { version, columns: early.columns, sets: early.sets, scores } };
      }
      // The sets are written next (seconds at L): the counts are answered now, and results calls,
      // on any server, wait for the sets (`run_recovery`) instead of answering "still running".
      if (counted) await target.countedEarly();
      if (early) request.onCounts?.(early.sets.counts);
      // From the early counts while their columns are still the knowledge base's (held sets are this answer whatever loads ran since).
      const fromBitmaps = early && (held || (await this.bitmaps!.stillCurrent(early.columns))) ? early : null;
      // Written in the sets lane (db/lane-pool.ts): sets written after early counts must not hold
      // the connections the next searches' counts need.
      const { counts, written } = await withSetsLane(() =>
        this.db.transaction().execute((trx) =>
          writeSessionSets(trx, {
            setId: target.setId,
            hash: target.hash,
            fromBitmaps,
            compiled: fromBitmaps ? null : compiled,
            cap: this.activityCap,
            loadWindow: request.loadWindow,
            similarities: scores,
            databaseKind: this.databaseKind,
            signal: run.controller.signal,
            // Written from the early counts: the same answer as held (its version kept), else a new one.
            commit: (trx, result, fromEarly) =>
              target.finish(trx, result, {
                version: held && fromEarly ? held.version : crypto.randomUUID(),
                kbVersion: fromEarly ? early!.columns.version : null,
              }),
          }),
        ),
      );
      // Told here, not through a helper: the run's last step stays in the run (listeners: results/session-rows.ts).
      if (written) for (const listener of this.writtenListeners) listener(target.setId, written.mark, written.rows);
      await this.analyse(counts);
      return { counts, written };
    } finally {
      await planning?.structures.cleanup().catch(() => undefined);
    }
  }

  /**
   * A search's sets on these columns, as a run counts them early, its linked sets made when first
   * read (bitmap-counts.ts `bitmapSearchOnRead`; their counts the `stored` ones until then): a
   * definition recomputed on the columns of its knowledge-base version (search-service.ts
   * `recompute`, which checked them current). A count over the activity cap throws.
   */
  async countOn(columns: KbColumns, compiled: CompiledCriteria, stored: SearchCounts): Promise<EarlyCounts> {
    return { columns, sets: await bitmapSearchOnRead(this.db, columns, compiled, this.activityCap, stored, this.bitmaps!.rowSets) };
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
