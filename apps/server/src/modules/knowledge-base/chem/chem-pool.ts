import os from 'node:os';
import { Worker } from 'node:worker_threads';

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

interface WorkerReply {
  id?: number;
  ready?: boolean;
  results?: (ComputedStructure | null)[];
}

interface Pending {
  resolve: (results: (ComputedStructure | null)[]) => void;
  reject: (error: Error) => void;
}

const WORKER_URL = new URL('./rdkit-worker.mjs', import.meta.url);

/**
 * A pool of RDKit worker threads. Computing properties is CPU-bound WASM work (≈10 ms per
 * drug-sized molecule), so it runs beside the database work of the main thread, on every core.
 * Replies are matched by request id, never by order.
 */
export class ChemPool {
  private readonly workers: Worker[] = [];
  private readonly ready: Promise<void>[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private turn = 0;

  constructor(size: number = defaultPoolSize()) {
    for (let i = 0; i < Math.max(1, size); i++) this.spawn();
  }

  get size(): number {
    return this.workers.length;
  }

  private spawn(): void {
    const worker = new Worker(WORKER_URL);
    this.ready.push(
      new Promise<void>((resolve, reject) => {
        worker.once('error', reject);
        const onReady = (message: WorkerReply) => {
          if (message.ready) {
            worker.off('message', onReady);
            resolve();
          }
        };
        worker.on('message', onReady);
      }),
    );
    worker.on('message', (message: WorkerReply) => {
      if (message.id === undefined) return;
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      waiting?.resolve(message.results ?? []);
    });
    worker.on('error', (error) => {
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    });
    this.workers.push(worker);
  }

  /** Computes every SMILES in order; null where RDKit cannot parse it. */
  async compute(smiles: string[], options: ComputeOptions = {}): Promise<(ComputedStructure | null)[]> {
    await Promise.all(this.ready);
    if (smiles.length === 0) return [];
    const share = Math.ceil(smiles.length / this.workers.length);
    const parts: Promise<(ComputedStructure | null)[]>[] = [];
    for (let start = 0; start < smiles.length; start += share) {
      parts.push(this.send(smiles.slice(start, start + share), options));
    }
    return (await Promise.all(parts)).flat();
  }

  private send(smiles: string[], options: ComputeOptions): Promise<(ComputedStructure | null)[]> {
    const id = this.nextId++;
    const worker = this.workers[this.turn++ % this.workers.length] as Worker;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, smiles, options });
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
    this.workers.length = 0;
  }
}

/** All cores: the main thread mostly waits on the database while workers compute. */
export function defaultPoolSize(): number {
  return Math.max(1, os.availableParallelism());
}
