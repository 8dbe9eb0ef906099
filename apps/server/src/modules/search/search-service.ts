import { isDeepStrictEqual } from 'node:util';
import crypto from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { DefaultCounts, SearchCounts, SearchCriteria, SearchProgress } from '@kb/contracts/search';
import { SearchCriteriaSchema } from '@kb/contracts/search';
import type { Database, SearchSessionsTable } from '../../db/schema.ts';
import { forbidden } from '../../http/errors.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import { withDbPriority } from '../../db/db-priority.ts';
import type { DatabaseKind } from '../../db/database.ts';
import { readCounts } from './materialise.ts';
import { compileCriteria } from './search-plan.ts';
import type { LoadWindow } from './materialise.ts';
import type { ChemEngine } from '../chemistry/chem-engine.ts';
import { searchCancelled } from './structure-query.ts';
import { writeSearchLog } from './search-log.ts';
import type { WrittenActivityRows } from './bitmaps/activity-rows.ts';
import type { KbColumns } from './bitmaps/kb-columns.ts';
import { SetVacuum } from './set-vacuum.ts';
import { KbCountsCache } from './default-counts.ts';
import { SearchRunner } from './search-run.ts';
import type { CountOptions, SearchRunOptions } from './search-run.ts';
import { SessionLifecycle, sessionWindow } from './session-lifecycle.ts';
import type { SessionKind, SessionState } from './session-lifecycle.ts';
import { SessionSetStore, heldHas } from './session-sets.ts';
import type { HeldSets, SetsNeed } from './session-sets.ts';

// KbColumns: what other modules (the sheet) read of the columns in memory, through `columnsIfCurrent`.
export type { CountOptions, KbColumns, LoadWindow, SessionKind, SessionState };

export interface SearchServiceOptions extends SearchRunOptions {
  /**
   * True when no other process can use this database (embedded PGlite: one server per DATA_DIR),
   * so a run owned by another process instance is certainly dead. Detected when not given.
   */
  singleProcess?: boolean;
  /** A running search without a heartbeat for this long belongs to a dead process (default 30 s). */
  runStaleMs?: number;
  /** How often a running search's process writes its heartbeat and progress (default 2 s). */
  heartbeatMs?: number;
  /** Housekeeping worth a line in the log (set tables vacuumed where autovacuum does not run). */
  log?: (message: string) => void;
  /**
   * Where a search's sets live once its counts came from the bitmaps (docs/results.md "Sets held in
   * memory"): 'memory' holds them in this process (`setsBudgetBytes`) and writes the set tables only
   * when a reader needs them; 'tables' writes them with every run (the reference path of the parity
   * tests and benchmarks). Default 'tables'; the server runs with 'memory' (services.ts).
   */
  sets?: 'memory' | 'tables';
  /** Memory the held sets may take (session-sets.ts, default SESSION_SETS_BUDGET). */
  setsBudgetBytes?: number;
  /** How long sets computed before a load ended are kept in memory after it (default 30 minutes; session-sets.ts `retireOlder`). */
  oldColumnsGraceMs?: number;
}

const OLD_COLUMNS_GRACE_MS = 30 * 60_000;

/**
 * Housekeeping after a search at most this often per process: it is seven statements (expired
 * sessions, stale structure hits, orphaned results rows), each a turn of the main thread and a
 * connection, and sessions expire after a day — after every search it was churn under load.
 */
const HOUSEKEEPING_EVERY_MS = 60_000;

/** What a results call needs of a session: its sets in the set tables (SQL joins them), or its definition only (read from memory). */
export type SessionNeed = 'tables' | 'definition';

/** A run in flight in this process, shared by the calls that ask for the same search. */
interface InFlight {
  /** The owner, read from the database (claim) before the entry was made. */
  userId: number;
  /** The counts: from the bitmaps as soon as they are known, else when the sets are written. */
  promise: Promise<SearchCounts>;
  /** The sets written and the session ready (or the run's failure). */
  done: Promise<SearchCounts>;
}

