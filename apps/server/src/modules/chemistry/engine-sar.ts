import { ChemInputError, ChemQueryRefused, ChemSearchCancelled } from './chem-engine.ts';
import type { ChemQuery, PairDifference, RGroupDecompositionResult, SarWorkOptions, SingleCut } from './chem-engine.ts';
import type { EnginePool } from './engine-pool.ts';
import { atomsMessage, checkQueryLimits, joinedViolation, limitViolation } from './query-limits.ts';
import type { QueryLimits } from './query-limits.ts';
import {
  SAR_CHUNK,
  SAR_MAX_SMILES,
  assembleDecomposition,
  assembleRows,
  chooseStrategy,
  mcsSample,
  resolveSymmetry,
  tooManySmiles,
  usedLabels,
  zipInput,
} from './sar-work.ts';
import type { SarReply, WorkerRequest } from './worker-protocol.ts';

/**
 * Watchdog time per compound of a bulk SAR chunk (scaffolds, fragments, contains), on top of the
 * request limit: the inputs are stored structures, already bounded, and a loaded machine may take
 * several times the usual few milliseconds each; the watchdog is for a runaway query, not a queue.
 */
const SAR_ITEM_MS = 50;
/** Matched-pair cuts kept in memory, by SMILES (≈ 1–2 kB each: a few MB). */
const FRAGMENTS_CACHED = 20_000;
/** Longest RDKit time limit of one cliff pair's MCS. */
const MCS_PAIR_MAX_SECONDS = 5;

/** The SAR requests answered with a SarReply. */
type SarRequest = Extract<WorkerRequest, { type: 'rgdChunk' | 'scaffolds' | 'contains' | 'fragments' }>;

/**
 * A decomposition that cannot start on the user's core is the core's fault, whatever RDKit said:
 * an unreadable core, or an exception RDKit threw while labelling it or setting up the
 * decomposition (which the worker reports as `internal`). Answered 400 with RDKit's message.
 */
function coreRefused(reply: { error?: string; internal?: boolean }): ChemInputError {
  const message = reply.error ?? 'RDKit could not read the core.';
  return new ChemInputError(reply.internal ? `RDKit could not decompose on this core: ${message.replace(/^RDKit failed: /, '')}` : message);
}

/**
 * The SAR view's chemistry (docs/sar.md) on the engine's workers: R-group decomposition (in
 * parallel chunks on one labelled core, else one decomposition on one worker), scaffolds, MCS,
 * pair differences, substructure tests, matched-pair cuts and zips; inputs checked against the
 * limits first, work sent in chunks with progress and a cancel heard between them.
 */
export class SarWork {
  private readonly fragmentCache = new Map<string, SingleCut[]>();

  constructor(
    private readonly pool: EnginePool,
    private readonly limits: { query: Readonly<QueryLimits>; stored: Readonly<QueryLimits>; requestMs: number; testHooks: boolean },
  ) {}

  /** Stored SMILES for SAR work: at most SAR_MAX_SMILES; one over the stored-structure limits is treated as unreadable (''). */
  private sarInputs(smiles: readonly string[]): string[] {
    if (smiles.length > SAR_MAX_SMILES) throw new ChemInputError(tooManySmiles(smiles.length));
    return smiles.map((s) => (s && limitViolation('smiles', s, this.limits.stored) ? '' : s));
  }

  /**
   * One core without query features (SMILES, molfile): labelled once, decomposed in chunks on every
   * worker with `NoSymmetrization`, symmetric positions resolved over the whole set on the main
   * thread (docs/sar.md "Decomposition"). Several cores, or a SMARTS core: one decomposition on
   * one worker (decomposeOnOneWorker).
   */
  async decompose(cores: ChemQuery[], smiles: readonly string[], options: SarWorkOptions = {}): Promise<RGroupDecompositionResult> {
    if (!cores.length) throw new ChemInputError('Give a core.');
    for (const core of cores) checkQueryLimits(core.kind, core.text, this.limits.query, 'core');
    const inputs = this.sarInputs(smiles);
    if (cores.length === 1 && cores[0]!.kind !== 'smarts') {
      const labelled = await this.pool.call({ type: 'rgdLabel', core: cores[0]! });
      if (!labelled.ok) throw coreRefused(labelled);
      if (labelled.plain && labelled.core) return this.decomposeInParallel(labelled, inputs, options);
    }
    return this.decomposeOnOneWorker(cores, inputs, chooseStrategy(inputs.length), options);
  }

