import { performance } from 'node:perf_hooks';

/**
 * A long computation on the server's main thread gives way to other calls every few
 * milliseconds (issue 62). Every call's turns run on that one thread: a login waits for the
 * database and the password hash four times, and each time for whatever runs there. Under 20
 * users at L a search's set algebra ran 100 ms and more at a stretch, and a login's four turns
 * waited behind it (logins 435 ms p95 against 50–100 ms idle, health 182 ms against 6 ms).
 *
 * `pause()` yields to the event loop when this computation has run `sliceMs` since it last gave
 * way, and goes on when its turn at `sliceGate` comes: the I/O that arrived meanwhile (a database
 * answer, a new request) is served first, then the computation goes on. Between pauses it runs
 * as before, so a computation's answer never depends on them.
 */
export class MainThreadTurns {
  private since = performance.now();

  constructor(
    private readonly sliceMs = DEFAULT_SLICE_MS,
    private readonly gate: TurnGate = sliceGate,
  ) {}

  /** Gives way when this computation has held the thread for a slice; otherwise returns at once. */
  async pause(): Promise<void> {
    if (performance.now() - this.since < this.sliceMs) return;
    await this.gate.next();
    this.since = performance.now();
  }
}

/** Where a paused computation waits for its next slice. */
export interface TurnGate {
  next(): Promise<void>;
}

/**
 * One computation's slice per turn of the event loop, however many wait. Each computation once
 * queued its own `setImmediate`, and Node runs every immediate queued before a check phase in that
 * phase: with eight searches paused, eight slices (80 ms) ran between two polls for I/O, and a
 * login's four turns or a health check waited behind all of them (health p95 70–100 ms under 20
 * users at L). The gate wakes the first computation in line in a check phase and schedules the
 * next wake for the following one, so the loop polls for I/O between any two slices; computations
 * take their slices in the order they paused.
 */
export class SliceGate implements TurnGate {
  private readonly waiting: (() => void)[] = [];
  private scheduled = false;

  /** Resolves when this caller's slice comes (at the earliest in the next check phase). */
  next(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.schedule();
    });
  }

  /** Computations waiting for a slice. */
  get queued(): number {
    return this.waiting.length;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // An immediate queued from within a check phase runs in the next loop turn, after its poll.
    setImmediate(() => this.wake());
  }

  private wake(): void {
    this.scheduled = false;
    this.waiting.shift()?.();
    if (this.waiting.length) this.schedule();
  }
}

/** The server's one gate: every computation on the main thread shares the loop's turns. */
const sliceGate = new SliceGate();

/**
 * A slice long enough that giving way costs the computation little (a turn of the event loop is
 * tens of microseconds when idle), short enough that a login's four turns add tens of
 * milliseconds at most behind the computations waiting.
 */
const DEFAULT_SLICE_MS = 10;

/** Runs `part(start, end)` over [0, length) in chunks, pausing between them. */
export async function inChunks(
  length: number,
  turns: MainThreadTurns,
  part: (start: number, end: number) => void,
  chunk = CHUNK,
): Promise<void> {
  for (let start = 0; start < length; start += chunk) {
    part(start, Math.min(length, start + chunk));
    await turns.pause();
  }
}

/** Elements per chunk: a few milliseconds of a simple loop over typed arrays. */
const CHUNK = 1 << 18;
