import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { SarProgress } from '@kb/contracts/sar';
import { ERROR_CODES } from '@kb/contracts/errors';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { WorkHeartbeat } from '../../db/work-heartbeat.ts';

/**
 * The SAR work running for a session (docs/sar.md "Progress and cancel"): at most one of each kind
 * (core suggestions, a table's decomposition, a pair search) per search session and user — a new
 * one cancels the older one of its kind, whose pending call answers 409; kinds run side by side (a
 * page that asks for suggestions and a table at once gets both).
 *
 * With several API servers on one PostgreSQL database (docs/scaling.md) the progress poll and the
 * Cancel button may reach another server than the one doing the work: each job is also a row of
 * `sar_jobs`, whose progress the running process writes with a heartbeat; another server answers
 * progress from it and records a cancel there, which the running process takes up at its next
 * heartbeat (as a running search does). On embedded PGlite there is one process: memory only.
 */

type Phase = Exclude<SarProgress['phase'], 'idle'>;

interface Running {
  id: string;
  userId: number;
  sessionId: string;
  phase: Phase;
  /** Start order: progress reports the newest job. */
  started: number;
  done: number;
  total: number;
  controller: AbortController;
}

const SAR_CANCELLED_MESSAGE = 'The SAR work was cancelled.';

function sarCancelled(): HttpError {
  return new HttpError(409, { message: SAR_CANCELLED_MESSAGE, code: ERROR_CODES.conflict });
}

export interface SarWork {
  signal: AbortSignal;
  /** Progress of the current phase (the engine's `onProgress`). */
  progress: (done: number, total: number) => void;
  /** Moves on to another phase (a table's decomposition after its values were read). */
  phase: (phase: Phase) => void;
}

export interface SarJobsOptions {
  /** The database the servers share (a PostgreSQL server); null: this process only (PGlite). */
  shared?: Kysely<Database> | null;
  /** How often running work writes its progress and looks for a cancel asked elsewhere (default 2 s). */
  heartbeatMs?: number;
  /** A heartbeat that could not be written (the work goes on; other servers see it late). */
  onError?: (error: unknown) => void;
}

/** Rows of work whose process stopped beating for this many heartbeats are not reported. */
const STALE_HEARTBEATS = 5;
/** Rows left by a process that died are deleted after this long. */
const FORGET_AFTER = '1 hour';

export class SarJobs {
  private readonly running = new Map<string, Running>();
  private readonly db: Kysely<Database> | null;
  private readonly heartbeatMs: number;
  private readonly heartbeat: WorkHeartbeat;
  private starts = 0;

  constructor(private readonly options: SarJobsOptions = {}) {
    this.db = options.shared ?? null;
    this.heartbeatMs = Math.max(50, options.heartbeatMs ?? 2_000);
    this.heartbeat = new WorkHeartbeat({
      ms: this.heartbeatMs,
      beat: () => this.beat(),
      ...(options.onError ? { onError: options.onError } : {}),
    });
  }

  private static key(userId: number, sessionId: string, phase: Phase): string {
    return `${userId}:${sessionId}:${phase}`;
  }

  /** The session's running jobs in this process, newest first. */
  private jobsOf(userId: number, sessionId: string): Running[] {
    const prefix = `${userId}:${sessionId}:`;
    return [...this.running.entries()]
      .filter(([key]) => key.startsWith(prefix))
      .map(([, entry]) => entry)
      .sort((a, b) => b.started - a.started);
  }

  /**
   * Runs `work` as the session's SAR job. A cancel (here, or recorded by another server) or a newer
   * job of its kind aborts its signal; whatever the engine then throws, the call answers 409.
   */
  async run<T>(userId: number, sessionId: string, kind: Phase, work: (job: SarWork) => Promise<T>): Promise<T> {
    const key = SarJobs.key(userId, sessionId, kind);
    this.running.get(key)?.controller.abort();
    const entry: Running = {
      id: crypto.randomUUID(),
      userId,
      sessionId,
      phase: kind,
      started: ++this.starts,
      done: 0,
      total: 0,
      controller: new AbortController(),
    };
    this.running.set(key, entry);
    await this.announce(entry, kind);
    const { signal } = entry.controller;
    try {
      const result = await work({
        signal,
        progress: (done, total) => {
          entry.done = done;
          entry.total = total;
        },
        phase: (next) => {
          entry.phase = next;
          entry.done = 0;
          entry.total = 0;
        },
      });
      if (signal.aborted) throw sarCancelled();
      return result;
    } catch (error) {
      if (signal.aborted) throw sarCancelled();
      throw error;
    } finally {
      if (this.running.get(key) === entry) this.running.delete(key);
      await this.retire(entry);
    }
  }

