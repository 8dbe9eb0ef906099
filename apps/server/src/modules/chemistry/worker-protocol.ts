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

export type ToWorker =
  | ({ type: 'addShard'; requestId: number } & ShardPayload)
  | { type: 'dropShards'; requestId: number }
  | { type: 'substructure'; jobId: number; query: ChemQuery; limit: number }
  | { type: 'similarity'; jobId: number; morgan: Uint8Array; min: number; max: number; limit: number }
  | { type: 'cancel'; jobId: number }
  | { type: 'describe'; requestId: number; query: ChemQuery }
  | { type: 'molblocks'; requestId: number; smiles: string[] }
  | { type: 'depict'; requestId: number; kind: 'smiles' | 'smarts' | 'molfile'; text: string; width: number; height: number; highlight: { kind: 'smiles' | 'smarts'; text: string } | null };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'reply'; requestId: number; result: unknown }
  | { type: 'hits'; jobId: number; shardId: number; searched: number; ids: Float64Array; sims?: Float64Array }
  /** `complete`: every shard searched, none cut by the limit or dropped meanwhile. */
  | { type: 'done'; jobId: number; cancelled?: boolean; complete?: boolean; error?: string }
  | { type: 'failed'; jobId: number; error: string };

export interface DescribeReply {
  ok: boolean;
  error?: string;
  /** The error is RDKit failing, not the input being unreadable. */
  internal?: boolean;
  smiles?: string;
  smarts?: string;
  atoms?: number;
  morgan?: Uint8Array;
}
