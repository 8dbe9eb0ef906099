import crypto from 'node:crypto';
import os from 'node:os';
import { sql } from 'kysely';
import type { Kysely, Selectable } from 'kysely';
import type { DefaultCounts, SearchCounts, SearchCriteria, SearchProgress } from '@kb/contracts/search';
import { ACTIVITY_CAP, SearchCriteriaSchema, SearchProgressSchema } from '@kb/contracts/search';
import { ERROR_CODES } from '@kb/contracts/errors';
import type { Database, SearchSessionsTable } from '../../db/schema.ts';
import { HttpError, forbidden } from '../../http/errors.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import { clearSets, compileCriteria, markSets, materialiseSets, readCounts } from './materialise.ts';
import { resolveTargetIds } from '../targets/target-resolver.ts';
import type { LoadWindow } from './materialise.ts';
import type { ChemEngine } from '../chemistry/chem-engine.ts';
import type { CompileContext, CompiledRow } from './row-compiler.ts';
import type { Expr } from './expression.ts';
import { StructureRowResolver, purgeStaleHits, searchCancelled } from './structure-query.ts';
import { withDbPriority, withSetsLane } from '../../db/db-priority.ts';
import { writeSearchLog } from './search-log.ts';
import { loadsVersion } from '../knowledge-base/kb-loads.ts';
import { BitmapIndex } from './bitmaps/bitmap-index.ts';
import { bitmapSearch, bitmapStructures } from './bitmaps/bitmap-counts.ts';
import type { BitmapSearchResult } from './bitmaps/bitmap-counts.ts';
import type { KbColumns } from './bitmaps/kb-columns.ts';
import { writeSetsFromBitmaps } from './bitmaps/write-sets.ts';
import type { WrittenActivityRows } from './bitmaps/write-sets.ts';
import type { DatabaseKind } from '../../db/database.ts';
import { WorkHeartbeat } from '../../db/work-heartbeat.ts';
import { SetVacuum } from './set-vacuum.ts';

export type { LoadWindow };

/** Search sessions unused for this long are dropped with their sets. */
const SESSION_TTL_HOURS = 24;
const DEFAULT_COUNTS_TTL_MS = 5 * 60_000;
/**
 * A running search's process says it is alive this often (PostgreSQL server only), with its
 * progress, and takes up cancels asked through other servers: their delay is at most this...
 */
const HEARTBEAT_MS = 2_000;
/** ...and is presumed dead after this long without a sign of life. */
const RUN_STALE_MS = 30_000;
/** How often a call waiting for another process's run of the same search looks again. */
const WAIT_POLL_MS = 250;
const HOST = os.hostname();

export interface SearchServiceOptions {
  /** Spec §5 cap (750,000); lowered only by tests that need to reach it on small data. */
  activityCap?: number;
  /** Longest a structure search may run before it is stopped with a message. */
  structureTimeLimitMs?: number;
  /**
   * True when no other process can use this database (embedded PGlite: one server per DATA_DIR),
   * so a run owned by another process instance is certainly dead. Detected when not given.
   */
  singleProcess?: boolean;
  /** A running search without a heartbeat for this long belongs to a dead process (default 30 s). */
  runStaleMs?: number;
  /** How often a running search's process writes its heartbeat and progress (default 2 s). */
  heartbeatMs?: number;
  /** Count searches from id bitmaps in memory instead of writing the sets (issue 18; `SEARCH_BITMAPS=1`). */
  bitmapCounts?: boolean;
  /** How id lists are sent when sets are written from the bitmaps (binary on a server, text to PGlite). */
  databaseKind?: DatabaseKind;
  /** A local file the bitmap engine's columns are kept in between starts (bitmaps/column-snapshot.ts). */
  columnSnapshotFile?: string | null;
  /** What went wrong beside the counts (a snapshot not used, property columns not read): counts go on, in SQL where need be. */
  onBitmapsError?: (message: string, error: unknown) => void;
  /** Housekeeping worth a line in the log (set tables vacuumed where autovacuum does not run). */
  log?: (message: string) => void;
}

/** A search counted from the bitmaps before its sets were written: the sets are written from it. */
interface EarlyCounts {
  columns: KbColumns;
  sets: BitmapSearchResult;
}

/** A run in this process: its cancel switch and what it has done so far. */
interface LiveRun {
  userId: number;
  controller: AbortController;
  progress: SearchProgress;
}

