import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ChemInputError, ChemQueryRefused } from './chem-engine.ts';
import type {
  ChemEngine,
  ChemQuery,
  DepictOptions,
  DescribedQuery,
  EngineProgress,
  EngineStatus,
  PairDifference,
  RGroupDecompositionResult,
  SarWorkOptions,
  SearchOptions,
  SingleCut,
  StructureHits,
} from './chem-engine.ts';
import { SearchJobs, candidatesOf, firstOf, sortBySimilarity } from './engine-jobs.ts';
import { EnginePool } from './engine-pool.ts';
import { SarWork } from './engine-sar.ts';
import { seconds } from './engine-worker.ts';
import type { Loss, WorkerHandle } from './engine-worker.ts';
import { QUERY_LIMITS, STORED_LIMITS, atomsMessage, checkQueryLimits, limitViolation, withLimits } from './query-limits.ts';
import type { QueryLimits } from './query-limits.ts';
import { StructureIndex } from './structure-index.ts';
import type { ShardRange } from './worker-protocol.ts';

export { TRAP_MESSAGE } from './engine-pool.ts';

/** Molblocks per worker request (SDF export): each request stays well inside its time limit. */
const MOLBLOCK_BATCH = 100;
/** Time a molblock may take on top of the request limit (2D layout: ~1.5 ms for a drug-like molecule). */
const MOLBLOCK_MS = 20;
/** The warm-up's query (any drug-like molecule: only the work it makes RDKit do matters). */
const WARM_UP_SMILES = 'CC(=O)Nc1ccc(O)cc1';
/** A worker slot replaced this many times in a row without finishing its reload: the engine gives up. */
const MAX_RECOVERIES = 3;

export interface RdkitEngineOptions {
  /** Worker threads (default: every core). */
  workers?: number;
  /** Structures per shard: the unit of scheduling, progress and cancellation. */
  shardSize?: number;
  /** How often to look for structures added by another process (0 = never). */
  refreshIntervalMs?: number;
  /** Index only the first N structures by id (benchmarks of a smaller scale on one database). */
  maxStructures?: number;
  /** Limits of queries (describe, searches, highlights, depictions of typed structures); QUERY_LIMITS by default. */
  queryLimits?: Partial<QueryLimits>;
  /** Limits of stored structures (depictions by id, molblocks, the index); STORED_LIMITS by default. */
  storedLimits?: Partial<QueryLimits>;
  /** A request (describe, depict, a molblocks batch) running longer is stopped by terminating its worker (default 10 s). */
  requestTimeLimitMs?: number;
  /** One shard step of a search running longer is stopped the same way (default 30 s). */
  stepTimeLimitMs?: number;
  /** Enables `testHook()` and the workers' test messages (tests only; nothing over HTTP reaches them). */
  testHooks?: boolean;
  /**
   * Keep the exact answers of the last substructure queries, so that one asked again is read, not
   * matched (default true; benchmarks turn it off to time every query as asked the first time).
   */
  keepRecentAnswers?: boolean;
  /** The workers' threads run at this nice value (Linux; 0: the process's own): searches yield the CPU to requests. */
  workerNice?: number;
  log?: (message: string) => void;
  /**
   * Keep the index's shards in a local file between starts (index-snapshot.ts): `version` is the
   * knowledge base's version as the caller knows it (null while a load runs: no snapshot then).
   */
  snapshot?: { file: string; version: () => Promise<string | null>; onError?: (message: string, error: unknown) => void };
  /**
   * The stored structures' revision, which moves when rows change in place (fingerprints filled,
   * knowledge-base/fill-fingerprints.ts): a refresh that sees it move rebuilds the index, on this
   * server and on every other one sharing the database (their refresh timers ask too).
   */
  revision?: () => Promise<string>;
}

/**
 * RDKit MinimalLib in a pool of worker threads (docs/architecture.md "Chemistry engine"). The index is
 * sharded across the workers: each shard holds its stored SMILES and its substructure screen (the
 * pattern fingerprints bit by bit) in its worker, plus Morgan fingerprints in SharedArrayBuffers;
 * a substructure candidate is decided in JavaScript where RDKit's rules allow, else by RDKit
 * (worker/search.mjs, docs/architecture.md "Chemistry engine"). A search runs on
 * every worker at once, shard by shard, so it streams progress and can be cancelled.
 *
 * Queries are checked against limits before RDKit sees them (query-limits.ts). A worker whose
 * RDKit traps, or whose request or search step runs past its time (the watchdog), is replaced:
 * the culprit is answered with a 400, only that worker's shards are read again, and the other
 * requests and searches it was serving are sent again once it is back.
 *
 * Its parts: the workers, watchdog and request retries (engine-pool.ts, engine-worker.ts), the
 * index's shards, load, snapshot and refresh (structure-index.ts), the searches as jobs
 * (engine-jobs.ts) and the SAR work (engine-sar.ts); here, the calls and what a lost worker does
 * to each part.
 */
