// The thread that hashes and checks passwords (password-thread.ts starts it). Plain JavaScript:
// worker threads start without the TypeScript loader.
import { parentPort } from 'node:worker_threads';
import { hashSync, verifySync } from '@node-rs/argon2';
import { applyNice } from '../../workers/thread-nice.mjs';

// Its nice value (asked for in workerData; a negative one may be refused), reported with ready.
parentPort.postMessage({ ready: true, nice: applyNice() });

/** Messages: `{ id, op: 'hash', password, options }` or `{ id, op: 'verify', hash, password }` in; `{ id, value }` or `{ id, error }` out. */
parentPort.on('message', ({ id, op, password, hash, options }) => {
  try {
    const value = op === 'hash' ? hashSync(password, options) : verifies(hash, password);
    parentPort.postMessage({ id, value });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});

/** A stored value that is not an argon2 hash matches no password (an error here is the thread's own). */
function verifies(hash, password) {
  try {
    return verifySync(hash, password);
  } catch {
    return false;
  }
}