/**
 * What a caller of a search's run waits for: its counts (`counts`, as soon as they are known), its
 * sets written to the set tables (`tables`: a reader joins them), its answer ready wherever its sets
 * are (`ready`: a reader of held sets waiting for a run in progress, here or on another server,
 * reuses its answer instead of running it again into the tables), or a ready answer (its
 * `sets_version`) this server cannot recompute run again and held (`rerunOf`, `rerunHeld`): waited
 * for like `ready`, nothing written.
 */
type RunWait = 'counts' | 'tables' | 'ready' | { rerunOf: string | null };

/**
 * Search sessions: owned by one user, identified by a client-made UUID, holding the id sets of
 * one search. The spec's three log calls and the count call arrive together for one session, so
 * one run is shared by all of them in this process; another process running the same search is
 * waited for through the database (status `running`, its owner and heartbeat).
 *
 * Crash consistency (docs/results.md "Sessions after a crash"): sets held in memory (the default)
 * are recomputed from the session's definition by whichever process reads them. Sets written to
 * the UNLOGGED tables (a load window, `SEARCH_SETS=tables`) vanish in a crash recovery while the
 * session row says `ready`; a mark written with the sets tells. A ready session without its mark,
 * or a running one whose process is gone, is re-run from its stored criteria before anything
 * reads it (`keptSession`, and the reuse check of a run).
 *
 * This class is the module's face and drives one run; the session row's states and the live runs
 * are session-lifecycle.ts, what a run computes (criteria → counts and sets) is search-run.ts.
 */
export class SearchService {
  private readonly runs = new Map<string, InFlight>();
  private readonly sessions: SessionLifecycle;
  private readonly runner: SearchRunner;
  private stopping = false;
  private lastHousekeeping = Number.NEGATIVE_INFINITY;
  /** Reclaims the set tables' dead rows where autovacuum does not (search/set-vacuum.ts). */
  private readonly vacuum: SetVacuum;
  private readonly log: SearchServiceOptions['log'];
  /** How id lists are sent to the database (binary int4[] on a server, text to PGlite); results use it too. */
  readonly databaseKind: DatabaseKind;
  /** This process in search_sessions.run_owner (session-lifecycle.ts). */
  readonly owner: string;
  /** Count calls answered by each path since start, and runs answered early from the bitmaps: tests and benchmarks read it. */
  readonly countPaths: { bitmaps: number; sql: number; early: number };
  /** Sets held in memory (null: every run writes the set tables). */
  private readonly held: SessionSetStore | null;
  private readonly oldColumnsGraceMs: number;
  private readonly kbCounts: KbCountsCache;
  /** Recomputations of a session's sets from its definition in flight, per set id (one at a time). */
  private readonly recomputing = new Map<number, Promise<HeldSets | null>>();
  /** Sets answered from memory since start (held, of which recomputed) and runs that wrote the set tables: tests and benchmarks read it. */
  readonly setPaths = { held: 0, recomputed: 0, written: 0 };

  /** What the held sets take now (with what is kept with them) and how many sessions are held; null: sets are not held (benchmarks read it). */
  get heldUsage(): { bytes: number; sessions: number } | null {
    return this.held ? { bytes: this.held.heldBytes, sessions: this.held.size } : null;
  }

  constructor(
    private readonly db: Kysely<Database>,
    engine: ChemEngine,
    options: SearchServiceOptions = {},
  ) {
    this.runner = new SearchRunner(db, engine, options);
    this.kbCounts = new KbCountsCache(db);
    this.sessions = new SessionLifecycle(db, {
      ...(options.singleProcess === undefined ? {} : { singleProcess: options.singleProcess }),
      ...(options.runStaleMs === undefined ? {} : { runStaleMs: options.runStaleMs }),
      ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
      runningHere: (sessionId) => this.runningHere(sessionId),
    });
    this.databaseKind = this.runner.databaseKind;
    this.owner = this.sessions.owner;
    this.countPaths = this.runner.countPaths;
    this.log = options.log;
    this.vacuum = new SetVacuum(db, this.databaseKind, options.log ? { log: options.log } : {});
    this.held = options.sets === 'memory' ? new SessionSetStore(options.setsBudgetBytes) : null;
    this.oldColumnsGraceMs = options.oldColumnsGraceMs ?? OLD_COLUMNS_GRACE_MS;
  }

