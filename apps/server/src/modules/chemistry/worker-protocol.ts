/**
 * Messages between the engine (main thread) and chem-worker.mjs. The worker is plain JavaScript,
 * so these types are the only statement of the shapes: keep both sides in step.
 */
import type { ChemQuery } from './chem-engine.ts';

export interface ShardPayload {
  shardId: number;
  count: number;
  /** str_ids in row order (rows sorted by Morgan bit count): SharedArrayBuffer-backed. */
  ids: Float64Array;
  pop: Uint16Array;
  morgan: Uint8Array;
  /** Canonical SMILES and pattern fingerprints, copied to the worker (it builds its library). */
  smiles: string[];
  pattern: Uint8Array;
  hasPattern: Uint8Array;
}

/** Where a shard's rows are in `structures`: str_id in (after, last], at most `count` rows. */
export interface ShardRange {
  shardId: number;
  after: number;
  last: number;
  count: number;
}

/** What the worker is given at start (`workerData`). */
export interface WorkerData {
  /** 16 bytes: Int32 [busy kind (0 idle, 1 request, 2 job step), id], Float64 at byte 8: Date.now() when it started. */
  heartbeat: SharedArrayBuffer;
  /** Accept the `test` message and the `test` flag of jobs (engine option testHooks). */
  testHooks: boolean;
}

export const BUSY_REQUEST = 1;
export const BUSY_STEP = 2;

/** Test hooks only: a job whose every step traps or spins. */
type JobTest = { test?: 'trap' | 'spin' };
/** Jobs re-queued after a worker was replaced name the shards still to search. */
type JobShards = { shardIds?: number[] };

export type ToWorker =
  | ({ type: 'addShard'; requestId: number } & ShardPayload)
  | { type: 'dropShards'; requestId: number }
  | ({ type: 'substructure'; jobId: number; query: ChemQuery; limit: number; maxAtoms: number } & JobShards & JobTest)
  | ({ type: 'similarity'; jobId: number; morgan: Uint8Array; min: number; max: number; limit: number } & JobShards & JobTest)
  | { type: 'cancel'; jobId: number }
  | { type: 'describe'; requestId: number; query: ChemQuery; maxAtoms: number }
  | { type: 'molblocks'; requestId: number; smiles: string[] }
  | {
      type: 'depict';
      requestId: number;
      kind: 'smiles' | 'smarts' | 'molfile';
      text: string;
      width: number;
      height: number;
      highlight: { kind: 'smiles' | 'smarts'; text: string } | null;
      maxAtoms: number;
    }
  /** Test hooks only: trap, or spin past the watchdog. */
  | { type: 'test'; requestId: number; mode: 'trap' | 'spin' };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'reply'; requestId: number; result: unknown }
  | { type: 'hits'; jobId: number; shardId: number; searched: number; ids: Float64Array; sims?: Float64Array }
  /** `complete`: every shard searched, none cut by the limit or dropped meanwhile. */
  | { type: 'done'; jobId: number; cancelled?: boolean; complete?: boolean; error?: string }
  | { type: 'failed'; jobId: number; error: string }
  /** RDKit trapped (the module is no longer trusted) while serving this request or job; the worker then ends. */
  | { type: 'trap'; requestId?: number; jobId?: number; error: string };

export interface DescribeReply {
  ok: boolean;
  error?: string;
  /** The error is RDKit failing, not the input being unreadable. */
  internal?: boolean;
  /** The parsed query has more atoms than the limit it was sent with (this many). */
  tooManyAtoms?: number;
  smiles?: string;
  smarts?: string;
  atoms?: number;
  morgan?: Uint8Array;
}