  private async decomposeInParallel(labelled: SarReply, inputs: string[], options: SarWorkOptions): Promise<RGroupDecompositionResult> {
    const core: ChemQuery = { kind: 'smiles', text: labelled.core!, desalt: false };
    // Every open position of the core is labelled, so R-groups are only looked for at labels
    // (onlyMatchAtRGroups: the same decomposition, ~30 % faster).
    const chunks = await this.inChunks(
      inputs,
      (batch) => ({ type: 'rgdChunk', core, smiles: batch, params: { matchingStrategy: 'NoSymmetrization', onlyMatchAtRGroups: true } }),
      (reply) => reply.groups,
      options,
    );
    const permutations = labelled.permutations ?? [];
    const labels = new Set<number>(permutations.flatMap((pairs) => pairs.map(([from]) => from)));
    for (const row of chunks) if (row) for (const label of Object.keys(row)) labels.add(Number(label.slice(1)));
    const placed = resolveSymmetry(
      chunks,
      [...labels].sort((a, b) => a - b),
      permutations,
    );
    const rename = usedLabels(placed, labelled.given ?? []);
    const { labels: names, rows } = assembleRows(placed, rename);
    if (!rows.some(Boolean)) return { cores: [], labels: [], rows, strategy: 'Greedy' };
    const trimmed = await this.pool.call({ type: 'rgdCore', core: labelled.core!, rename: Object.fromEntries(rename) });
    if (!trimmed.ok || !trimmed.smiles) throw new Error(trimmed.error ?? 'RDKit failed to write the core.');
    return { cores: [trimmed.smiles], labels: names, rows, strategy: 'Greedy' };
  }

  /**
   * One RDKit decomposition of the whole set on one worker (several cores, SMARTS cores; the
   * reference of bench/sar.ts): RDKit's `strategy` resolves symmetry itself.
   */
  async decomposeOnOneWorker(
    cores: ChemQuery[],
    inputs: string[],
    strategy: 'Greedy' | 'NoSymmetrization',
    options: SarWorkOptions = {},
  ): Promise<RGroupDecompositionResult> {
    const { signal, onProgress } = options;
    return this.pool.onOneWorker(async (send) => {
      const started = await send({ type: 'rgdStart', cores, params: { matchingStrategy: strategy } });
      if (!started.ok || started.handle === undefined) throw coreRefused(started);
      const handle = started.handle;
      let open = true;
      try {
        const fits = new Uint8Array(inputs.length);
        // One decomposition for the whole set (symmetry is resolved across it), fed in chunks so
        // progress is reported and a cancel is heard between them.
        for (let at = 0; at < inputs.length; at += SAR_CHUNK) {
          if (signal?.aborted) throw new ChemSearchCancelled('The R-group decomposition was cancelled.');
          const reply = await send(
            { type: 'rgdAdd', handle, smiles: inputs.slice(at, at + SAR_CHUNK) },
            this.limits.requestMs + SAR_ITEM_MS * SAR_CHUNK,
          );
          if (!reply.ok || !reply.fits) throw new Error(reply.error ?? 'RDKit failed during the R-group decomposition.');
          fits.set(reply.fits, at);
          onProgress?.(Math.min(at + SAR_CHUNK, inputs.length), inputs.length);
        }
        if (signal?.aborted) throw new ChemSearchCancelled('The R-group decomposition was cancelled.');
        open = false;
        const finished = await send({ type: 'rgdFinish', handle, anyFit: fits.includes(1) });
        if (!finished.ok || !finished.rows) throw new Error(finished.error ?? 'RDKit failed to finish the R-group decomposition.');
        return { ...assembleDecomposition(fits, finished.rows), strategy };
      } finally {
        if (open) void send({ type: 'rgdDrop', handle }).catch(() => undefined);
      }
    });
  }