  /**
   * Calls `listener` with the activity rows of every set this process writes from the bitmaps,
   * once committed, with the set's mark (results/session-rows.ts holds them for charts and filters).
   */
  onSetsWritten(listener: (setId: number, mark: string, rows: WrittenActivityRows) => void): void {
    this.runner.onSetsWritten(listener);
  }

  /** Reads the bitmap columns (structure properties included) if they are not current, and says whether counts will use them. */
  bitmapsReady(): Promise<boolean> {
    return this.runner.bitmapsReady();
  }

  /** The knowledge base's columns in memory when they are current (search-run.ts `columnsIfCurrent`). */
  columnsIfCurrent(): Promise<KbColumns | null> {
    return this.runner.columnsIfCurrent();
  }

  /** Where the bitmap engine's columns were last read from (null: not read, or no engine). */
  get bitmapsSource(): 'database' | 'snapshot' | null {
    return this.runner.bitmapsSource;
  }

  /**
   * Counts without keeping a session (`api/guidedsearch/count`): the sets are built and rolled back.
   * With a load window, only rows first brought in by those loads count (alerts); `userId` is whom
   * it counts for ("In collection" rows read that user's collections; without one they are refused).
   */
  countOnly(criteria: SearchCriteria, options: CountOptions = {}): Promise<SearchCounts> {
    return this.runner.countOnly(criteria, options);
  }

  /** What the running search of a session has done (this process), else its stored state. */
  progress(auth: AuthContext, sessionId: string): Promise<SearchProgress> {
    return this.sessions.progress(auth, sessionId);
  }

  /** Stops the running search of a session; its waiting calls answer 409 and no sets are kept. */
  cancel(auth: AuthContext, sessionId: string): Promise<boolean> {
    return this.sessions.cancel(auth, sessionId);
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
    const hash = criteriaHash(criteria, loadWindow);
    // Ownership before the in-flight runs: another user's call must not join (and learn) a run.
    await this.claim(auth, sessionId, kind);
    return this.shared(auth.userId, sessionId, criteria, hash, loadWindow);
  }

  /**
   * The run of this search in this process, started if there is none, and what the caller waits
   * for (`RunWait`).
   */
  private shared(
    userId: number,
    sessionId: string,
    criteria: SearchCriteria,
    hash: string,
    loadWindow: LoadWindow | null = null,
    wait: RunWait = 'counts',
  ): Promise<SearchCounts> {
    const key = `${sessionId}:${hash}`;
    const until = typeof wait === 'string' ? wait : 'ready';
    const existing = this.runs.get(key);
    if (existing) {
      if (existing.userId !== userId) return Promise.reject(forbidden('This search session belongs to another user.'));
      return until === 'counts' ? existing.promise : existing.done;
    }
    let early: ((counts: SearchCounts) => void) | null = null;
    const promise = new Promise<SearchCounts>((resolve) => (early = resolve));
    const rerunOf = typeof wait === 'string' ? undefined : wait.rerunOf;
    const done = this.runOnce(
      userId,
      sessionId,
      criteria,
      hash,
      loadWindow,
      until === 'tables',
      (counts) => early!(counts),
      rerunOf,
    ).finally(() => this.runs.delete(key));
    // Counts not given early are the written sets' (a failure rejects both).
    const counts = Promise.race([promise, done]);
    // Nobody may wait for the sets of a search whose counts were answered early, nor for the counts
    // of a re-run: a failure is the caller's through the promise returned, and an
    // unhandled rejection would end the process.
    done.catch(() => undefined);
    counts.catch(() => undefined);
    this.runs.set(key, { userId, promise: counts, done });
    return until === 'counts' ? counts : done;
  }

