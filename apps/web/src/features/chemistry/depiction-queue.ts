/**
 * Depictions are fetched in bounded batches the server admits (docs/sar.md "Activity cliffs"): the
 * server answers 429 past 600 drawings a minute per user (chemistry-routes.ts), and a SAR page
 * (200 cliffs, 400 drawings; a few hundred transformations) once asked for all of them at once.
 * At most MAX_RUNNING requests are under way and at most MAX_PER_MINUTE start in any minute; the
 * rest wait their turn here (a drawing that left the screen leaves the line).
 */
const MAX_RUNNING = 4;
const MAX_PER_MINUTE = 500;
const MINUTE_MS = 60_000;

interface Waiting {
  start: () => void;
  signal?: AbortSignal;
}

const started: number[] = [];
const waiting: Waiting[] = [];
let running = 0;
let timer: ReturnType<typeof setTimeout> | null = null;

function pump(): void {
  const now = Date.now();
  while (started.length && started[0]! <= now - MINUTE_MS) started.shift();
  while (running < MAX_RUNNING && waiting.length && started.length < MAX_PER_MINUTE) {
    const next = waiting.shift()!;
    if (next.signal?.aborted) continue;
    running += 1;
    started.push(now);
    next.start();
  }
  if (waiting.length && started.length >= MAX_PER_MINUTE && timer === null) {
    timer = setTimeout(
      () => {
        timer = null;
        pump();
      },
      started[0]! + MINUTE_MS - now + 10,
    );
  }
}

/** Runs `fetch` when its turn comes; a signal aborted while it waits rejects it without a request. */
export function queuedDepiction<T>(fetch: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const entry: Waiting = {
      signal,
      start: () => {
        fetch()
          .then(resolve, reject)
          .finally(() => {
            running -= 1;
            pump();
          });
      },
    };
    signal?.addEventListener(
      'abort',
      () => {
        const at = waiting.indexOf(entry);
        if (at >= 0) {
          waiting.splice(at, 1);
          reject(signal.reason ?? new DOMException('Aborted', 'AbortError'));
        }
      },
      { once: true },
    );
    waiting.push(entry);
    pump();
  });
}
