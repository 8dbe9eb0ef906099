// The chemistry worker's runtime (chem-worker.mjs is its dispatcher): RDKit instantiated once for
// the thread, the heartbeat the engine's watchdog reads, what counts as a trap (the worker then
// ends itself), and the state its parts share (shards, jobs).
import { parentPort, workerData } from 'node:worker_threads';
import initRDKitModule from '@rdkit/rdkit';
import { applyNice } from '../../../workers/thread-nice.mjs';

// What this worker is running, for the engine's watchdog (engine-pool.ts): [kind, id] as Int32
// (kind 0 idle, 1 request, 2 job step) and the start time (Date.now()) as Float64 at byte 8.
const HEARTBEAT = workerData?.heartbeat ? new Int32Array(workerData.heartbeat, 0, 2) : null;

const STARTED = workerData?.heartbeat ? new Float64Array(workerData.heartbeat, 8, 1) : null;

/** Test-only messages (engine option testHooks; never reachable over HTTP). */
export const TEST_HOOKS = workerData?.testHooks === true;

/** Compute the frequent fragments' answers while idle (the engine's workers; not measure-limits.ts). */
export const WARM_FRAGMENTS = workerData?.warmFragments === true;

export const BUSY_REQUEST = 1; // worker-protocol.ts BUSY_REQUEST

export const BUSY_STEP = 2; // worker-protocol.ts BUSY_STEP

export function busy(kind, id) {
  if (!HEARTBEAT) return;
  STARTED[0] = Date.now();
  Atomics.store(HEARTBEAT, 1, id);
  Atomics.store(HEARTBEAT, 0, kind);
}

export function idle() {
  if (HEARTBEAT) Atomics.store(HEARTBEAT, 0, 0);
}

/**
 * A trap (WebAssembly.RuntimeError: out-of-bounds access, null function, unreachable), a stack
 * overflow, a C++ exception that escaped the bindings or an abort leaves RDKit's memory in an
 * unknown state: nothing more may run in this module. An ordinary JavaScript error does not.
 */
export function isTrap(error) {
  if (error instanceof WebAssembly.RuntimeError) return true;
  if (typeof WebAssembly.Exception === 'function' && error instanceof WebAssembly.Exception) return true;
  if (error instanceof RangeError && /call stack/i.test(error.message)) return true;
  const text = String(error?.message ?? error);
  return /\bAborted\(|\babort\(|RuntimeError|memory access out of bounds|table index is out of bounds|function signature mismatch|unreachable/i.test(
    text,
  );
}

/** Set once a trap was seen: the worker answers nothing more and ends itself. */
export let broken = false;

/** Reports the trap and the request or job that caused it, then ends the thread; the engine replaces it. */
export function die(culprit, error) {
  broken = true;
  jobs.length = 0;
  parentPort.postMessage({ type: 'trap', ...culprit, error: String(error?.message ?? error).slice(0, 300) });
  // After the message is on its way: process.exit in a worker ends only this thread.
  setImmediate(() => process.exit(70));
}

/**
 * RDKit instantiated from the module the engine compiled once for every worker (wasm-compile.ts
 * `compiledRdkit`), which it sends as its first message; without one, compiled here.
 */
async function rdkitOptions() {
  if (workerData?.sharedRdkit !== true) return undefined;
  const message = await new Promise((resolve) => parentPort.once('message', resolve));
  const module = message?.type === 'rdkit' ? message.module : null;
  if (!module) return undefined;
  return {
    instantiateWasm(imports, receive) {
      WebAssembly.instantiate(module, imports).then(receive, (error) => {
        // Nothing can run without RDKit: the engine sees the worker fail to start and reports it.
        setImmediate(() => {
          throw error;
        });
      });
      return {};
    },
  };
}

// The thread's nice value (workerData.nice, from WorkerThread's `nice`), before RDKit starts.
applyNice();

export const RD = await initRDKitModule(await rdkitOptions());

RD.disable_logging();

// Parse errors are captured and sent back as the message a chemist sees.
export const LOG = RD.set_log_capture('rdApp.*');

/** shardId → shard. */
export const shards = new Map();

/** Active jobs, served one shard at a time, least time used first. */
export const jobs = [];

export function captured() {
  const text = LOG.get_buffer();
  LOG.clear_buffer();
  // Drop RDKit's "[hh:mm:ss] " prefixes and repeated lines.
  const lines = [
    ...new Set(
      text
        .split('\n')
        .map((l) => l.replace(/^\[\d\d:\d\d:\d\d\]\s?/, '').trimEnd())
        .filter(Boolean),
    ),
  ];
  return lines.join('\n');
}

/** The job id of warm steps in the heartbeat and a trap report: the engine then stops asking for them. */
export const WARM_JOB_ID = -1; // worker-protocol.ts WARM_JOB_ID

/** Test hook: busy for a while, as an RDKit call that does not return would be. */
export function spin() {
  const until = Date.now() + 600_000;
  while (Date.now() < until) {
    // The watchdog terminates the thread long before.
  }
}
