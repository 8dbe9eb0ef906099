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
export const SUBSTITUENTS = [
  'F',
  'Cl',
  'Br',
  'C',
  'O(C)',
  'C(F)(F)(F)',
  'C(#N)',
  'N',
  'O',
  'C(C)',
  'S(C)',
  'C(=O)(N)',
  'N(C)(C)',
  'O(C(F)(F)(F))',
];

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
export interface Structure {
  smiles: string;
  inchi: string | null;
  inchikey: string | null;
}
interface Reply {
  id?: number;
  ready?: boolean;
  results?: ParentResult[];
  cpuMs?: number;
}

export interface EnumerationStats {
  /** Parents whose analogues were consumed (those of an earlier file included): where the sequence stands. */
  parentsRead: number;
  candidatesTried: number;
  accepted: number;
  duplicates: number;
  /** CPU time the workers spent enumerating (RDKit), summed over workers. */
  workerCpuSeconds: number;
  /** Structures read from an earlier file instead of enumerated (`continueFrom`). */
  reused: number;
}

/** Where an earlier file of the same sequence stopped: its structures, and its stream's position. */
export interface EarlierStructures {
  /** Its structures in the order they were taken (compound_structures by molregno, for release 1). */
  rows: Iterator<Structure>;
  count: number;
  /** Its stream's `parentsRead` and `accepted` when it finished (bench/results/chembl-release-*.json). */
  parentsRead: number;
  accepted: number;
}

type Chunk = { smiles: string; wanted: number; seed: number }[];

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
  readonly stats: EnumerationStats = { parentsRead: 0, candidatesTried: 0, accepted: 0, duplicates: 0, workerCpuSeconds: 0, reused: 0 };
  private readonly workers: StructureWorker[];
  private readonly idle: StructureWorker[] = [];
  private readonly seen: SmilesHashSet;
  private readonly inFlight: Promise<Reply>[] = [];
  private ready: Structure[] = [];
  private nextParent = 0;
  private round = 0;
  private closed = false;
  private nextId = 1;
  private earlier: EarlierStructures | undefined;
  /** The chunk the earlier file's run consumed last, sent again first: its leftovers start what follows. */
  private replay: Chunk | undefined;
  /** New structures the replayed chunk must give (the earlier run's leftovers): proves the file continues this sequence. */
  private replayExpects: number | undefined;

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

  /**
   * Serve the first `earlier.count` structures from an earlier file of the same seed and subset
   * (release 2 from release 1: RDKit runs only for the structures after them, minutes instead of
   * most of an hour at full size). The result is the same sequence as enumerating from the start.
   */
  continueFrom(earlier: EarlierStructures): void {
    if (this.nextId !== 1) throw new Error('continueFrom must be called before the first take');
    if (earlier.accepted < earlier.count)
      throw new Error(`the earlier file holds ${earlier.count} structures but its run accepted only ${earlier.accepted}`);
    this.earlier = earlier;
  }

  /** The next `n` structures of the sequence. Throws when the subset cannot give that many. */
  async take(n: number): Promise<Structure[]> {
    const reused = this.earlier ? this.takeEarlier(n) : [];
    const wanted = n - reused.length;
    if (wanted === 0) return reused;
    const enumerated = await this.enumerate(wanted);
    return reused.length > 0 ? [...reused, ...enumerated] : enumerated;
  }

  private takeEarlier(n: number): Structure[] {
    const earlier = this.earlier as EarlierStructures;
    const out: Structure[] = [];
    while (out.length < n && this.stats.reused < earlier.count) {
      const next = earlier.rows.next();
      if (next.done) throw new Error(`the earlier file ended after ${this.stats.reused} of its ${earlier.count} structures`);
      if (!this.seen.add(next.value.smiles))
        throw new Error(`the earlier file repeats a structure (${next.value.smiles}): not one of this generator's`);
      out.push(next.value);
      this.stats.reused++;
      this.stats.accepted++;
    }
    if (this.stats.reused === earlier.count) {
      this.earlier = undefined;
      this.replay = this.skipParents(earlier.parentsRead);
      this.stats.parentsRead = earlier.parentsRead - this.replay.length;
      this.replayExpects = earlier.accepted - earlier.count;
    }
    return out;
  }

  /**
   * Moves the parent cursor past `count` parents, as the earlier run's requests did, and returns
   * the last chunk: its reply was consumed last, so its structures not taken yet come next.
   */
  private skipParents(count: number): Chunk {
    let read = 0;
    let last: Chunk = [];
    while (read < count && this.round < MAX_ROUNDS) {
      const chunk = this.nextChunk();
      if (chunk.length === 0) continue;
      read += chunk.length;
      last = chunk;
    }
    if (read !== count)
      throw new Error(`the earlier run's position (${count} parents) is not where one of its requests ended: not this sequence`);
    return last;
  }

  private async enumerate(n: number): Promise<Structure[]> {
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
      const request = worker.ready
        .then(() => worker.run(this.nextId++, chunk, this.inchi))
        .finally(() => {
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
  private nextChunk(): Chunk {
    if (this.replay) {
      const chunk = this.replay;
      this.replay = undefined;
      return chunk;
    }
    const chunk: Chunk = [];
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
    const acceptedBefore = this.stats.accepted;
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
    // The first reply after an earlier file is its last chunk again: exactly its leftovers are new.
    if (this.replayExpects !== undefined) {
      const fresh = this.stats.accepted - acceptedBefore;
      if (fresh !== this.replayExpects)
        throw new Error(
          `the earlier file does not continue into this sequence (its last request gave ${fresh} new structures here, ${this.replayExpects} there): another seed, subset or generator?`,
        );
      this.replayExpects = undefined;
    }
  }
}
