import crypto from 'node:crypto';
import os from 'node:os';
import { sql } from 'kysely';
import type { Kysely, Selectable } from 'kysely';
import type { SearchCounts, SearchCriteria, SearchProgress } from '@kb/contracts/search';
import { SearchProgressSchema } from '@kb/contracts/search';
import { ERROR_CODES } from '@kb/contracts/errors';
import type { Database, SearchSessionsTable } from '../../db/schema.ts';
import { HttpError, forbidden } from '../../http/errors.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import { WorkHeartbeat } from '../../db/work-heartbeat.ts';
import { clearSets } from './materialise.ts';
import type { LoadWindow } from './materialise.ts';
import { purgeStaleHits } from './structure-query.ts';

/** Search sessions unused for this long are dropped with their sets. */
const SESSION_TTL_HOURS = 24;
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

/** A run in this process: its cancel switch and what it has done so far. */
export interface LiveRun {
  userId: number;
  controller: AbortController;
  progress: SearchProgress;
}

export type SessionKind = 'search' | 'selection';

/** A search session row with what the crash checks found: are its sets there, is its run dead. */
export type SessionState = Selectable<SearchSessionsTable> & {
  /** The set's mark is there: the sets hold the rows of the session's search. */
  sets_kept: boolean;
  /** Running (or about to) in a process that is gone: nobody will finish it. */
  abandoned: boolean;
};

export interface SessionLifecycleOptions {
  /** True when no other process can use this database (see SearchServiceOptions.singleProcess). */
  singleProcess?: boolean;
  /** A running search without a heartbeat for this long belongs to a dead process (default 30 s). */
  runStaleMs?: number;
  /** How often a running search's process writes its heartbeat and progress (default 2 s). */
  heartbeatMs?: number;
  /** Whether this process has a run of the session in flight (the service's shared runs). */
  runningHere: (sessionId: string) => boolean;
}