/** A run in flight in this process, shared by the calls that ask for the same search. */
interface InFlight {
  /** The owner, read from the database (claim) before the entry was made. */
  userId: number;
  /** The counts: from the bitmaps as soon as they are known, else when the sets are written. */
  promise: Promise<SearchCounts>;
  /** The sets written and the session ready (or the run's failure). */
  done: Promise<SearchCounts>;
}

export type SessionKind = 'search' | 'selection';

/** A search session row with what the crash checks found: are its sets there, is its run dead. */
export type SessionState = Selectable<SearchSessionsTable> & {
  /** The set's mark is there: the sets hold the rows of the session's search. */
  sets_kept: boolean;
  /** Running (or about to) in a process that is gone: nobody will finish it. */
  abandoned: boolean;
};

class RollbackWith extends Error {
  constructor(readonly counts: SearchCounts) {
    super('rollback');
  }
}

/** Stable hash of criteria (and of a load window): the same search in the same session is not run twice. */
function criteriaHash(criteria: SearchCriteria, loadWindow: LoadWindow | null = null): string {
  const window = loadWindow ? `|loads:${loadWindow.afterLoad}:${loadWindow.upToLoad}` : '';
  return crypto
    .createHash('sha256')
    .update(JSON.stringify(criteria) + window)
    .digest('hex');
}

/** The load window a session was run with (alerts, migration 0026), or null for an ordinary search. */
function sessionWindow(session: Pick<Selectable<SearchSessionsTable>, 'new_since_load' | 'new_until_load'>): LoadWindow | null {
  if (session.new_since_load == null || session.new_until_load == null) return null;
  return { afterLoad: Number(session.new_since_load), upToLoad: Number(session.new_until_load) };
}

/** Is a process of this host alive? (signal 0 only checks; EPERM means it exists under another user.) */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const superseded = () =>
  new HttpError(409, {
    message: 'This search session was run again with other criteria meanwhile; its newer search is the one kept.',
    code: ERROR_CODES.conflict,
  });

/**
 * Search sessions: owned by one user, identified by a client-made UUID, holding the id sets of
 * one search. The spec's three log calls and the count call arrive together for one session, so
 * one run is shared by all of them in this process; another process running the same search is
 * waited for through the database (status `running`, its owner and heartbeat).
 *
 * Crash consistency (docs/results.md "Sessions after a crash"): the sets are UNLOGGED and vanish in
 * a crash recovery while the session row says `ready`; a mark written with the sets tells. A ready
 * session without its mark, or a running one whose process is gone, is re-run from its stored
 * criteria before anything reads it (`keptSession`, and the reuse check of a run).
 */
