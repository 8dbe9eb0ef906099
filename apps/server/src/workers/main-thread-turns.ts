import { setImmediate as nextTurn } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';

/**
 * A long computation on the server's main thread gives way to other calls every few
 * milliseconds (issue 62). Every call's turns run on that one thread: a login waits for the
 * database and the password hash four times, and each time for whatever runs there. Under 20
 * users at L a search's set algebra ran 100 ms and more at a stretch, and a login's four turns
 * waited behind it (logins 435 ms p95 against 50–100 ms idle, health 182 ms against 6 ms).
 *
 * `pause()` yields to the event loop when this computation has run `sliceMs` since it last gave
 * way: the I/O that arrived meanwhile (a database answer, a new request) is served first (Node's
 * poll phase runs before `setImmediate`'s), then the computation goes on. Between pauses it runs
 * as before, so a computation's answer never depends on them.
 */
export class MainThreadTurns {
  private since = performance.now();

  constructor(private readonly sliceMs = DEFAULT_SLICE_MS) {}

  /** Gives way when this computation has held the thread for a slice; otherwise returns at once. */
  async pause(): Promise<void> {
    if (performance.now() - this.since < this.sliceMs) return;
    await nextTurn();
    this.since = performance.now();
  }
}

/**
 * A slice long enough that giving way costs the computation little (a turn of the event loop is
 * tens of microseconds when idle), short enough that a login's four turns add tens of
 * milliseconds at most behind one such computation.
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