  /** The job's row; an older job of its kind on another server is asked to stop, as a local one is. */
  private async announce(entry: Running, kind: Phase): Promise<void> {
    if (!this.db) return;
    await this.shared(async (db) => {
      await db.deleteFrom('sar_jobs').where('heartbeat_at', '<', sql<Date>`now() - ${FORGET_AFTER}::interval`).execute();
      await db
        .updateTable('sar_jobs')
        .set({ cancel_requested_at: sql<Date>`now()` })
        .where('user_id', '=', entry.userId)
        .where('session_id', '=', entry.sessionId)
        .where('kind', '=', kind)
        .where('cancel_requested_at', 'is', null)
        .execute();
      await db
        .insertInto('sar_jobs')
        .values({ job_id: entry.id, user_id: entry.userId, session_id: entry.sessionId, kind, phase: entry.phase })
        .execute();
    });
    this.heartbeat.busy();
  }

  private async retire(entry: Running): Promise<void> {
    if (!this.db) return;
    if (this.running.size === 0) this.heartbeat.idle();
    await this.shared((db) => db.deleteFrom('sar_jobs').where('job_id', '=', entry.id).execute());
  }

  /** Writes every local job's progress in one statement; aborts those another server was asked to cancel. */
  private async beat(): Promise<void> {
    const jobs = [...this.running.values()].filter((entry) => !entry.controller.signal.aborted);
    if (!jobs.length || !this.db) return;
    const rows = jobs.map((entry) => ({ job_id: entry.id, phase: entry.phase, done: entry.done, total: entry.total }));
    const { rows: cancelled } = await sql<{ job_id: string }>`UPDATE sar_jobs j
        SET phase = v.phase, done = v.done, total = v.total, heartbeat_at = now()
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(job_id uuid, phase text, done integer, total integer)
        WHERE j.job_id = v.job_id
        RETURNING j.job_id, j.cancel_requested_at IS NOT NULL AS cancelled`.execute(this.db);
    for (const row of cancelled as { job_id: string; cancelled: boolean }[]) {
      if (row.cancelled) jobs.find((entry) => entry.id === row.job_id)?.controller.abort();
    }
  }

  /** A shared write that must not fail the work itself: reported, and the work goes on. */
  private async shared(write: (db: Kysely<Database>) => Promise<unknown>): Promise<void> {
    try {
      await write(this.db!);
    } catch (error) {
      this.options.onError?.(error);
    }
  }

  /** Rows beating since this time are live work; older ones belong to a process that stopped. */
  private liveSince() {
    return sql<Date>`now() - ${`${STALE_HEARTBEATS * this.heartbeatMs} milliseconds`}::interval`;
  }

  /** The newest job of the session: this process's, else one another server is running. */
  async progress(userId: number, sessionId: string): Promise<SarProgress> {
    const entry = this.jobsOf(userId, sessionId)[0];
    if (entry) return { running: true, phase: entry.phase, done: entry.done, total: entry.total };
    const row = this.db
      ? await this.db
          .selectFrom('sar_jobs')
          .select(['phase', 'done', 'total'])
          .where('user_id', '=', userId)
          .where('session_id', '=', sessionId)
          .where('cancel_requested_at', 'is', null)
          .where('heartbeat_at', '>', this.liveSince())
          .orderBy('started_at', 'desc')
          .limit(1)
          .executeTakeFirst()
      : undefined;
    if (!row) return { running: false, phase: 'idle', done: 0, total: 0 };
    return { running: true, phase: row.phase as Phase, done: row.done, total: row.total };
  }

  /** Cancels every SAR job of the session, here and on the other servers; answers whether there was one. */
  async cancel(userId: number, sessionId: string): Promise<boolean> {
    const jobs = this.jobsOf(userId, sessionId);
    for (const entry of jobs) entry.controller.abort();
    if (!this.db) return jobs.length > 0;
    const marked = await this.db
      .updateTable('sar_jobs')
      .set({ cancel_requested_at: sql<Date>`now()` })
      .where('user_id', '=', userId)
      .where('session_id', '=', sessionId)
      .where('cancel_requested_at', 'is', null)
      .where('heartbeat_at', '>', this.liveSince())
      .returning('job_id')
      .execute();
    return jobs.length > 0 || marked.length > 0;
  }

  /** Server shutdown: every running job stops. */
  close(): void {
    for (const entry of this.running.values()) entry.controller.abort();
    this.heartbeat.idle();
  }
}