/** The load window a session was run with (alerts, migration 0026), or null for an ordinary search. */
export function sessionWindow(session: Pick<Selectable<SearchSessionsTable>, 'new_since_load' | 'new_until_load'>): LoadWindow | null {
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
 * The life of a search session row: `new` → `running` (owned by one process, with its heartbeat)
 * → `ready` / `failed` / `cancelled`, then `dropped` or `expired` with its sets. Every write of
 * that state machine is here, each guarded by the state it expects (status, criteria hash, owner)
 * so that two processes handed the same session cannot both move it. Also here: the live runs of
 * this process (progress and cancel), the heartbeat that tells other processes they are alive,
 * and the crash checks (`state`: are the sets kept, is the run's process gone).
 *
 * What a run computes (criteria → sets) is search-run.ts; search-service.ts drives the two.
 */
export class SessionLifecycle {
  /** Runs in this process, by session: their cancel switch and progress. */
  private readonly live = new Map<string, LiveRun>();
  private readonly runStaleMs: number;
  private singleProcess: Promise<boolean> | null;
  /** While searches run: their progress for other processes, and cancels taken by another server. */
  private readonly heartbeat: WorkHeartbeat;
  private readonly runningHere: (sessionId: string) => boolean;
  /** This process in search_sessions.run_owner: host and pid (checked for life on the same host), and an instance id. */
  readonly owner = `${HOST}:${process.pid}:${crypto.randomBytes(6).toString('hex')}`;

  constructor(
    private readonly db: Kysely<Database>,
    options: SessionLifecycleOptions,
  ) {
    this.runStaleMs = options.runStaleMs ?? RUN_STALE_MS;
    this.heartbeat = new WorkHeartbeat({ ms: options.heartbeatMs ?? HEARTBEAT_MS, beat: () => this.beat() });
    this.singleProcess = options.singleProcess === undefined ? null : Promise.resolve(options.singleProcess);
    this.runningHere = options.runningHere;
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

  /** A run of this session by another live process (only a PostgreSQL server has other processes). */
  private runningElsewhere(session: SessionState): boolean {
    return session.status === 'running' && !session.abandoned && session.run_owner !== null && session.run_owner !== this.owner;
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

  /** The session once no other live process is running this very search (waited for rather than built twice). */
  async afterOtherRuns(sessionId: string, hash: string): Promise<SessionState | null> {
    let session = await this.state(sessionId);
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
    return session;
  }

  /**
   * Takes the session for a run of `criteria` in this process, or finds it ready with them: waits
   * for another process's run of the same search, refuses another user's session, answers a ready
   * session that `reusable` accepts as it is (touched), and otherwise marks it `running` here —
   * looking again when another call took it meanwhile. `recovery`: the same search again after its
   * sets were lost or its process died (the user's filters are kept).
   */
  async takeSession(
    sessionId: string,
    userId: number,
    criteria: SearchCriteria,
    hash: string,
    loadWindow: LoadWindow | null,
    reusable: (session: SessionState) => boolean,
  ): Promise<{ reused: SessionState } | { session: SessionState; run: LiveRun; recovery: boolean }> {
    for (;;) {
      const session = await this.afterOtherRuns(sessionId, hash);
      if (!session || session.user_id !== userId) throw forbidden('This search session belongs to another user.');
      if (session.criteria_hash === hash && session.status === 'ready' && reusable(session)) {
        await this.touch(sessionId);
        return { reused: session };
      }
      const recovery = session.criteria_hash === hash && (session.status === 'ready' || session.abandoned);
      const run = this.begin(sessionId, userId);
      let started = false;
      try {
        started = await this.start(session, criteria, hash, recovery, loadWindow);
      } catch (error) {
        // Not started: the run is over before it began (its heartbeat stops with the last one).
        this.end(sessionId, run);
        throw error;
      }
      if (started) return { session, run, recovery };
      // Someone else took the session meanwhile: look again.
      this.forget(sessionId, run);
    }
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

  /** A run of the session starts in this process: progress and cancel reach it, the heartbeat beats for it. */
  begin(sessionId: string, userId: number): LiveRun {
    const run: LiveRun = {
      userId,
      controller: new AbortController(),
      progress: { sessionid: sessionId, status: 'running', phase: null, searched: 0, total: 0, hits: 0, message: null },
    };
    this.live.set(sessionId, run);
    this.heartbeat.busy();
    return run;
  }

  /** Forgets a run (a newer run of the same session may have taken the slot: that one is left alone). */
  forget(sessionId: string, run: LiveRun): void {
    if (this.live.get(sessionId) === run) this.live.delete(sessionId);
  }

  /** A run is over: forgotten, and the heartbeat stops with the last one. */
  end(sessionId: string, run: LiveRun): void {
    this.forget(sessionId, run);
    if (this.live.size === 0) this.heartbeat.idle();
  }

  /**
   * `running`, owned by this process: taken before any work, and only from the state judged by the
   * caller. Two servers handed the same session at once (the search page's count and log calls,
   * split by a load balancer) must not both run it: false when another process (or call) took it.
   */
  async start(
    session: SessionState,
    criteria: SearchCriteria,
    hash: string,
    recovery: boolean,
    loadWindow: LoadWindow | null,
  ): Promise<boolean> {
    const { _rows: _dropped, ...keptFilters } = (session.filters ?? {}) as Record<string, unknown>;
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
      .where('id', '=', session.id)
      .where('status', '=', session.status)
      .where('run_owner', 'is not distinct from', session.run_owner)
      .where('criteria_hash', 'is not distinct from', session.criteria_hash)
      .executeTakeFirst();
    return Number(started.numUpdatedRows) > 0;
  }

  /** Counts answered before the sets are written: results calls, on any server, wait for the sets instead of "still running". */
  async countedEarly(sessionId: string, hash: string): Promise<void> {
    await this.db
      .updateTable('search_sessions')
      .set({ run_recovery: true })
      .where('id', '=', sessionId)
      .where('status', '=', 'running')
      .where('criteria_hash', '=', hash)
      .where('run_owner', '=', this.owner)
      .execute();
  }

  /**
   * `ready` with its counts and which answer its sets are (`answer`: session-sets.ts), in the
   * transaction that wrote the sets and their mark (or, with sets held in memory, that cleared the
   * old ones); 409 when run again with other criteria meanwhile.
   */
  async finish(
    trx: Kysely<Database>,
    sessionId: string,
    hash: string,
    counts: SearchCounts,
    answer: { version: string; kbVersion: string | null },
  ): Promise<void> {
    const done = await trx
      .updateTable('search_sessions')
      .set({
        status: 'ready',
        counts: JSON.stringify(counts),
        last_used_at: new Date(),
        run_heartbeat_at: null,
        run_recovery: false,
        sets_version: answer.version,
        kb_version: answer.kbVersion,
      })
      .where('id', '=', sessionId)
      .where('status', '=', 'running')
      .where('criteria_hash', '=', hash)
      .where('run_owner', '=', this.owner)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) throw superseded();
  }

  /** `cancelled` or `failed` with its message, unless another run took the session meanwhile. */
  async fail(sessionId: string, hash: string, cancelled: boolean, message: string): Promise<void> {
    await this.db
      .updateTable('search_sessions')
      .set({ status: cancelled ? 'cancelled' : 'failed', error: message.slice(0, 1000), run_heartbeat_at: null, run_recovery: false })
      .where('id', '=', sessionId)
      .where('status', '=', 'running')
      .where('criteria_hash', '=', hash)
      .where('run_owner', '=', this.owner)
      .execute();
  }

  /** A ready session reused as it is. */
  async touch(sessionId: string): Promise<void> {
    await this.db.updateTable('search_sessions').set({ last_used_at: new Date() }).where('id', '=', sessionId).execute();
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

  /** The server stops: no more beats, and this process's runs are aborted (their sessions stay `running`, to be re-run). */
  close(): void {
    this.heartbeat.idle();
    for (const run of this.live.values()) run.controller.abort();
  }
}
