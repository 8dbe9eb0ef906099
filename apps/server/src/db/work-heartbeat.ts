/**
 * The heartbeat of running work that other servers watch through the shared database
 * (docs/scaling.md "State"): a search page run (`search_sessions`) and a SAR job (`sar_jobs`).
 * While this process has such work, `beat` runs every `ms`: it writes the work's progress and
 * aborts what another server asked to cancel. Each owner writes its own rows; this class only keeps
 * the rules they share:
 *
 * - the timer starts with the first piece of work (`busy`) and stops with the last (`idle`), and
 *   never keeps the process alive;
 * - beats never overlap: a beat still waiting for a busy database is not joined by the next one
 *   (they would queue on the same rows and pile up connections);
 * - a beat that fails is reported and the work goes on: other servers see its progress late, and
 *   treat it as dead only after their staleness window.
 */
export interface WorkHeartbeatOptions {
  /** Milliseconds between beats. */
  ms: number;
  /** Writes the progress of this process's running work and aborts what was cancelled elsewhere. */
  beat: () => Promise<void>;
  /** A beat that failed (the work goes on). */
  onError?: (error: unknown) => void;
}

export class WorkHeartbeat {
  private timer: NodeJS.Timeout | null = null;
  private beating = false;

  constructor(private readonly options: WorkHeartbeatOptions) {}

  /** Work is running: beat until `idle()`. Calling it again while beating changes nothing. */
  busy(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.options.ms);
    this.timer.unref();
  }

  /** No work left (or the server stops): no more beats. */
  idle(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async tick(): Promise<void> {
    if (this.beating) return;
    this.beating = true;
    try {
      await this.options.beat();
    } catch (error) {
      this.options.onError?.(error);
    } finally {
      this.beating = false;
    }
  }
}