  /**
   * List work spread over the workers in chunks (as many in flight as workers, so other requests
   * keep their turn): progress after each chunk, a cancel heard before the next.
   */
  private async inChunks<R>(
    inputs: string[],
    request: (batch: string[]) => SarRequest,
    pick: (reply: SarReply) => R[] | undefined,
    options: SarWorkOptions,
  ): Promise<R[]> {
    if (!inputs.length) return [];
    this.pool.spawn();
    const { signal, onProgress } = options;
    const batches = Array.from({ length: Math.ceil(inputs.length / SAR_CHUNK) }, (_, i) =>
      inputs.slice(i * SAR_CHUNK, (i + 1) * SAR_CHUNK),
    );
    const replies: R[][] = new Array(batches.length);
    let next = 0;
    let done = 0;
    const lane = async () => {
      for (let at = next++; at < batches.length; at = next++) {
        if (signal?.aborted) throw new ChemSearchCancelled('The SAR work was cancelled.');
        const batch = batches[at]!;
        const reply = await this.pool.call(request(batch), this.limits.requestMs + SAR_ITEM_MS * batch.length);
        const part = pick(reply);
        if (!reply.ok || !part) {
          if (reply.tooManyAtoms) throw new ChemQueryRefused(atomsMessage(reply.tooManyAtoms, this.limits.query.atoms));
          if (reply.internal || reply.ok) throw new Error(reply.error ?? 'RDKit failed.');
          throw new ChemInputError(reply.error ?? 'RDKit could not read the query.');
        }
        replies[at] = part;
        done += batch.length;
        // After a cancel, a chunk still in flight on another worker is not reported.
        if (!signal?.aborted) onProgress?.(done, inputs.length);
      }
    };
    await this.pool.lanes(batches.length, lane);
    if (signal?.aborted) throw new ChemSearchCancelled('The SAR work was cancelled.');
    return replies.flat();
  }

  async scaffolds(smiles: readonly string[], options: SarWorkOptions = {}): Promise<(string | null)[]> {
    return this.inChunks(
      this.sarInputs(smiles),
      (batch) => ({ type: 'scaffolds', smiles: batch }),
      (reply) => reply.scaffolds,
      options,
    );
  }

  async contains(query: ChemQuery, smiles: readonly string[], options: SarWorkOptions = {}): Promise<boolean[]> {
    checkQueryLimits(query.kind, query.text, this.limits.query);
    const inputs = this.sarInputs(smiles);
    const hits = await this.inChunks(
      inputs,
      (batch) => ({ type: 'contains', query, smiles: batch, maxAtoms: this.limits.query.atoms }),
      (reply) => (reply.hits ? Array.from(reply.hits) : undefined),
      options,
    );
    return hits.map((hit) => hit === 1);
  }

  /**
   * Cuts are a pure function of the SMILES: the ones known are answered from memory (FRAGMENTS_CACHED
   * SMILES, least recently used out first), only the others are cut (docs/sar.md "Matched molecular pairs").
   */
  async fragments(smiles: readonly string[], options: SarWorkOptions = {}): Promise<SingleCut[][]> {
    const inputs = this.sarInputs(smiles);
    const answers: (SingleCut[] | undefined)[] = inputs.map((s) => {
      const known = this.fragmentCache.get(s);
      if (known) {
        this.fragmentCache.delete(s);
        this.fragmentCache.set(s, known);
      }
      return known;
    });
    const missing = [...new Set(inputs.filter((_, i) => answers[i] === undefined))];
    const cut = await this.inChunks(
      missing,
      (batch) => ({ type: 'fragments', smiles: batch }),
      (reply) => reply.cuts,
      {
        ...options,
        onProgress: options.onProgress && ((done) => options.onProgress!(inputs.length - missing.length + done, inputs.length)),
      },
    );
    const fresh = new Map(missing.map((s, i) => [s, cut[i] ?? []]));
    for (const [s, cuts] of fresh) {
      this.fragmentCache.set(s, cuts);
      if (this.fragmentCache.size > FRAGMENTS_CACHED) this.fragmentCache.delete(this.fragmentCache.keys().next().value as string);
    }
    options.onProgress?.(inputs.length, inputs.length);
    return inputs.map((s, i) => answers[i] ?? fresh.get(s) ?? []);
  }

  /**
   * Test hooks only: the cuts as the worker made them before (every half read again and
   * canonicalised), without the cut cache: the reference of the parity test and the bench.
   */
  async referenceFragments(smiles: readonly string[], options: SarWorkOptions = {}): Promise<SingleCut[][]> {
    if (!this.limits.testHooks) throw new Error('test hooks are off');
    return this.inChunks(
      this.sarInputs(smiles),
      (batch) => ({ type: 'fragments', smiles: batch, reference: true }),
      (reply) => reply.cuts,
      options,
    );
  }