export class RdkitChemEngine implements ChemEngine {
  private readonly pool: EnginePool;
  private readonly index: StructureIndex;
  private readonly jobs: SearchJobs;
  private readonly sar: SarWork;
  private readonly queryLimits: Readonly<QueryLimits>;
  private readonly storedLimits: Readonly<QueryLimits>;
  private readonly requestLimitMs: number;
  private readonly stepLimitMs: number;
  private readonly shardSize: number;
  /** The first load was followed by its warm-up (`warmUp`). */
  private warmed = false;

  constructor(
    db: Kysely<Database>,
    private readonly options: RdkitEngineOptions = {},
  ) {
    this.shardSize = options.shardSize ?? 8192;
    this.queryLimits = withLimits(QUERY_LIMITS, options.queryLimits);
    this.storedLimits = withLimits(STORED_LIMITS, options.storedLimits);
    this.requestLimitMs = options.requestTimeLimitMs ?? 10_000;
    this.stepLimitMs = options.stepTimeLimitMs ?? 30_000;
    this.pool = new EnginePool(
      {
        workers: options.workers,
        testHooks: options.testHooks === true,
        keepRecentAnswers: options.keepRecentAnswers !== false,
        nice: options.workerNice ?? 0,
        requestLimitMs: this.requestLimitMs,
        stepLimitMs: this.stepLimitMs,
        log: options.log,
      },
      {
        onJobMessage: (handle, message) => this.jobs.onMessage(handle, message),
        onLost: (handle, loss) => this.onWorkerLost(handle, loss),
      },
    );
    this.index = new StructureIndex(
      db,
      {
        shardSize: this.shardSize,
        maxStructures: options.maxStructures,
        refreshIntervalMs: options.refreshIntervalMs,
        requestLimitMs: this.requestLimitMs,
        snapshot: options.snapshot,
        revision: options.revision,
        log: options.log,
      },
      this.pool,
      (recovering) => {
        if (!recovering) this.pool.allowFragments();
        this.warmUp();
      },
    );
    this.jobs = new SearchJobs(this.pool, this.index, () => this.stepTimeoutMessage());
    this.sar = new SarWork(this.pool, {
      query: this.queryLimits,
      stored: this.storedLimits,
      requestMs: this.requestLimitMs,
      testHooks: options.testHooks === true,
    });
  }

  /** The worker handles (engine-parity.api.test.ts kills one thread from outside through them). */
  private get workers(): readonly WorkerHandle[] {
    return this.pool.workers;
  }

  status(): EngineStatus {
    return { ...this.index.current, workers: this.workers.length, fragmentsReady: this.fragmentsReady() };
  }

  startupState(): 'warming' | 'ready' | 'failed' {
    const { state } = this.index.current;
    if (state === 'failed') return 'failed';
    return state === 'ready' && (this.pool.fragmentsOff || this.fragmentsReady()) ? 'ready' : 'warming';
  }

  private fragmentsReady(): boolean {
    return this.index.current.state === 'ready' && this.pool.fragmentsWarmed(this.index.shardsPerSlot());
  }