  /** Resolves once this process's runs of the session are over: sets written, housekeeping done (tests, shutdown). */
  async settled(sessionId: string): Promise<void> {
    for (const [key, run] of [...this.runs]) if (key.startsWith(`${sessionId}:`)) await run.done.catch(() => undefined);
  }

  private runningHere(sessionId: string): boolean {
    for (const key of this.runs.keys()) if (key.startsWith(`${sessionId}:`)) return true;
    return false;
  }

  /**
   * One run of a session's search: the session taken (`running`, session-lifecycle.ts `takeSession`), the
   * run (search-run.ts `runToSets`: counts answered early from the bitmaps when they can be, `onCounts`;
   * results calls, on any server, then wait for the sets through `run_recovery` instead of
   * answering "still running"), the session `ready` with its sets held in memory (sets 'memory',
   * when the bitmaps counted it) or written to the set tables, or the session `failed` /
   * `cancelled`. `needTables`: a reader joins the set tables, so they are written (from the sets
   * held in memory when they are this answer's). `rerunOf`: the ready answer is run again and held
   * unless another call answered it anew meanwhile (its version changed: that one is used).
   */
  private async runOnce(
    userId: number,
    sessionId: string,
    criteria: SearchCriteria,
    hash: string,
    loadWindow: LoadWindow | null,
    needTables: boolean,
    onCounts?: (counts: SearchCounts) => void,
    rerunOf?: string | null,
  ): Promise<SearchCounts> {
    const rerun = rerunOf !== undefined;
    const reusable = (session: SessionState) =>
      session.sets_kept || (rerun ? session.sets_version !== rerunOf : this.held !== null && !needTables);
    const taken = await this.sessions.takeSession(sessionId, userId, criteria, hash, loadWindow, reusable);
    if ('reused' in taken) return storedCounts(taken.reused) ?? readCounts(this.db, taken.reused.set_id);
    // The same search again after its sets were lost (or its process died, or a reader needs the
    // tables of sets held in memory): its sets rebuilt, what the user did in its results kept
    // (their filters are re-applied by the results on first read), not logged again.
    const { session, run, recovery } = taken;
    const startedAt = performance.now();
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
    try {
      // A re-run is asked because the answer cannot be recomputed here: not tried again.
      const heldAnswer = recovery && !rerun ? await this.heldAnswer(session) : null;
      // Held unless a reader joins the tables, or held sets of this answer are written out as they are:
      // a run whose process died, taken up here, is held like any other (nothing written).
      const keepInMemory = this.held !== null && !needTables && (!heldAnswer || rerun);
      const outcome = await this.runner.runToSets(
        { criteria, userId, loadWindow, heldAnswer, keepInMemory, ...(onCounts ? { onCounts } : {}) },
        {
          setId: session.set_id,
          hash,
          run,
          countedEarly: () => this.sessions.countedEarly(sessionId, hash),
          finish: (trx, counts, answer) => this.sessions.finish(trx, sessionId, hash, counts, answer),
        },
      );
      if ('kept' in outcome) this.held!.hold({ setId: session.set_id, criteriaHash: hash, ...outcome.kept });
      else this.setPaths.written++;
      await log(outcome.counts);
      this.housekeeping();
      return outcome.counts;
    } catch (error) {
      const cancelled = run.controller.signal.aborted;
      // A process shutting down leaves the session `running`; the next one finds it abandoned.
      if (!this.stopping) {
        await this.sessions.fail(
          sessionId,
          hash,
          cancelled,
          cancelled ? 'Cancelled by the user.' : error instanceof Error ? error.message : String(error),
        );
        if (!cancelled) await log(null);
      }
      throw cancelled ? searchCancelled() : error;
    } finally {
      this.sessions.end(sessionId, run);
    }
  }