  async pairDifferences(
    pairs: readonly (readonly [string, string])[],
    options: SarWorkOptions & { core?: string | null; timeoutSeconds?: number; budgetMs?: number } = {},
  ): Promise<(PairDifference | null)[]> {
    const inputs = this.sarInputs(pairs.flat());
    if (options.core) checkQueryLimits('smiles', options.core, this.limits.query, 'core');
    this.pool.spawn();
    const timeoutSeconds = Math.min(MCS_PAIR_MAX_SECONDS, Math.max(1, Math.round(options.timeoutSeconds ?? 1)));
    const deadline = Date.now() + (options.budgetMs ?? 4_000);
    const answers: (PairDifference | null)[] = pairs.map(() => null);
    const tried = new Uint8Array(pairs.length);
    const pairAt = (i: number): [string, string] => [inputs[2 * i]!, inputs[2 * i + 1]!];
    let next = 0;
    // One pair a call, as many at once as workers: FMCS until the budget is spent…
    const lane = async () => {
      while (next < pairs.length && Date.now() < deadline) {
        if (options.signal?.aborted) throw new ChemSearchCancelled('The SAR work was cancelled.');
        const at = next++;
        // FMCS rounds on the remainders (after the pair's own) end by the budget plus one RDKit limit, as the page does.
        const extraMs = Math.max(0, deadline - Date.now()) + timeoutSeconds * 1000;
        const reply = await this.pool.call(
          { type: 'pairDifferences', pairs: [pairAt(at)], core: options.core ?? null, timeoutSeconds, mcs: true, extraMs },
          this.limits.requestMs + extraMs,
        );
        if (reply.ok && reply.differences) answers[at] = reply.differences[0] ?? null;
        tried[at] = 1;
      }
    };
    await this.pool.lanes(pairs.length, lane, true);
    // …then the fast fallbacks (milliseconds a pair) for the pairs not reached.
    const rest = pairs.flatMap((_, i) => (tried[i] ? [] : [i]));
    for (let at = 0; at < rest.length; at += SAR_CHUNK) {
      const chunk = rest.slice(at, at + SAR_CHUNK);
      const reply = await this.pool.call(
        { type: 'pairDifferences', pairs: chunk.map(pairAt), core: options.core ?? null, timeoutSeconds, mcs: false },
        this.limits.requestMs + SAR_ITEM_MS * chunk.length,
      );
      if (reply.ok && reply.differences) chunk.forEach((i, k) => (answers[i] = reply.differences![k] ?? null));
    }
    options.onProgress?.(pairs.length, pairs.length);
    return answers;
  }

  async mcs(
    smiles: readonly string[],
    options: SarWorkOptions & { timeoutSeconds?: number; completeRings?: boolean } = {},
  ): Promise<{ smarts: string; smiles: string | null; timedOut: boolean } | null> {
    const { sample, timeoutSeconds } = mcsSample(this.sarInputs(smiles), options.timeoutSeconds);
    if (sample.length < 2) return null;
    if (options.signal?.aborted) throw new ChemSearchCancelled('The SAR work was cancelled.');
    const reply = await this.pool.call(
      { type: 'mcs', smiles: sample, timeoutSeconds, completeRings: options.completeRings ?? true },
      this.limits.requestMs + timeoutSeconds * 1000,
    );
    if (!reply.ok) throw new Error(reply.error ?? 'RDKit failed to find the maximum common substructure.');
    options.onProgress?.(smiles.length, smiles.length);
    return reply.smarts ? { smarts: reply.smarts, smiles: reply.smiles ?? null, timedOut: reply.timedOut === true } : null;
  }

  async zip(core: string, rgroups: Record<string, string | null>): Promise<string> {
    const input = zipInput(core, rgroups);
    checkQueryLimits('smiles', core, this.limits.query, 'core');
    for (const group of input.groups) checkQueryLimits('smiles', group, this.limits.query, 'R-group');
    const joined = joinedViolation([core, ...input.groups], this.limits.stored);
    if (joined) throw new ChemQueryRefused(joined);
    const reply = await this.pool.call({ type: 'zip', core, rgroups: input.groups.join('.') });
    if (!reply.ok || !reply.smiles) {
      if (reply.internal) throw new Error(reply.error ?? 'RDKit failed.');
      throw new ChemInputError(reply.error ?? 'RDKit could not join the R-groups to the core.');
    }
    return reply.smiles;
  }
}
