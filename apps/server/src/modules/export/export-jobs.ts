import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ExportService } from './export-service.ts';
import { withDbPriority } from '../../db/db-priority.ts';

/**
 * Background exports: every API process runs this loop; jobs live in PostgreSQL and are claimed
 * with FOR UPDATE SKIP LOCKED, so N processes share the queue and none takes a job twice. A job
 * whose process stopped (no heartbeat for `staleSeconds`) is taken over and written again from the
 * start; after MAX_ATTEMPTS it fails and its credits are returned.
 */

const MAX_ATTEMPTS = 3;
/** How often expired export files are removed. */
const SWEEP_MS = 60 * 60 * 1000;
/** How long a request waits for its small export when a runner's loop took it first, and how often it looks. */
const TAKEN_WAIT_MS = 30_000;
const TAKEN_LOOK_MS = 100;

export interface RunnerSettings {
  staleSeconds: number;
  pollMs: number;
}

interface Claimed {
  id: number;
  attempts: number;
  claim: string;
}

export class ExportJobRunner {
  private timer: NodeJS.Timeout | null = null;
  private sweeper: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private current: Claimed | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly exports: ExportService,
    private readonly settings: RunnerSettings,
    /** Where failures of the loop itself (a lost database connection) are reported. */
    private readonly logError: (error: unknown) => void = () => undefined,
  ) {}

  /** Starts polling, and the hourly sweep of expired export files (main.ts; tests call `drain` instead). */
  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.settings.pollMs);
    this.timer.unref();
    this.sweeper = setInterval(() => void this.exports.sweepExpiredFiles().catch(this.logError), SWEEP_MS);
    this.sweeper.unref();
    this.wake();
  }

  /** Looks for work now (a new background job was queued). */
  wake(): void {
    if (this.stopped || this.running) return;
    // Background exports are bulk work: logins and pages go first on the embedded database.
    this.running = withDbPriority('bulk', () => this.drain())
      .then(() => undefined, this.logError)
      .finally(() => {
        this.running = null;
      });
  }

  /** Runs claimable jobs until none is left; answers how many ran. */
  async drain(): Promise<number> {
    let ran = 0;
    for (let job = await this.claim(); job && !this.stopped; job = await this.claim()) {
      ran += 1;
      if (job.attempts > MAX_ATTEMPTS) {
        await this.exports.fail(
          job.id,
          `The export was interrupted ${MAX_ATTEMPTS} times and has been stopped. Its credits were returned.`,
          job.claim,
        );
        continue;
      }
      this.current = job;
      try {
        await this.exports.run(job.id, job.claim, () => !this.stopped);
      } finally {
        this.current = null;
      }
    }
    return ran;
  }

  /** Claims one job: the oldest queued one, or a running one nobody has touched for `staleSeconds`. */
  private async claim(): Promise<Claimed | null> {
    const stale = `${this.settings.staleSeconds} seconds`;
    const { rows } =
      await sql<Claimed>`UPDATE export_jobs SET status = 'running', attempts = attempts + 1, claim = gen_random_uuid(), heartbeat_at = now()
      WHERE id = (SELECT id FROM export_jobs
        WHERE status = 'queued' OR (status = 'running' AND heartbeat_at < now() - ${stale}::interval)
        ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id, attempts, claim`.execute(this.db);
    const row = rows[0];
    return row ? { id: Number(row.id), attempts: Number(row.attempts), claim: row.claim } : null;
  }

  /**
   * Writes one particular queued job while its request waits (an export small enough for that).
   * A runner's loop, of this process or another, may have claimed it between its insert and this
   * claim: the request then waits for that run instead, so the answer still says `done` and the
   * browser saves the file at once (before, it answered `running` and no file came).
   */
  async runNow(jobId: number): Promise<void> {
    const claimed = await this.db
      .updateTable('export_jobs')
      .set({ status: 'running', attempts: sql`attempts + 1`, claim: crypto.randomUUID(), heartbeat_at: new Date() })
      .where('id', '=', jobId)
      .where('status', '=', 'queued')
      .returning('claim')
      .executeTakeFirst();
    if (claimed?.claim) return this.exports.run(jobId, claimed.claim);
    await this.settled(jobId, TAKEN_WAIT_MS);
  }

  /** Waits, at most `limitMs`, until a job is no longer queued or running. */
  private async settled(jobId: number, limitMs: number): Promise<void> {
    const until = performance.now() + limitMs;
    for (;;) {
      const job = await this.db.selectFrom('export_jobs').select('status').where('id', '=', jobId).executeTakeFirst();
      if (!job || (job.status !== 'queued' && job.status !== 'running') || performance.now() >= until) return;
      await new Promise((resolve) => setTimeout(resolve, TAKEN_LOOK_MS));
    }
  }

  /**
   * Stops polling; the job being written is put back in the queue so the next start (of this or
   * another process) takes it up at once instead of waiting for its heartbeat to go stale.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.sweeper) clearInterval(this.sweeper);
    const current = this.current;
    if (current !== null) {
      // Not an interruption: the attempt it used is given back.
      await this.db
        .updateTable('export_jobs')
        .set({ status: 'queued', attempts: sql`attempts - 1`, claim: null })
        .where('id', '=', current.id)
        .where('status', '=', 'running')
        .where('claim', '=', current.claim)
        .execute();
    }
    await this.running;
  }
}