  /**
   * A worker went away (trap, watchdog, crash). Its culprit is answered; the searches it was
   * serving wait for its shards to be rebuilt on a replacement and then search them there.
   */
  private onWorkerLost(handle: WorkerHandle, loss: Loss): void {
    const slot = this.pool.slotOf(handle);
    if (this.pool.closed || slot < 0) return;
    if (this.pool.lostWarming(loss)) {
      this.options.log?.(
        'chemistry: the frequent fragments are no longer computed ahead (a worker was lost computing them); searches match them like any query',
      );
    }
    this.options.log?.(`chemistry worker ${slot} lost (${loss.reason}: ${loss.detail}); replacing it and reloading its shards`);
    const lostShards = this.index.dropSlot(slot);
    this.jobs.onWorkerLost(
      handle,
      slot,
      loss,
      lostShards.map((range) => range.shardId),
    );
    const { replacement, attempts } = this.pool.replace(slot);
    if (attempts > MAX_RECOVERIES) {
      // Its shards keep killing workers (a stored structure RDKit cannot take).
      this.giveUpRecovery(slot, `A chemistry worker was lost ${attempts} times in a row while its shards were reloaded.`);
      return;
    }
    void this.recover(slot, replacement, lostShards).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      this.options.log?.(`chemistry worker ${slot} could not be rebuilt: ${message}`);
      // A later loss of this worker took over its recovery; otherwise nobody else will end it.
      if (this.pool.closed || this.pool.workers[slot] !== replacement) return;
      this.giveUpRecovery(slot, `A chemistry worker could not reload its shards (${message}).`);
    });
  }

  /** Rebuilds a replaced worker's shards from their str_id ranges, then resumes the searches waiting for them. */
  private async recover(slot: number, handle: WorkerHandle, ranges: ShardRange[]): Promise<void> {
    const started = performance.now();
    if (!(await this.index.reload(handle, ranges))) return;
    if (handle.gone || this.pool.closed || this.pool.workers[slot] !== handle) return;
    this.pool.endRecovery(slot);
    this.options.log?.(
      `chemistry worker ${slot} replaced: ${ranges.length} shards reloaded in ${Math.round(performance.now() - started)} ms`,
    );
    this.jobs.resume(slot, handle);
    if (this.pool.recoveringCount === 0 && this.index.current.state === 'recovering') {
      this.index.current = { ...this.index.current, state: 'ready' };
      this.pool.allowFragments();
    }
    this.pool.wakeIfRecovered();
  }

  /**
   * Stops waiting for a slot's shards: the engine says `failed` (searches are refused with the reason
   * rather than answered without those shards) until the next refresh rebuilds the whole index.
   */
  private giveUpRecovery(slot: number, reason: string): void {
    this.pool.endRecovery(slot);
    this.index.current = { ...this.index.current, state: 'failed', error: reason };
    this.jobs.failSlot(slot);
    this.pool.wakeIfRecovered();
  }

  private stepTimeoutMessage(): string {
    return `The structure search was stopped on one part of the index: RDKit spent more than ${seconds(this.stepLimitMs)} on ${this.shardSize.toLocaleString('en-US')} structures for this query. The query is too generic or too complex: add atoms or ring detail to the query, or use a similarity search.`;
  }

  start(): void {
    this.index.start();
  }

  ready(signal?: AbortSignal, onWait?: (progress: EngineProgress) => void): Promise<void> {
    return this.index.ready(signal, onWait);
  }

  /** Single-flight: concurrent callers (timer, seed, import) share one refresh. */
  refresh(): Promise<void> {
    return this.index.refresh();
  }

  /**
   * Work nobody waits for, once the index is first in: each worker reads and fingerprints a query,
   * then similarity scans (four thresholds and the k nearest) and short substructure searches run over the shards. The first
   * searches after start-up were measured slower than the next ones (≈ 100 ms more at L; at 74,000
   * ChEMBL structures 161 ms against a 10 ms median with one similarity scan as the only warm-up):
   * in each worker V8 compiles RDKit's WebAssembly functions on their first call and optimises the
   * busy ones later. A chemist's first search should not pay for that.
   */
  private warmUp(): void {
    if (this.warmed || this.index.current.loaded === 0) return;
    this.warmed = true;
    const query: ChemQuery = { kind: 'smiles', text: WARM_UP_SMILES, desalt: true };
    void (async () => {
      await Promise.all(this.pool.workers.map(() => this.describe(query)));
      // Scans at several thresholds, and the k nearest: the scan's loop is optimised by V8 only
      // after some calls (the first probes of a similarity bench at 745,000 structures: 13–36 ms,
      // against a steady 3–12 ms).
      for (const min of [0.5, 0.7, 0.8, 0.9]) await this.similarity(query, { min, max: 1 });
      await this.similarity(query, { min: 0, max: 1 }, { nearest: 100 });
      // The substructure screen and the JavaScript matchers over every shard (a selective search
      // in full), matching with many candidates, and a SMARTS outline with RDKit's verification:
      // measured 200 ms → 6 ms for the first selective search after start at 73,598 structures.
      await this.substructure({ kind: 'smiles', text: 'c1ccc2[nH]ccc2c1', desalt: false });
      await this.substructure(query, { limit: 2_000 });
      await this.substructure({ kind: 'smarts', text: '[#6;R]-[#7]', desalt: false }, { limit: 500 });
    })().catch(() => undefined);
  }

  async describe(query: ChemQuery, options: { inchi?: boolean } = {}): Promise<DescribedQuery> {
    checkQueryLimits(query.kind, query.text, this.queryLimits);
    const reply = await this.pool.call({ type: 'describe', query, maxAtoms: this.queryLimits.atoms, inchi: options.inchi === true });
    if (!reply.ok) {
      if (reply.tooManyAtoms) throw new ChemQueryRefused(atomsMessage(reply.tooManyAtoms, this.queryLimits.atoms));
      if (reply.internal) throw new Error(reply.error ?? 'RDKit failed.');
      throw new ChemInputError(reply.error ?? 'RDKit could not read the query.');
    }
    return { smiles: reply.smiles, smarts: reply.smarts, atoms: reply.atoms ?? 0, morgan: reply.morgan, inchi: reply.inchi };
  }

  async depict(input: { kind: 'smiles' | 'smarts' | 'molfile'; text: string }, options: DepictOptions): Promise<string> {
    const limits = options.stored ? this.storedLimits : this.queryLimits;
    checkQueryLimits(input.kind, input.text, limits, options.stored ? 'drawn structure' : 'structure query');
    if (options.highlight) checkQueryLimits(options.highlight.kind, options.highlight.text, this.queryLimits, 'highlight');
    if (options.align) checkQueryLimits(options.align.kind, options.align.text, this.queryLimits, 'alignment template');
    const reply = await this.pool.call({
      type: 'depict',
      kind: input.kind,
      text: input.text,
      width: options.width,
      height: options.height,
      highlight: options.highlight
        ? { kind: options.highlight.kind, text: options.highlight.text, mode: options.highlight.mode ?? 'match' }
        : null,
      align: options.align ? { kind: options.align.kind, text: options.align.text } : null,
      maxAtoms: limits.atoms,
    });
    if (!reply.ok || !reply.svg) {
      if (reply.tooManyAtoms)
        throw new ChemQueryRefused(atomsMessage(reply.tooManyAtoms, limits.atoms, options.stored ? 'drawn structure' : 'structure query'));
      if (reply.internal) throw new Error(reply.error ?? 'RDKit failed.');
      throw new ChemInputError(reply.error ?? 'RDKit could not draw the structure.');
    }
    return reply.svg;
  }

  async molblocks(smiles: readonly string[]): Promise<(string | null)[]> {
    if (!smiles.length) return [];
    // Batches across the workers: RDKit's 2D layout is the slow part of an SDF (about 1.5 ms a
    // molecule), and each batch is short enough for the watchdog's limit. A stored SMILES over the
    // stored-structure limits gets no molblock.
    this.pool.spawn();
    const safe = smiles.map((s) => (s && s.length > this.storedLimits.atoms && limitViolation('smiles', s, this.storedLimits) ? '' : s));
    const batches = Array.from({ length: Math.ceil(safe.length / MOLBLOCK_BATCH) }, (_, i) =>
      safe.slice(i * MOLBLOCK_BATCH, (i + 1) * MOLBLOCK_BATCH),
    );
    const replies: (string | null)[][] = new Array(batches.length);
    // As many batches in flight as workers: the queue order stays fair to other requests.
    let next = 0;
    const lane = async () => {
      for (let at = next++; at < batches.length; at = next++) {
        const batch = batches[at]!;
        let reply: { ok: boolean; blocks?: (string | null)[]; error?: string };
        try {
          reply = await this.pool.call({ type: 'molblocks', smiles: batch }, this.requestLimitMs + MOLBLOCK_MS * batch.length);
        } catch (error) {
          if (error instanceof ChemQueryRefused)
            throw new Error(
              `RDKit could not write molblocks for structures ${at * MOLBLOCK_BATCH + 1}–${at * MOLBLOCK_BATCH + batch.length}: ${error.message}`,
            );
          throw error;
        }
        if (!reply.ok || !reply.blocks) throw new Error(reply.error ?? 'RDKit failed to write molblocks.');
        replies[at] = reply.blocks;
      }
    };
    await this.pool.lanes(batches.length, lane);
    return replies.flat();
  }

  // ---------------------------------------------------------------- SAR work (engine-sar.ts, docs/sar.md)

  decompose(cores: ChemQuery[], smiles: readonly string[], options: SarWorkOptions = {}): Promise<RGroupDecompositionResult> {
    return this.sar.decompose(cores, smiles, options);
  }

  /** One RDKit decomposition of the whole set on one worker (the reference of bench/sar.ts). */
  decomposeOnOneWorker(
    cores: ChemQuery[],
    inputs: string[],
    strategy: 'Greedy' | 'NoSymmetrization',
    options: SarWorkOptions = {},
  ): Promise<RGroupDecompositionResult> {
    return this.sar.decomposeOnOneWorker(cores, inputs, strategy, options);
  }

  scaffolds(smiles: readonly string[], options: SarWorkOptions = {}): Promise<(string | null)[]> {
    return this.sar.scaffolds(smiles, options);
  }

  contains(query: ChemQuery, smiles: readonly string[], options: SarWorkOptions = {}): Promise<boolean[]> {
    return this.sar.contains(query, smiles, options);
  }

  fragments(smiles: readonly string[], options: SarWorkOptions = {}): Promise<SingleCut[][]> {
    return this.sar.fragments(smiles, options);
  }

  /** Test hooks only: the cuts as the worker made them before (the parity test's and the bench's reference). */
  referenceFragments(smiles: readonly string[], options: SarWorkOptions = {}): Promise<SingleCut[][]> {
    return this.sar.referenceFragments(smiles, options);
  }

  pairDifferences(
    pairs: readonly (readonly [string, string])[],
    options: SarWorkOptions & { core?: string | null; timeoutSeconds?: number; budgetMs?: number } = {},
  ): Promise<(PairDifference | null)[]> {
    return this.sar.pairDifferences(pairs, options);
  }

  mcs(
    smiles: readonly string[],
    options: SarWorkOptions & { timeoutSeconds?: number; completeRings?: boolean } = {},
  ): Promise<{ smarts: string; smiles: string | null; timedOut: boolean } | null> {
    return this.sar.mcs(smiles, options);
  }

  zip(core: string, rgroups: Record<string, string | null>): Promise<string> {
    return this.sar.zip(core, rgroups);
  }

  // ---------------------------------------------------------------- searches (engine-jobs.ts)

  async substructure(query: ChemQuery, options: SearchOptions = {}): Promise<StructureHits> {
    // Checked first on one worker: a bad query is a 400 before any work, not N worker failures.
    const described = await this.describe(query);
    return {
      ...(await this.jobs.run({ type: 'substructure', query, maxAtoms: this.queryLimits.atoms, ...candidatesOf(options) }, options)),
      query: described,
    };
  }

  async similarity(query: ChemQuery, range: { min: number; max: number }, options: SearchOptions = {}): Promise<StructureHits> {
    if (query.kind === 'smarts')
      throw new ChemInputError('Similarity compares whole molecules: enter a SMILES or a molfile, not a SMARTS pattern.');
    const described = await this.describe(query);
    if (!described.morgan) throw new ChemInputError('RDKit could not compute a fingerprint for the query.');
    // Every hit is needed to know the most similar ones: a first page is cut after sorting.
    const nearest = options.nearest && options.nearest > 0 ? { nearest: options.nearest } : {};
    const found = sortBySimilarity(
      await this.jobs.run(
        { type: 'similarity', morgan: described.morgan, min: range.min, max: range.max, ...nearest, ...candidatesOf(options) },
        { ...options, limit: 0 },
      ),
    );
    // Each worker sends what passed its own k-th best: the nearest of all are the first k.
    const hits = { ...(nearest.nearest ? firstOf(found, nearest.nearest) : found), query: described };
    const limit = options.limit ?? 0;
    return limit > 0 ? { ...firstOf(hits, limit), total: hits.total } : hits;
  }

  /**
   * Test hooks (constructor option `testHooks`; nothing over HTTP reaches them): make one worker
   * trap or spin past its time limit, in a request of its own (`request`) or in the steps of a
   * substructure search of `query` on the first worker (`search`).
   */
  async testHook(mode: 'trap' | 'spin', where: 'request' | 'search', query?: ChemQuery): Promise<unknown> {
    if (!this.options.testHooks) throw new Error('test hooks are off');
    if (where === 'request') return this.pool.call({ type: 'test', mode });
    const q = query ?? { kind: 'smiles', text: 'C', desalt: true };
    return this.jobs.run({ type: 'substructure', query: q, maxAtoms: this.queryLimits.atoms }, {}, mode);
  }

  async close(): Promise<void> {
    this.pool.closed = true;
    this.index.stop();
    this.jobs.closeAll();
    await this.pool.close();
  }
}