export class SearchService {
  private readonly runs = new Map<string, InFlight>();
  private readonly live = new Map<string, LiveRun>();
  private readonly bitmaps: BitmapIndex | null;
  private defaultCountsCache: { at: number; version: string; value: DefaultCounts } | null = null;
  private readonly activityCap: number;
  private readonly structureTimeLimitMs: number;
  private readonly runStaleMs: number;
  private readonly heartbeatMs: number;
  /** How id lists are sent to the database (binary int4[] on a server, text to PGlite); results use it too. */
  readonly databaseKind: DatabaseKind;
  private readonly onBitmapsError: SearchServiceOptions['onBitmapsError'];
  private singleProcess: Promise<boolean> | null;
  /** While searches run: their progress for other processes, and cancels taken by another server. */
  private readonly heartbeat: WorkHeartbeat;
  private stopping = false;
  /** Reclaims the set tables' dead rows where autovacuum does not (search/set-vacuum.ts). */
  private readonly vacuum: SetVacuum;
  private readonly log: SearchServiceOptions['log'];
  /** This process in search_sessions.run_owner: host and pid (checked for life on the same host), and an instance id. */
  readonly owner = `${HOST}:${process.pid}:${crypto.randomBytes(6).toString('hex')}`;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: ChemEngine,
    options: SearchServiceOptions = {},
  ) {
    this.activityCap = options.activityCap ?? ACTIVITY_CAP;
    this.structureTimeLimitMs = options.structureTimeLimitMs ?? 120_000;
    this.runStaleMs = options.runStaleMs ?? RUN_STALE_MS;
    this.heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
    this.heartbeat = new WorkHeartbeat({ ms: this.heartbeatMs, beat: () => this.beat() });
    // Text arrays when not told: both drivers take them.
    this.databaseKind = options.databaseKind ?? 'pglite';
    this.onBitmapsError = options.onBitmapsError;
    this.singleProcess = options.singleProcess === undefined ? null : Promise.resolve(options.singleProcess);
    this.log = options.log;
    this.vacuum = new SetVacuum(db, this.databaseKind, options.log ? { log: options.log } : {});
    this.bitmaps = options.bitmapCounts
      ? new BitmapIndex(db, {
          snapshotFile: options.columnSnapshotFile ?? null,
          ...(options.onBitmapsError ? { onError: options.onBitmapsError } : {}),
        })
      : null;
  }

  private async context(run?: LiveRun): Promise<{ ctx: CompileContext; structures: StructureRowResolver }> {
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
   * Counts without keeping a session (`api/guidedsearch/count`): the sets are built and rolled back.
   * With a load window, only rows first brought in by those loads count (alerts).
   */
  /**
   * Count calls answered by each path since start, and search runs answered early from the bitmaps
   * (their sets then written from them too): tests and benchmarks check which one ran.
   */
  readonly countPaths = { bitmaps: 0, sql: 0, early: 0 };

  /**
   * Whether a last structure row joined by AND / NOT is searched among the structures the other
   * rows leave (on by default; tests and the results bench switch it off for the reference run).
   */
  structureCandidates = true;
  /** Above this share of the indexed structures the engine searches everything (the same answer; tests raise it to 1). */
  structureCandidatesMaxShare = 0.5;

  private readonly writtenListeners: ((setId: number, mark: string, rows: WrittenActivityRows) => void)[] = [];

  /**
   * Calls `listener` with the activity rows of every set this process writes from the bitmaps,
   * once committed, with the set's mark (results/session-rows.ts holds them for charts and filters).
   */
  onSetsWritten(listener: (setId: number, mark: string, rows: WrittenActivityRows) => void): void {
    this.writtenListeners.push(listener);
  }

  private announceWritten(setId: number, written: { mark: string; rows: WrittenActivityRows }): void {
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

  /** Where the bitmap engine's columns were last read from (null: not read, or no engine). */
  get bitmapsSource(): 'database' | 'snapshot' | null {
    return this.bitmaps?.lastSource ?? null;
  }

  async countOnly(criteria: SearchCriteria, options: { loadWindow?: LoadWindow | null } = {}): Promise<SearchCounts> {
    const { ctx, structures } = await this.context();
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
   * What the running search of a session has done (this process), else its stored state. The live
   * run's owner was read from the database when it started; it is compared before anything of the
   * run is answered. (Not re-read here: on PGlite's one connection that read would wait for the
   * run's own sets transaction.)
   */
  async progress(auth: AuthContext, sessionId: string): Promise<SearchProgress> {
    const run = this.live.get(sessionId);
    if (run) {
      if (run.userId !== auth.userId) throw forbidden('This search session belongs to another user.');
      return run.progress;
    }
    const session = await this.state(sessionId);
    if (session && session.user_id !== auth.userId) throw forbidden('This search session belongs to another user.');
    // Run by another server: its heartbeat wrote how far it got.
    if (session && this.runningElsewhere(session)) {
      const written = SearchProgressSchema.safeParse(session.run_progress);
      return written.success
        ? { ...written.data, sessionid: sessionId, status: 'running' }
        : { sessionid: sessionId, status: 'running', phase: null, searched: 0, total: 0, hits: 0, message: null };
    }
    const status = !session
      ? 'none'
      : session.status === 'ready'
        ? 'ready'
        : session.status === 'failed'
          ? 'failed'
          : session.status === 'cancelled'
            ? 'cancelled'
            : 'none';
    return { sessionid: sessionId, status, phase: null, searched: 0, total: 0, hits: 0, message: session?.error ?? null };
  }

  /** Stops the running search of a session; its waiting calls answer 409 and no sets are kept. Ownership as in `progress`. */
  async cancel(auth: AuthContext, sessionId: string): Promise<boolean> {
    const run = this.live.get(sessionId);
    if (!run) {
      const session = await this.state(sessionId);
      if (session && session.user_id !== auth.userId) throw forbidden('This search session belongs to another user.');
      if (!session || !this.runningElsewhere(session)) return false;
      // The running server aborts at its next heartbeat (its waiting calls then answer 409).
      const asked = await this.db
        .updateTable('search_sessions')
        .set({ cancel_requested_at: sql<Date>`now()` })
        .where('id', '=', sessionId)
        .where('status', '=', 'running')
        .where('run_owner', '=', session.run_owner)
        .executeTakeFirst();
      return Number(asked.numUpdatedRows) > 0;
    }
    if (run.userId !== auth.userId) throw forbidden('This search session belongs to another user.');
    run.controller.abort();
    return true;
  }

  /**
   * Runs (or reuses) the search of one session and answers its six counts. A load window keeps
   * only the rows those loads brought in (a session opened from an alert); it is kept with the
   * session, so a re-run after lost sets restricts the same way.
   */
  async run(
    auth: AuthContext,
    sessionId: string,
    criteria: SearchCriteria,
    kind: SessionKind = 'search',
    loadWindow: LoadWindow | null = null,
  ): Promise<SearchCounts> {
    // Ownership before the in-flight runs: another user's call must not join (and learn) a run.
    await this.claim(auth, sessionId, kind);
    return this.shared(auth.userId, sessionId, criteria, criteriaHash(criteria, loadWindow), loadWindow);
  }

  /**
   * The run of this search in this process, started if there is none: its counts (`counts`, as soon
   * as they are known) or its sets written (`sets`: results, charts and exports read them).
   */
  private shared(
    userId: number,
    sessionId: string,
    criteria: SearchCriteria,
    hash: string,
    loadWindow: LoadWindow | null = null,
    until: 'counts' | 'sets' = 'counts',
  ): Promise<SearchCounts> {
    const key = `${sessionId}:${hash}`;
    const existing = this.runs.get(key);
    if (existing) {
      if (existing.userId !== userId) return Promise.reject(forbidden('This search session belongs to another user.'));
      return until === 'counts' ? existing.promise : existing.done;
    }
    let early: ((counts: SearchCounts) => void) | null = null;
    const promise = new Promise<SearchCounts>((resolve) => (early = resolve));
    const done = this.runOnce(userId, sessionId, criteria, hash, loadWindow, (counts) => early!(counts)).finally(() =>
      this.runs.delete(key),
    );
    // Counts not given early are the written sets' (a failure rejects both).
    const counts = Promise.race([promise, done]);
    // Nobody may wait for the sets of a search whose counts were answered early.
    done.catch(() => undefined);
    this.runs.set(key, { userId, promise: counts, done });
    return until === 'counts' ? counts : done;
  }

  /**
   * Answers a run's counts from the bitmaps (when their columns are current) before its sets are
   * written: the search page shows them at once; results calls, on any server, wait for the sets
   * (`run_recovery`) instead of answering "still running". A count over the activity cap throws
   * here, as writing the sets would. Answers the sets found, to be written from memory (null: the
   * columns are not current, and the SQL path counts and writes).
   */
  private async countEarly(
    sessionId: string,
    hash: string,
    compiled: Awaited<ReturnType<typeof compileCriteria>>,
    onCounts: (counts: SearchCounts) => void,
  ): Promise<EarlyCounts | null> {
    const columns = this.bitmaps ? await this.bitmaps.ifCurrent() : null;
    if (!columns) return null;
    const sets = await bitmapSearch(this.db, columns, compiled, this.activityCap, this.bitmaps!.rowSets);
    await this.db
      .updateTable('search_sessions')
      .set({ run_recovery: true })
      .where('id', '=', sessionId)
      .where('status', '=', 'running')
      .where('criteria_hash', '=', hash)
      .where('run_owner', '=', this.owner)
      .execute();
    this.countPaths.early++;
    onCounts(sets.counts);
    return { columns, sets };
  }

  /** Resolves once this process's runs of the session are over: sets written, housekeeping done (tests, shutdown). */
  async settled(sessionId: string): Promise<void> {
    for (const [key, run] of [...this.runs]) if (key.startsWith(`${sessionId}:`)) await run.done.catch(() => undefined);
  }

  /** A run of this session by another live process (only a PostgreSQL server has other processes). */
  private runningElsewhere(session: SessionState): boolean {
    return session.status === 'running' && !session.abandoned && session.run_owner !== null && session.run_owner !== this.owner;
  }

  private runningHere(sessionId: string): boolean {
    for (const key of this.runs.keys()) if (key.startsWith(`${sessionId}:`)) return true;
    return false;
  }

  private async runOnce(
    userId: number,
    sessionId: string,
    criteria: SearchCriteria,
    hash: string,
    loadWindow: LoadWindow | null,
    onCounts?: (counts: SearchCounts) => void,
  ): Promise<SearchCounts> {
    let session = await this.state(sessionId);
    // Another process runs this very search: wait for it rather than build the same sets twice.
    while (
      session &&
      session.criteria_hash === hash &&
      (session.status === 'running' || session.status === 'new') &&
      !session.abandoned &&
      session.run_owner !== this.owner
    ) {
      await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
      session = await this.state(sessionId);
    }
    if (!session || session.user_id !== userId) throw forbidden('This search session belongs to another user.');
    if (session.criteria_hash === hash && session.status === 'ready' && session.sets_kept) {
      await this.db.updateTable('search_sessions').set({ last_used_at: new Date() }).where('id', '=', sessionId).execute();
      return readCounts(this.db, session.set_id);
    }
    // The same search again after its sets were lost (or its process died): rebuild them and keep
    // what the user did in its results (their filters are re-applied by the results on first read).
    const recovery = session.criteria_hash === hash && (session.status === 'ready' || session.abandoned);
    const startedAt = performance.now();
    // One search_log row per run the user asked for (a recovery re-builds a search already logged).
    const log = (counts: SearchCounts | null) =>
      recovery
        ? Promise.resolve()
        : writeSearchLog(this.db, {
            userId,
            sessionId,
            criteria,
            counts,
            durationMs: performance.now() - startedAt,
            failed: counts === null,
          });
    const run: LiveRun = {
      userId,
      controller: new AbortController(),
      progress: { sessionid: sessionId, status: 'running', phase: null, searched: 0, total: 0, hits: 0, message: null },
    };
    this.live.set(sessionId, run);
    this.heartbeat.busy();
    let structures: StructureRowResolver | null = null;
    try {
      const { _rows: _dropped, ...keptFilters } = (session.filters ?? {}) as Record<string, unknown>;
      // Taken before any work, and only from the state judged above: two servers handed the same
      // session at once (the search page's count and log calls, split by a load balancer) must not
      // both run it. The loser finds the winner's run and waits for it (the loop above).
      const started = await this.db
        .updateTable('search_sessions')
        .set({
          status: 'running',
          criteria: JSON.stringify(criteria),
          criteria_hash: hash,
          error: null,
          // A new search in the session starts without the filters of the old one.
          filters: recovery ? JSON.stringify(keptFilters) : '{}',
          kb_max_str_id: await this.maxStrId(),
          run_owner: this.owner,
          run_heartbeat_at: sql<Date>`now()`,
          run_recovery: recovery,
          run_progress: null,
          cancel_requested_at: null,
          new_since_load: loadWindow?.afterLoad ?? null,
          new_until_load: loadWindow?.upToLoad ?? null,
        })
        .where('id', '=', sessionId)
        .where('status', '=', session.status)
        .where('run_owner', 'is not distinct from', session.run_owner)
        .where('criteria_hash', 'is not distinct from', session.criteria_hash)
        .executeTakeFirst();
      if (Number(started.numUpdatedRows) === 0) {
        // Another process (or call) took the session first: share its outcome, or supersede it.
        if (this.live.get(sessionId) === run) this.live.delete(sessionId);
        return await this.runOnce(userId, sessionId, criteria, hash, loadWindow, onCounts);
      }
      const prepared = await this.context(run);
      structures = prepared.structures;
      const similarityHitIds = prepared.structures.similarityHitIds;
      const ctx = prepared.ctx;
      const compiled = await compileCriteria(criteria, ctx);
      // Alert windows (new since a load) stay on the SQL path: the columns hold no load ids.
      const early = onCounts && !loadWindow ? await this.countEarly(sessionId, hash, compiled, onCounts) : null;
      run.progress = { ...run.progress, phase: 'sets' };
      // From the bitmaps only while their columns are still the knowledge base's, else in SQL.
      const fromBitmaps = early && (await this.bitmaps!.stillCurrent(early.columns)) ? early : null;
      let written: { mark: string; rows: WrittenActivityRows } | null = null;
      // In the sets lane (db/lane-pool.ts): sets written after early counts must not hold the
      // connections the next searches' counts need.
      const counts = await withSetsLane(() =>
        this.db.transaction().execute(async (trx) => {
          await clearSets(trx, session.set_id);
          const fromMemory = fromBitmaps
            ? await writeSetsFromBitmaps(trx, session.set_id, fromBitmaps.columns, fromBitmaps.sets, this.databaseKind)
            : null;
          const result = fromMemory
            ? fromMemory.counts
            : await materialiseSets(trx, session.set_id, compiled, this.activityCap, { loadWindow });
          await copySimilarities(trx, session.set_id, similarityHitIds);
          // Cancelled while the sets were being built: roll them back.
          if (run.controller.signal.aborted) throw searchCancelled();
          // Sets, mark and `ready` commit together: a ready session has its mark unless a crash took both.
          const mark = await markSets(trx, session.set_id, hash);
          if (fromMemory) written = { mark, rows: fromMemory.rows };
          const done = await trx
            .updateTable('search_sessions')
            .set({ status: 'ready', counts: JSON.stringify(result), last_used_at: new Date(), run_heartbeat_at: null, run_recovery: false })
            .where('id', '=', sessionId)
            .where('status', '=', 'running')
            .where('criteria_hash', '=', hash)
            .where('run_owner', '=', this.owner)
            .executeTakeFirst();
          if (Number(done.numUpdatedRows) === 0) throw superseded();
          return result;
        }),
      );
      if (written) this.announceWritten(session.set_id, written);
      await withSetsLane(() => analyseSets(this.db, counts));
      await log(counts);
      // Housekeeping must never fail a search (nor, unhandled, the process).
      this.purgeExpired()
        .catch(() => undefined)
        .then(() => (this.stopping ? [] : this.vacuum.maybe()))
        .catch((error: unknown) =>
          this.log?.(
            `vacuuming the set tables failed (tried again after a later search): ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
      return counts;
    } catch (error) {
      const cancelled = run.controller.signal.aborted;
      // A stopping server leaves the session `running`: the next process finds it abandoned and re-runs it.
      if (!this.stopping) {
        const message = cancelled ? 'Cancelled by the user.' : error instanceof Error ? error.message : String(error);
        await this.db
          .updateTable('search_sessions')
          .set({ status: cancelled ? 'cancelled' : 'failed', error: message.slice(0, 1000), run_heartbeat_at: null, run_recovery: false })
          .where('id', '=', sessionId)
          .where('status', '=', 'running')
          .where('criteria_hash', '=', hash)
          .where('run_owner', '=', this.owner)
          .execute();
        if (!cancelled) await log(null);
      }
      throw cancelled ? searchCancelled() : error;
    } finally {
      // A newer run of the same session may have taken the slot: leave it alone.
      if (this.live.get(sessionId) === run) this.live.delete(sessionId);
      if (this.live.size === 0) this.heartbeat.idle();
      await structures?.cleanup().catch(() => undefined);
    }
  }

  /**
   * The caller's session (403 for another user's, null when there is none) with its sets in place:
   * a ready session whose sets were lost, or a running one whose process died, is first re-run from
   * its stored criteria, and this call waits for that run (so does one joining a recovery already
   * under way). A session still running normally is answered as it is (`running`).
   */
  async keptSession(auth: AuthContext, sessionId: string): Promise<SessionState | null> {
    const session = await this.state(sessionId);
    if (session && session.user_id !== auth.userId) throw forbidden('This search session belongs to another user.');
    return this.keep(session);
  }

  /** As `keptSession`, for work that already holds the session's owner (a background export). */
  async keptSessionById(sessionId: string): Promise<SessionState | null> {
    return this.keep(await this.state(sessionId));
  }

  private async keep(first: SessionState | null): Promise<SessionState | null> {
    let session = first;
    // Bounded: a re-run that fails leaves the session `failed`, which is answered as such.
    for (let attempt = 0; session && attempt < 3; attempt++) {
      const lost = session.status === 'ready' && !session.sets_kept;
      const recovering = session.status === 'running' && session.run_recovery;
      if (!lost && !recovering && !session.abandoned) return session;
      const criteria = SearchCriteriaSchema.safeParse(session.criteria);
      if (!session.criteria_hash || !criteria.success) return session;
      try {
        // A re-run is a search: bulk work on the database, behind logins and pages.
        await withDbPriority('bulk', () =>
          this.shared(session!.user_id, session!.id, criteria.data, session!.criteria_hash!, sessionWindow(session!), 'sets'),
        );
      } catch {
        // The session row says what became of it (failed, cancelled, run again with other criteria).
      }
      session = await this.state(session.id);
    }
    return session;
  }

  /** The session row, whether its sets are kept (one probe of the mark's primary key) and whether its run is dead. */
  async state(sessionId: string): Promise<SessionState | null> {
    const row = await this.db
      .selectFrom('search_sessions as s')
      .selectAll('s')
      .select((eb) => [
        eb.exists(eb.selectFrom('search_set_marks as m').select('m.set_id').whereRef('m.set_id', '=', 's.set_id')).as('sets_kept'),
        sql<number | null>`extract(epoch FROM now() - s.run_heartbeat_at) * 1000`.as('heartbeat_age_ms'),
      ])
      .where('s.id', '=', sessionId)
      .executeTakeFirst();
    if (!row) return null;
    const { heartbeat_age_ms: age, ...session } = row;
    const active = session.status === 'running' || session.status === 'new';
    return {
      ...session,
      sets_kept: Boolean(session.sets_kept),
      abandoned: active && !(await this.runnerAlive(session, age == null ? null : Number(age))),
    };
  }

  /** Is the process named in run_owner still working on this session? */
  private async runnerAlive(session: Selectable<SearchSessionsTable>, heartbeatAgeMs: number | null): Promise<boolean> {
    if (session.run_owner === this.owner) return this.runningHere(session.id);
    if (!session.run_owner) return this.runningHere(session.id);
    if (await this.isSingleProcess()) return false;
    const [host, pid] = session.run_owner.split(':');
    if (host === HOST && pid && !pidAlive(Number(pid))) return false;
    return heartbeatAgeMs != null && heartbeatAgeMs < this.runStaleMs;
  }

  /** PGlite (PostgreSQL compiled to WebAssembly) serves one process; a server may serve many. */
  private isSingleProcess(): Promise<boolean> {
    this.singleProcess ??= sql<{ version: string }>`SELECT version() AS version`
      .execute(this.db)
      .then(({ rows }) => /wasm/i.test(rows[0]?.version ?? ''));
    return this.singleProcess;
  }

  /**
   * Says every few seconds that this process's searches still run, with their progress (other
   * processes take over a silent one's sessions and answer its progress), and aborts those whose
   * cancel another server took. One process on PGlite: nobody else reads it.
   */
  private async beat(): Promise<void> {
    const runs = [...this.live.entries()].map(([id, run]) => ({ id, progress: run.progress }));
    if (!runs.length || (await this.isSingleProcess())) return;
    const { rows } = await sql<{ id: string }>`UPDATE search_sessions s
        SET run_heartbeat_at = now(), run_progress = v.progress
        FROM jsonb_to_recordset(${JSON.stringify(runs)}::jsonb) AS v(id text, progress jsonb)
        WHERE s.id = v.id AND s.run_owner = ${this.owner} AND s.status IN ('new', 'running')
        RETURNING s.id, s.cancel_requested_at IS NOT NULL AS cancelled`.execute(this.db);
    for (const row of rows as { id: string; cancelled: boolean }[]) if (row.cancelled) this.live.get(row.id)?.controller.abort();
  }

  /** The highest structure id now: results compare it later to say new structures arrived (strIdNewlyAddedStatus). */
  private async maxStrId(): Promise<number> {
    const { rows } = await sql<{ max: number | null }>`SELECT max(str_id) AS max FROM structures`.execute(this.db);
    return Number(rows[0]?.max ?? 0);
  }

  /** The session row for this user, created on first use; another user's session id is refused. */
  async claim(auth: AuthContext, sessionId: string, kind: SessionKind = 'search') {
    await this.db
      .insertInto('search_sessions')
      .values({
        id: sessionId,
        user_id: auth.userId,
        user_session_id: auth.sessionId,
        kind,
        run_owner: this.owner,
        run_heartbeat_at: sql<Date>`now()`,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    const session = await this.db.selectFrom('search_sessions').selectAll().where('id', '=', sessionId).executeTakeFirstOrThrow();
    if (session.user_id !== auth.userId) throw forbidden('This search session belongs to another user.');
    return session;
  }

  /** The session if it is this user's and has been run; null when it does not exist. */
  async owned(auth: AuthContext, sessionId: string) {
    const session = await this.db.selectFrom('search_sessions').selectAll().where('id', '=', sessionId).executeTakeFirst();
    if (!session) return null;
    if (session.user_id !== auth.userId) throw forbidden('This search session belongs to another user.');
    return session;
  }

  async tableRows(setId: number, table: 'structures' | 'activities' | 'assays'): Promise<number> {
    const name = table === 'structures' ? 'search_structures' : table === 'activities' ? 'search_activities' : 'search_assays';
    const row = await this.db
      .selectFrom(name)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('set_id', '=', setId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Counts of the whole knowledge base; cached briefly (a full count of 20 M activities is not free). */
  async defaultCounts(): Promise<DefaultCounts> {
    // A load that ended (here, on another server or from the command line) makes the cache stale at once.
    const version = await loadsVersion(this.db);
    const cached = this.defaultCountsCache;
    if (cached && cached.version === version && Date.now() - cached.at < DEFAULT_COUNTS_TTL_MS) return cached.value;
    const { rows } = await sql<DefaultCounts>`SELECT
        (SELECT count(*)::int FROM documents) AS "refIdsCount",
        (SELECT count(*)::int FROM structures) AS "strIdsCount",
        (SELECT count(*)::int FROM compounds) AS "gvkIdsCount",
        (SELECT count(*)::int FROM activities) AS "actIdsCount",
        (SELECT count(*)::int FROM assays) AS "assayIdsCount",
        (SELECT count(*)::int FROM clinical_compounds) AS "clinicalCompoundIdsCount",
        (SELECT count(*)::int FROM clinical_compounds cc JOIN clinical_phases p ON p.phase_id = cc.highest_phase_id
          WHERE p.name = 'Launched') AS "drugIdsCount"`.execute(this.db);
    const value = rows[0]!;
    this.defaultCountsCache = { at: Date.now(), version, value };
    return value;
  }

  /** Forget cached knowledge-base counts (after a load). */
  invalidateDefaultCounts(): void {
    this.defaultCountsCache = null;
  }

  /**
   * Drops a session's sets (spec `dropunloggedtables`). The session row stays, with its criteria,
   * summary and counts, as a recent search the user can run again.
   */
  async dropSets(setId: number, sessionId: string, status: 'dropped' | 'expired' = 'dropped'): Promise<void> {
    await clearSets(this.db, setId);
    await this.db.updateTable('search_sessions').set({ status }).where('id', '=', sessionId).execute();
  }

  /** Drops the sets of sessions nobody used for a day (derived data: re-running rebuilds them). */
  async purgeExpired(): Promise<number> {
    const old = await this.db
      .selectFrom('search_sessions')
      .select(['id', 'set_id'])
      .where('status', 'in', ['ready', 'failed', 'running', 'cancelled'])
      .where('last_used_at', '<', sql<Date>`now() - make_interval(hours => ${SESSION_TTL_HOURS})`)
      .limit(100)
      .execute();
    for (const session of old) await this.dropSets(session.set_id, session.id, 'expired');
    await purgeStaleHits(this.db);
    // Results rows (filters, similarity sorts) and SAR sets written by a request that finished after its set was dropped.
    for (const table of ['result_filtered', 'result_similarity', 'sar_sets', 'sar_set_structures', 'sar_set_activities'] as const) {
      await sql`DELETE FROM ${sql.table(table)} r WHERE NOT EXISTS (SELECT 1 FROM search_sessions s WHERE s.set_id = r.set_id AND s.status = 'ready')`.execute(
        this.db,
      );
    }
    return old.length;
  }

  async close(): Promise<void> {
    this.stopping = true;
    this.heartbeat.idle();
    for (const run of this.live.values()) run.controller.abort();
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
 * Similarity rows: each structure keeps its best Tanimoto, each activity its structure's, and each
 * assay and reference the best of its activities, so that every tab of the search can show and
 * sort by the score from its own set (one pass here instead of a lookup per row in every page).
 */
async function copySimilarities(trx: Kysely<Database>, setId: number, hitIds: readonly number[]): Promise<void> {
  if (hitIds.length === 0) return;
  await sql`UPDATE search_structures ss SET similarity = h.similarity
    FROM (SELECT str_id, max(similarity) AS similarity FROM structure_hits WHERE hit_id = ANY(${[...hitIds]}::bigint[]) GROUP BY str_id) h
    WHERE ss.set_id = ${setId} AND ss.str_id = h.str_id`.execute(trx);
  await sql`UPDATE search_activities sa SET similarity = ss.similarity FROM search_structures ss
    WHERE sa.set_id = ${setId} AND ss.set_id = ${setId} AND ss.str_id = sa.str_id AND ss.similarity IS NOT NULL`.execute(trx);
  const best = (key: 'assay_id' | 'ref_id') => sql`SELECT ${sql.ref(key)} AS id, max(similarity) AS similarity FROM search_activities
    WHERE set_id = ${setId} AND similarity IS NOT NULL AND ${sql.ref(key)} IS NOT NULL GROUP BY ${sql.ref(key)}`;
  await sql`UPDATE search_assays sy SET similarity = m.similarity FROM (${best('assay_id')}) m
    WHERE sy.set_id = ${setId} AND sy.assay_id = m.id`.execute(trx);
  await sql`UPDATE search_references sr SET similarity = m.similarity FROM (${best('ref_id')}) m
    WHERE sr.set_id = ${setId} AND sr.ref_id = m.id`.execute(trx);
}
