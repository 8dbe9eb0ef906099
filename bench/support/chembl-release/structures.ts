import { Worker } from 'node:worker_threads';
import { SmilesHashSet } from './hash-set.ts';
import { hash32, STREAM } from './random.ts';

/**
 * Distinct, valid structures enumerated from the subset's real SMILES: each parent (in seeded order)
 * gives its own canonical SMILES, then up to `analoguesPerParent` analogues with one or two C-H
 * replaced by a substituent. RDKit (MinimalLib, the product's engine) checks and canonicalises every
 * candidate in worker threads; the main thread keeps the first occurrence of each canonical SMILES.
 * The sequence depends only on the seed and the subset: a smaller file's structures are the start
 * of a bigger one's, and release 2's new molecules continue it.
 */

/** Attachment atom first, every other atom in a branch: valid wherever the `[H]` stood. */
export const SUBSTITUENTS = ['F', 'Cl', 'Br', 'C', 'O(C)', 'C(F)(F)(F)', 'C(#N)', 'N', 'O', 'C(C)', 'S(C)', 'C(=O)(N)', 'N(C)(C)', 'O(C(F)(F)(F))'];

/** Parents per worker request: big enough to amortise messaging, small enough to keep both cores busy. */
const CHUNK = 48;
/** Rounds over the parents before giving up (each asks every parent for more analogues). */
const MAX_ROUNDS = 4;

interface ParentResult {
  parent: string | null;
  analogues: string[];
  tried: number;
  /** [InChI, InChIKey] of the parent and each analogue, when asked for. */
  inchis?: [string | null, string | null][];
}

/** One structure of the sequence: RDKit canonical SMILES, and its standard InChI when asked for. */
export interface Structure { smiles: string; inchi: string | null; inchikey: string | null }
interface Reply { id?: number; ready?: boolean; results?: ParentResult[]; cpuMs?: number }

export interface EnumerationStats {
  parentsRead: number;
  candidatesTried: number;
  accepted: number;
  duplicates: number;
  /** CPU time the workers spent enumerating (RDKit), summed over workers. */
  workerCpuSeconds: number;
}

class StructureWorker {
  readonly worker = new Worker(new URL('./structure-worker.mjs', import.meta.url));
  readonly ready = new Promise<void>((resolve, reject) => {
    this.worker.once('error', reject);
    this.worker.once('message', (m: Reply) => (m.ready ? resolve() : reject(new Error('structure worker did not start'))));
  });

  run(id: number, parents: { smiles: string; wanted: number; seed: number }[], inchi: boolean): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const onMessage = (m: Reply) => {
        if (m.id !== id) return;
        this.worker.off('message', onMessage);
        this.worker.off('error', reject);
        resolve(m);
      };
      this.worker.on('message', onMessage);
      this.worker.once('error', reject);
      this.worker.postMessage({ id, parents, substituents: SUBSTITUENTS, inchi });
    });
  }
}

export class StructureStream {
  readonly stats: EnumerationStats = { parentsRead: 0, candidatesTried: 0, accepted: 0, duplicates: 0, workerCpuSeconds: 0 };
  private readonly workers: StructureWorker[];
  private readonly idle: StructureWorker[] = [];
  private readonly seen: SmilesHashSet;
  private readonly inFlight: Promise<Reply>[] = [];
  private ready: Structure[] = [];
  private nextParent = 0;
  private round = 0;
  private closed = false;
  private nextId = 1;

  constructor(
    private readonly parents: string[],
    private readonly analoguesPerParent: number,
    private readonly seed: number,
    workers: number,
    expected: number,
    /** Also compute standard InChIs (about 1 ms of RDKit CPU per structure). */
    private readonly inchi = false,
  ) {
    this.workers = Array.from({ length: Math.max(1, workers) }, () => new StructureWorker());
    this.idle.push(...this.workers);
    this.seen = new SmilesHashSet(expected);
  }

  /** The next `n` structures of the sequence. Throws when the subset cannot give that many. */
  async take(n: number): Promise<Structure[]> {
    while (this.ready.length < n) {
      this.dispatch();
      const reply = this.inFlight.shift();
      if (!reply) throw new Error(`the subset's ${this.parents.length} parents gave only ${this.stats.accepted} distinct structures`);
      this.accept(await reply);
      this.dispatch();
    }
    const out = this.ready.slice(0, n);
    this.ready = this.ready.slice(n);
    return out;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
  }

  /**
   * Keeps every worker busy with the next chunk of parents, also while the main thread writes rows
   * (a worker that finishes asks for the next chunk itself), up to two unconsumed replies per
   * worker: memory stays bounded. Replies are consumed in request order, so the sequence does not
   * depend on which worker is faster.
   */
  private dispatch(): void {
    while (!this.closed && this.idle.length > 0 && this.inFlight.length < this.workers.length * 2 && this.round < MAX_ROUNDS) {
      const chunk = this.nextChunk();
      if (chunk.length === 0) continue;
      const worker = this.idle.shift() as StructureWorker;
      const request = worker.ready.then(() => worker.run(this.nextId++, chunk, this.inchi)).finally(() => {
        this.idle.push(worker);
        this.dispatch();
      });
      request.catch(() => {});
      this.inFlight.push(request);
    }
  }

  /**
   * The next parents. After the last parent a new round starts that asks each parent for more
   * analogues (the ones it gave already are dropped as duplicates): only needed if the first round
   * falls short, which the per-parent quota is sized to avoid.
   */
  private nextChunk(): { smiles: string; wanted: number; seed: number }[] {
    const chunk: { smiles: string; wanted: number; seed: number }[] = [];
    while (chunk.length < CHUNK && this.round < MAX_ROUNDS) {
      const index = this.nextParent++;
      const smiles = this.parents[index];
      if (smiles === undefined) {
        this.nextParent = 0;
        this.round++;
        break;
      }
      chunk.push({ smiles, wanted: this.analoguesPerParent * (this.round + 1), seed: hash32(this.seed, STREAM.parentSeed, index) });
    }
    return chunk;
  }

  private accept(reply: Reply): void {
    this.stats.workerCpuSeconds += (reply.cpuMs ?? 0) / 1000;
    for (const result of reply.results ?? []) {
      this.stats.parentsRead++;
      this.stats.candidatesTried += result.tried;
      const all = [...(result.parent ? [result.parent] : []), ...result.analogues];
      for (const [i, smiles] of all.entries()) {
        if (this.seen.add(smiles)) {
          const [inchi, inchikey] = result.inchis?.[i] ?? [null, null];
          this.ready.push({ smiles, inchi, inchikey });
          this.stats.accepted++;
        } else {
          this.stats.duplicates++;
        }
      }
    }
  }
}