  /** Expired sessions dropped, sets on superseded columns retired, the set tables vacuumed, after a run (at most once a minute): never failing it (nor, unhandled, the process). */
  private housekeeping(): void {
    if (Date.now() - this.lastHousekeeping < HOUSEKEEPING_EVERY_MS) return;
    this.lastHousekeeping = Date.now();
    this.retireOlderSets()
      .catch(() => undefined)
      .then(() => this.purgeExpired())
      .catch(() => undefined)
      .then(() => (this.stopping ? [] : this.vacuum.maybe()))
      .catch((error: unknown) =>
        this.log?.(
          `vacuuming the set tables failed (tried again after a later search, a minute on at the soonest): ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
  }

  /** Held sets computed on columns a load has superseded, forgotten OLD_COLUMNS_GRACE_MS after (session-sets.ts `retireOlder`). */
  private async retireOlderSets(): Promise<void> {
    const current = this.held ? await this.runner.columnsIfCurrent() : null;
    if (!current) return;
    const retired = this.held!.retireOlder(current.version, Date.now(), this.oldColumnsGraceMs);
    if (retired) this.log?.(`${retired} search sessions computed before the last load were let go from memory (run again when read)`);
  }

  /**
   * The session's sets from memory (sets 'memory'): held here, else recomputed from its definition
   * (criteria, owner, knowledge-base version) — the same answer by construction, and checked: the
   * recomputed counts must equal the stored ones. Null when they cannot be (no bitmap engine, the
   * knowledge base changed since the run, a load window, a session not ready): the caller runs it
   * again and holds it (`rerunHeld`), or reads the set tables (`keptSession` with 'tables'). `need`:
   * the sets the caller reads, made first if not yet (session-sets.ts `SetsNeed`; default all).
   */
  async heldSets(session: Selectable<SearchSessionsTable>, need: SetsNeed = 'all'): Promise<HeldSets | null> {
    if (!this.held || session.status !== 'ready') return null;
    const found = await this.heldAnswer(session, need);
    if (found) this.setPaths.held++;
    return found;
  }

  /**
   * A ready session whose sets are in no set table and that this server cannot recompute as they
   * were (the knowledge base changed since it ran): run again on the knowledge base as it is and
   * held here — the answer the tables path gives when it re-runs it, without writing the tables.
   * Its filters are kept (applied again on first read), it is not logged again. Null when it
   * cannot be held (sets not held in memory, an alert's load window, criteria that do not parse, the
   * run failed: the session row says why): the caller then reads the set tables (`keptSession`).
   */
  async rerunHeld(sessionId: string): Promise<HeldSets | null> {
    const session = this.held ? await this.state(sessionId) : null;
    if (!session || session.status !== 'ready' || session.sets_kept || sessionWindow(session) || !session.criteria_hash) return null;
    const criteria = SearchCriteriaSchema.safeParse(session.criteria);
    if (!criteria.success) return null;
    try {
      // A re-run is a search: bulk work on the database, behind logins and pages.
      await withDbPriority('bulk', () =>
        this.shared(session.user_id, session.id, criteria.data, session.criteria_hash!, null, { rerunOf: session.sets_version }),
      );
    } catch {
      return null;
    }
    const fresh = await this.state(session.id);
    return fresh ? this.heldSets(fresh) : null;
  }

  /** Which structures and activities are in the session's held sets (a reference leaflet's marks), or null as `heldSets`. */
  async heldMembership(
    session: Selectable<SearchSessionsTable>,
  ): Promise<{ structure(strId: number): boolean; activity(actId: number): boolean } | null> {
    const held = await this.heldSets(session, ['structures', 'activities']);
    if (!held) return null;
    return { structure: (strId) => heldHas(held, 'structures', strId), activity: (actId) => heldHas(held, 'activities', actId) };
  }

  /** The activities of the session's held sets with their links (charts, filters), or null as `heldSets`. */
  async heldActivityRows(session: Selectable<SearchSessionsTable>): Promise<WrittenActivityRows | null> {
    const held = await this.heldSets(session, ['activities']);
    return held ? this.held!.activityRows(held.setId, held.criteriaHash, held.version) : null;
  }

  /**
   * A value made once from held sets and kept with them in the sets' memory budget (a tab's order
   * by score, session-sets.ts `derived`); made afresh when they are not held.
   */
  heldDerived<T>(held: HeldSets, key: string, make: () => { value: T; bytes: number }): T {
    return this.held ? this.held.derived(held, key, make) : make().value;
  }

  /**
   * As `heldDerived`, for a value made by async work (a sort in SQL): a failure is not kept, the
   * next call makes it again.
   */
  heldDerivedAsync<T>(held: HeldSets, key: string, make: () => { value: Promise<T>; bytes: number }): Promise<T> {
    const value = this.heldDerived(held, key, make);
    value.catch(() => this.held?.forgetDerived(held, key));
    return value;
  }

  /** The held sets of this session's answer, recomputed when this process does not hold them. */
  private async heldAnswer(session: Selectable<SearchSessionsTable>, need: SetsNeed = 'all'): Promise<HeldSets | null> {
    if (!this.held || !session.sets_version || !session.criteria_hash) return null;
    // Held sets stay this answer whatever loads ran since: their positions are their own columns'.
    let found = this.held.get(session.set_id, session.criteria_hash, session.sets_version);
    if (!found) {
      let recompute = this.recomputing.get(session.set_id);
      if (!recompute) {
        recompute = this.recompute(session).finally(() => this.recomputing.delete(session.set_id));
        this.recomputing.set(session.set_id, recompute);
      }
      const recomputed = await recompute;
      found = recomputed?.version === session.sets_version && recomputed.criteriaHash === session.criteria_hash ? recomputed : null;
    }
    if (!found) return null;
    if (await this.held.make(found, need)) return found;
    // A made set that differs from the stored count: not this answer (the caller runs it again).
    this.log?.(`search session ${session.id}: a recomputed set differs from its stored count; not held`);
    return null;
  }

  private async recompute(session: Selectable<SearchSessionsTable>): Promise<HeldSets | null> {
    const criteria = SearchCriteriaSchema.safeParse(session.criteria);
    const stored = storedCounts(session);
    if (!criteria.success || !stored || sessionWindow(session)) return null;
    // Both reads at once: under load each wait for the database is also a wait for the busy main
    // thread, and this runs before the other server's first page of the session is answered.
    const [columns, { ctx, structures }] = await Promise.all([this.runner.columnsIfCurrent(), this.runner.context(session.user_id)]);
    try {
      if (!columns || columns.version !== session.kb_version) return null;
      // A definition that no longer compiles for its owner (a collection they may not read now):
      // not from memory; the tables path re-runs it and says why it fails.
      const compiled = await compileCriteria(criteria.data, ctx).catch(() => null);
      if (!compiled) return null;
      const early = await this.runner.countOn(columns, compiled, stored);
      if (!isDeepStrictEqual(early.sets.counts, stored)) return null;
      const held: HeldSets = {
        setId: session.set_id,
        criteriaHash: session.criteria_hash!,
        version: session.sets_version!,
        sets: early.sets,
        columns: early.columns,
        scores: structures.similarityScores(),
      };
      this.held!.hold(held);
      this.setPaths.recomputed++;
      return held;
    } finally {
      await structures.cleanup().catch(() => undefined);
    }
  }

  /**
   * The caller's session (403 for another user's, null when there is none) with its sets in place:
   * a ready session whose sets were lost, or a running one whose process died, is first re-run from
   * its stored criteria, and this call waits for that run (so does one joining a recovery already
   * under way). A session still running normally is answered as it is (`running`).
   */
  async keptSession(auth: AuthContext, sessionId: string, need: SessionNeed = 'tables'): Promise<SessionState | null> {
    const session = await this.state(sessionId);
    if (session && session.user_id !== auth.userId) throw forbidden('This search session belongs to another user.');
    return this.keep(session, need);
  }

  /** As `keptSession`, for work that already holds the session's owner (a background export). */
  async keptSessionById(sessionId: string, need: SessionNeed = 'tables'): Promise<SessionState | null> {
    return this.keep(await this.state(sessionId), need);
  }

  /** With 'definition', a ready session whose sets are not in the tables is answered as it is (its sets come from memory). */
  private async keep(first: SessionState | null, need: SessionNeed): Promise<SessionState | null> {
    let session = first;
    // Bounded: a re-run that fails leaves the session `failed`, which is answered as such.
    for (let attempt = 0; session && attempt < 3; attempt++) {
      const lost = session.status === 'ready' && !session.sets_kept && (need === 'tables' || !this.held);
      const recovering = session.status === 'running' && session.run_recovery;
      if (!lost && !recovering && !session.abandoned) return session;
      const criteria = SearchCriteriaSchema.safeParse(session.criteria);
      if (!session.criteria_hash || !criteria.success) return session;
      // Sets read from memory: a run in progress (counted early, here or on another server) is
      // waited for and its answer used; only a reader of the tables has them written.
      const until = need === 'definition' && this.held ? 'ready' : 'tables';
      try {
        // A re-run is a search: bulk work on the database, behind logins and pages.
        await withDbPriority('bulk', () =>
          this.shared(session!.user_id, session!.id, criteria.data, session!.criteria_hash!, sessionWindow(session!), until),
        );
      } catch {
        // The session row says what became of it (failed, cancelled, run again with other criteria).
      }
      session = await this.state(session.id);
    }
    return session;
  }

  /** The session row, whether its sets are kept and whether its run is dead (session-lifecycle.ts). */
  state(sessionId: string): Promise<SessionState | null> {
    return this.sessions.state(sessionId);
  }

  /** The session row for this user, created on first use; another user's session id is refused. */
  claim(auth: AuthContext, sessionId: string, kind: SessionKind = 'search') {
    return this.sessions.claim(auth, sessionId, kind);
  }

  /** The session if it is this user's and has been run; null when it does not exist. */
  owned(auth: AuthContext, sessionId: string) {
    return this.sessions.owned(auth, sessionId);
  }

  /** The rows of one of a set's tables (the log calls' answers). */
  tableRows(setId: number, table: 'structures' | 'activities' | 'assays'): Promise<number> {
    return this.runner.tableRows(setId, table);
  }

  /** Counts of the whole knowledge base (default-counts.ts). */
  defaultCounts(): Promise<DefaultCounts> {
    return this.kbCounts.get();
  }

  /** Forget cached knowledge-base counts (after a load). */
  invalidateDefaultCounts(): void {
    this.kbCounts.invalidate();
  }

  /** Drops a session's sets (spec `dropunloggedtables`); the row stays as a recent search. */
  dropSets(setId: number, sessionId: string, status: 'dropped' | 'expired' = 'dropped'): Promise<void> {
    this.held?.forget(setId);
    return this.sessions.dropSets(setId, sessionId, status);
  }

  /** Drops the sets of sessions nobody used for a day (derived data: re-running rebuilds them). */
  purgeExpired(): Promise<number> {
    return this.sessions.purgeExpired();
  }

  async close(): Promise<void> {
    this.stopping = true;
    this.sessions.close();
  }
}

/** The counts a session stored when it ran (null before). */
function storedCounts(session: Selectable<SearchSessionsTable>): SearchCounts | null {
  return (session.counts as SearchCounts | null) ?? null;
}

/** Stable hash of criteria (and of a load window): the same search in the same session is not run twice. */
function criteriaHash(criteria: SearchCriteria, loadWindow: LoadWindow | null = null): string {
  const window = loadWindow ? `|loads:${loadWindow.afterLoad}:${loadWindow.upToLoad}` : '';
  return crypto
    .createHash('sha256')
    .update(JSON.stringify(criteria) + window)
    .digest('hex');
}
