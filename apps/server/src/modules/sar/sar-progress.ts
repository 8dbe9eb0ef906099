import type { SarProgress } from '@kb/contracts/sar';
import { ERROR_CODES } from '@kb/contracts/errors';
import { HttpError } from '../../http/errors.ts';

/**
 * The SAR work running for a session (docs/sar.md "Progress and cancel"): at most one of each kind
 * (core suggestions, a table's decomposition, a pair search) per search session and user — a new
 * one cancels the older one of its kind, whose pending call answers 409; kinds run side by side (a
 * page that asks for suggestions and a table at once gets both). Kept in this process's memory: with several API servers, progress and
 * cancel reach the server that runs the work only (the web client polls the one it called).
 */

type Phase = Exclude<SarProgress['phase'], 'idle'>;

interface Running {
  phase: Phase;
  /** Start order: progress reports the newest job. */
  started: number;
  done: number;
  total: number;
  controller: AbortController;
}

export const SAR_CANCELLED_MESSAGE = 'The SAR work was cancelled.';

export function sarCancelled(): HttpError {
  return new HttpError(409, { message: SAR_CANCELLED_MESSAGE, code: ERROR_CODES.conflict });
}

export interface SarWork {
  signal: AbortSignal;
  /** Progress of the current phase (the engine's `onProgress`). */
  progress: (done: number, total: number) => void;
  /** Moves on to another phase (a table's decomposition after its values were read). */
  phase: (phase: Phase) => void;
}

export class SarJobs {
  private readonly running = new Map<string, Running>();
  private starts = 0;

  private static key(userId: number, sessionId: string, phase: Phase): string {
    return `${userId}:${sessionId}:${phase}`;
  }

  /** The session's running jobs, newest first. */
  private jobsOf(userId: number, sessionId: string): Running[] {
    const prefix = `${userId}:${sessionId}:`;
    return [...this.running.entries()].filter(([key]) => key.startsWith(prefix)).map(([, entry]) => entry).sort((a, b) => b.started - a.started);
  }

  /**
   * Runs `work` as the session's SAR job. A cancel (or a newer job) aborts its signal; whatever the
   * engine then throws, the call answers 409 "cancelled".
   */
  async run<T>(userId: number, sessionId: string, phase: Phase, work: (job: SarWork) => Promise<T>): Promise<T> {
    const key = SarJobs.key(userId, sessionId, phase);
    this.running.get(key)?.controller.abort();
    const entry: Running = { phase, started: ++this.starts, done: 0, total: 0, controller: new AbortController() };
    this.running.set(key, entry);
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
    }
  }

  progress(userId: number, sessionId: string): SarProgress {
    const entry = this.jobsOf(userId, sessionId)[0];
    if (!entry) return { running: false, phase: 'idle', done: 0, total: 0 };
    return { running: true, phase: entry.phase, done: entry.done, total: entry.total };
  }

  /** Cancels every SAR job of the session; answers whether there was one. */
  cancel(userId: number, sessionId: string): boolean {
    const jobs = this.jobsOf(userId, sessionId);
    for (const entry of jobs) entry.controller.abort();
    return jobs.length > 0;
  }

  /** Server shutdown: every running job stops. */
  close(): void {
    for (const entry of this.running.values()) entry.controller.abort();
  }
}
