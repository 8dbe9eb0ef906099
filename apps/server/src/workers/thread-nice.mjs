// The worker side of `nice` (worker-thread.ts): a thread started with a nice value runs at it.
// Plain JavaScript: worker threads start without the TypeScript loader.
import fs from 'node:fs';
import os from 'node:os';
import { workerData } from 'node:worker_threads';

/**
 * Runs this thread at another nice value. Higher (a search's structure matching): when requests (a
 * login, a page, the database) and searches wait for the CPU together, the requests go first.
 * Lower, for more priority (the password hash, auth/password-worker.mjs): Linux grants it only
 * with CAP_SYS_NICE (root) or an RLIMIT_NICE that allows it. Linux sets nice per thread; the
 * thread's id is the last part of /proc/thread-self. Elsewhere, or when refused, nothing changes.
 * Answers the thread's nice value afterwards (null where it cannot be read).
 */
export function applyNice(nice = workerData?.nice) {
  const tid = threadId();
  if (tid === null) return null;
  try {
    if (Number.isInteger(nice) && nice !== 0) os.setPriority(tid, nice);
  } catch {
    // Not allowed: the thread keeps the process's priority.
  }
  try {
    return os.getPriority(tid);
  } catch {
    return null;
  }
}

function threadId() {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    // Not Linux.
    return null;
  }
}
