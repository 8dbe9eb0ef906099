// The worker side of `nice` (worker-thread.ts): a thread started with a nice value runs at it.
// Plain JavaScript: worker threads start without the TypeScript loader.
import fs from 'node:fs';
import os from 'node:os';
import { workerData } from 'node:worker_threads';

/**
 * Runs this thread at a higher nice value: when requests (a login, a page, the database) and
 * searches wait for the CPU together, the requests go first. Linux sets nice per thread; the
 * thread's id is the last part of /proc/thread-self. Elsewhere, or when refused, nothing changes.
 */
export function applyNice(nice = workerData?.nice) {
  if (!(nice > 0)) return;
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, nice);
  } catch {
    // Not Linux, or not allowed: the thread keeps the process's priority.
  }
}
