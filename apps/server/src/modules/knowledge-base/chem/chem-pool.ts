import os from 'node:os';
import { WorkerPool } from '../../../workers/worker-pool.ts';

/** What RDKit computes for one valid structure (column names of `structures`). */
export interface ComputedStructure {
  canonical_smiles: string;
  inchi: string | null;
  inchikey: string | null;
  mol_formula: string | null;
  mol_weight: number;
  exact_mass: number;
  logp_calc: number;
  psa: number;
  hb_donors: number;
  hb_acceptor: number;
  rot_bonds: number;
  heavy_atoms: number;
  pattern_fp: Uint8Array | null;
  morgan_fp: Uint8Array | null;
}

export interface ComputeOptions {
  /** Skip InChI/InChIKey/formula (the slowest part after descriptors). Default true. */
  inchi?: boolean;
  /** Skip the two fingerprints. Default true. */
  fingerprints?: boolean;
}

interface WorkerRequest {
  smiles: string[];
  options: ComputeOptions;
}

interface WorkerReply {
  id?: number;
  ready?: boolean;
  results?: (ComputedStructure | null)[];
}

const WORKER_URL = new URL('./rdkit-worker.mjs', import.meta.url);

/**
 * A pool of RDKit worker threads (workers/worker-pool.ts). Computing properties is CPU-bound WASM
 * work (≈10 ms per drug-sized molecule), so it runs beside the database work of the main thread,
 * on every core. Replies are matched by request id, never by order.
 */
export class ChemPool {
  private readonly pool: WorkerPool<WorkerRequest, WorkerReply>;

  constructor(size: number = defaultPoolSize()) {
    this.pool = new WorkerPool<WorkerRequest, WorkerReply>({
      url: WORKER_URL,
      name: 'RDKit property worker',
      size: Math.max(1, size),
      isReady: (message) => message.ready === true,
      reply: (message) => (message.id === undefined ? null : { id: message.id, value: message.results ?? [] }),
    });
  }

  get size(): number {
    return this.pool.size;
  }

  /** Computes every SMILES in order; null where RDKit cannot parse it. */
  async compute(smiles: string[], options: ComputeOptions = {}): Promise<(ComputedStructure | null)[]> {
    await this.pool.ready();
    if (smiles.length === 0) return [];
    const share = Math.ceil(smiles.length / this.pool.size);
    const parts: Promise<(ComputedStructure | null)[]>[] = [];
    for (let start = 0; start < smiles.length; start += share) {
      parts.push(this.pool.request({ smiles: smiles.slice(start, start + share), options }));
    }
    return (await Promise.all(parts)).flat();
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

/** All cores: the main thread mostly waits on the database while workers compute. */
function defaultPoolSize(): number {
  return Math.max(1, os.availableParallelism());
}
