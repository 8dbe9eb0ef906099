/**
 * Messages between the engine (main thread) and the chemistry worker (chem-worker.mjs and its
 * parts in worker/). The worker is plain JavaScript (a TypeScript worker measured slower to start:
 * README.md "Why the worker is JavaScript"), so these types are the only statement of the shapes:
 * keep both sides in step.
 */
import type { ChemQuery, PairDifference } from './chem-engine.ts';

export interface ShardPayload {
  shardId: number;
  count: number;
  /** str_ids in row order (rows sorted by Morgan bit count): SharedArrayBuffer-backed. */
  ids: Float64Array;
  pop: Uint16Array;
  /** The Morgan fingerprints bit by bit: FP_BITS bit arrays over the rows (similarity-slices.mjs), SharedArrayBuffer-backed. */
  morgan: Uint32Array;
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
  /**
   * Wait for RDKit's WebAssembly compiled by the engine (`{ type: 'rdkit', module }`, the first
   * message; `module: null` when it could not compile it: the worker then compiles its own).
   */
  sharedRdkit?: boolean;
  /** Compute the frequent fragments' answers for every shard while idle (worker/known-answers.mjs, worker/warm-fragments.mjs). */
  warmFragments?: boolean;
  /** Keep the answers of the last queries asked (worker/known-answers.mjs, worker/warm-fragments.mjs). */
  keepRecentAnswers?: boolean;
  /** This thread's nice value (Linux; 0 or absent: left as it is). */
  nice?: number;
}

/** The engine's first message to a worker started with `sharedRdkit`. */
export interface RdkitModuleMessage {
  type: 'rdkit';
  /** A WebAssembly.Module (wasm-compile.ts `CompiledWasm`). */
  module: object | null;
}

export const BUSY_REQUEST = 1;
/** The job id a worker gives its warm steps (the frequent fragments' answers) in its heartbeat and trap reports. */
export const WARM_JOB_ID = -1;
export const BUSY_STEP = 2;

/** Test hooks only: a job whose every step traps or spins. */
type JobTest = { test?: 'trap' | 'spin' };
/** Jobs re-queued after a worker was replaced name the shards still to search. */
type JobShards = { shardIds?: number[] };
/** A search restricted to these str_ids (ascending): only they can be hits (a filter inside results). */
type JobCandidates = { candidates?: Float64Array };

export type ToWorker =
  | ({ type: 'addShard'; requestId: number } & ShardPayload)
  | { type: 'dropShards'; requestId: number }
  | ({ type: 'substructure'; jobId: number; query: ChemQuery; limit: number; maxAtoms: number } & JobShards & JobCandidates & JobTest)
  | ({ type: 'similarity'; jobId: number; morgan: Uint8Array; min: number; max: number; limit: number; nearest?: number } & JobShards &
      JobCandidates &
      JobTest)
  | { type: 'cancel'; jobId: number }
  /** The index is in: compute the frequent fragments' answers while idle, from now on. */
  | { type: 'warmFragments' }
  | { type: 'describe'; requestId: number; query: ChemQuery; maxAtoms: number; inchi?: boolean }
  | { type: 'molblocks'; requestId: number; smiles: string[] }
  | {
      type: 'depict';
      requestId: number;
      kind: 'smiles' | 'smarts' | 'molfile';
      text: string;
      width: number;
      height: number;
      /** mode 'rest': colour the atoms and bonds outside every match. */
      highlight: { kind: 'smiles' | 'smarts'; text: string; mode: 'match' | 'rest' } | null;
      /** Lay the drawing out like this template (absent: RDKit's own layout). */
      align?: { kind: 'smiles' | 'smarts'; text: string } | null;
      maxAtoms: number;
    }
  /** SAR work (one decomposition is opened, fed in chunks and finished on one worker). */
  | { type: 'rgdStart'; requestId: number; cores: ChemQuery[]; params: Record<string, unknown> }
  | { type: 'rgdAdd'; requestId: number; handle: number; smiles: string[] }
  | { type: 'rgdFinish'; requestId: number; handle: number; anyFit: boolean }
  | { type: 'rgdDrop'; requestId: number; handle: number }
  /** The parallel decomposition: the core labelled once, chunks on every worker, the used labels' core at the end. */
  | { type: 'rgdLabel'; requestId: number; core: ChemQuery }
  | { type: 'rgdChunk'; requestId: number; core: ChemQuery; smiles: string[]; params: Record<string, unknown> }
  | { type: 'rgdCore'; requestId: number; core: string; rename: Record<number, number> }
  | { type: 'scaffolds'; requestId: number; smiles: string[] }
  | { type: 'mcs'; requestId: number; smiles: string[]; timeoutSeconds: number; completeRings: boolean }
  /**
   * Activity cliffs: the common part of each pair (FMCS, else the core, else atom environments), with
   * what the remainders still share added; `mcs: false` skips FMCS (also on the remainders).
   * `extraMs`: FMCS rounds on the remainders start only while they end within this many ms of the call's start.
   */
  | {
      type: 'pairDifferences';
      requestId: number;
      pairs: [string, string][];
      core: string | null;
      timeoutSeconds: number;
      mcs: boolean;
      extraMs?: number;
    }
  | { type: 'contains'; requestId: number; query: ChemQuery; smiles: string[]; maxAtoms: number }
  /** Matched-pair cuts; `reference` (test hooks only): the previous way, every half read again (parity test, bench). */
  | { type: 'fragments'; requestId: number; smiles: string[]; reference?: boolean }
  | { type: 'zip'; requestId: number; core: string; rgroups: string }
  /** Test hooks only: trap, or spin past the watchdog. */
  | { type: 'test'; requestId: number; mode: 'trap' | 'spin' };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'reply'; requestId: number; result: unknown }
  /**
   * Some shards searched: per shard its id, how many hits it adds to `ids` (and `sims`), in order,
   * and how many rows it holds. Substructure reports also tell how many rows passed the screen
   * (`candidates`) and how many of them RDKit matched (`byRdkit`).
   */
  | {
      type: 'hits';
      jobId: number;
      shardIds: number[];
      sizes: number[];
      searched: number[];
      ids: Float64Array;
      sims?: Float64Array;
      candidates?: number;
      byRdkit?: number;
    }
  /** `complete`: every shard searched, none cut by the limit or dropped meanwhile. */
  | { type: 'done'; jobId: number; cancelled?: boolean; complete?: boolean; error?: string }
  | { type: 'failed'; jobId: number; error: string }
  /** Every one of the worker's shards (this many) now holds the frequent fragments' answers. */
  | { type: 'warmed'; shards: number }
  /** RDKit trapped (the module is no longer trusted) while serving this request or job; the worker then ends. */
  | { type: 'trap'; requestId?: number; jobId?: number; error: string };

interface DescribeReply {
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
  inchi?: string;
}

/** Replies of the SAR requests: `ok: false` with RDKit's message (`internal`: RDKit failing, not the input). */
export interface SarReply {
  ok: boolean;
  error?: string;
  internal?: boolean;
  tooManyAtoms?: number;
  /** rgdStart */
  handle?: number;
  /** rgdAdd: 1 where the SMILES fits a core, in order. */
  fits?: Uint8Array;
  /** rgdFinish: per fitting molecule, label (`Core`, `R1`, …) → SMILES, null for hydrogen. */
  rows?: Record<string, string | null>[];
  /** rgdLabel: `plain: false` when the core has query features (decomposed as it is, on one worker). */
  plain?: boolean;
  core?: string;
  /** rgdLabel: labels the core carried itself (kept as they are). */
  given?: number[];
  /** rgdLabel: per automorphism of the core, [label, label it maps to] pairs. */
  permutations?: [number, number][][];
  /** rgdChunk: per SMILES its R-groups by label (`R1`: SMILES, null = hydrogen), or null when it does not fit. */
  groups?: (Record<string, string | null> | null)[];
  scaffolds?: (string | null)[];
  smarts?: string | null;
  timedOut?: boolean;
  /** pairDifferences: per pair, in order. */
  differences?: (PairDifference | null)[];
  hits?: Uint8Array;
  cuts?: { constant: string; variable: string }[][];
  smiles?: string;
}

/** A molblocks batch's reply. */
interface MolblocksReply {
  ok: boolean;
  blocks?: (string | null)[];
  error?: string;
}

/** A depiction's reply. */
interface DepictReply {
  ok: boolean;
  svg?: string;
  error?: string;
  internal?: boolean;
  tooManyAtoms?: number;
}

/** A shard build's reply (`ok: false` only when it could not be built). */
interface AddShardReply {
  added?: number;
  ok?: boolean;
  error?: string;
}

/** Each request's reply, by the request's `type`: `ReplyTo<M>` is what a request M is answered with. */
interface Replies {
  addShard: AddShardReply;
  dropShards: Record<string, never>;
  describe: DescribeReply;
  molblocks: MolblocksReply;
  depict: DepictReply;
  rgdStart: SarReply;
  rgdAdd: SarReply;
  rgdFinish: SarReply;
  rgdDrop: SarReply;
  rgdLabel: SarReply;
  rgdChunk: SarReply;
  rgdCore: SarReply;
  scaffolds: SarReply;
  mcs: SarReply;
  pairDifferences: SarReply;
  contains: SarReply;
  fragments: SarReply;
  zip: SarReply;
  /** Test hooks: traps or spins, never answers. */
  test: never;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A request as the engine writes it: the worker pool adds its `requestId`. */
export type WorkerRequest = DistributiveOmit<Extract<ToWorker, { requestId: number }>, 'requestId'>;
export type ReplyTo<M extends { type: keyof Replies }> = Replies[M['type']];
