import fs from 'node:fs';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ChemSearchCancelled } from './chem-engine.ts';
import type { EngineProgress, EngineStatus } from './chem-engine.ts';
import type { EnginePool } from './engine-pool.ts';
import { WorkerLost } from './engine-worker.ts';
import type { WorkerHandle } from './engine-worker.ts';
import { IndexLoader } from './index-loader.ts';
import type { LoadedShard } from './index-loader.ts';
import { IndexSnapshotWriter, indexSnapshotKey, readIndexSnapshot } from './index-snapshot.ts';
import type { ShardPayload, ShardRange } from './worker-protocol.ts';

/** How often a search waiting for the index reports the load's progress. */
const INDEX_PROGRESS_MS = 500;
/** A shard build (addShard of 8,192 structures: ~0.3 s) is given at least this long. */
const SHARD_BUILD_MS = 120_000;

export interface StructureIndexSettings {
  shardSize: number;
  maxStructures?: number;
  refreshIntervalMs?: number;
  requestLimitMs: number;
  snapshot?: { file: string; version: () => Promise<string | null>; onError?: (message: string, error: unknown) => void };
  revision?: () => Promise<string>;
  log?: (message: string) => void;
}

/**
 * The structure index: `structures` read into shards spread over the workers (from the local
 * snapshot when its key holds: index-snapshot.ts), the load's status and progress, the refresh that
 * adds new structures or rebuilds after changes, and the shards of a replaced worker read again from
 * their str_id ranges.
 */
export class StructureIndex {
  current: EngineStatus = { state: 'idle', loaded: 0, total: 0, shards: 0, workers: 0, loadMs: null, fragmentsReady: false, error: null };
  /** Where each shard's rows are and which worker slot holds it (loaded: its build finished). */
  private readonly shardRanges = new Map<number, { range: ShardRange; slot: number; loaded: boolean }>();
  private readonly loader: IndexLoader;
  /** The last load from the first structure read the local snapshot (index-snapshot.ts). */
  private snapshotUsed = false;
  /** `settings.revision` as it was when the index was last read from the first structure. */
  private loadedRevision: string | null = null;
  private loading: Promise<void> | null = null;
  private refreshing: Promise<void> | null = null;
  private refreshTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly settings: StructureIndexSettings,
    private readonly pool: EnginePool,
    /** After each load: `recovering` when a worker is being replaced (its shards are not all in). */
    private readonly onLoaded: (recovering: boolean) => void,
  ) {
    this.loader = new IndexLoader(db, settings.shardSize, settings.maxStructures);
  }

  /** Shards per worker slot. */
  shardsPerSlot(): Map<number, number> {
    const perSlot = new Map<number, number>();
    for (const { slot } of this.shardRanges.values()) perSlot.set(slot, (perSlot.get(slot) ?? 0) + 1);
    return perSlot;
  }

  private reset(): void {
    this.loader.reset();
    this.shardRanges.clear();
    this.current = { ...this.current, state: 'idle', loaded: 0, total: 0, shards: 0 };
  }

  start(): void {
    if (this.loading || this.pool.closed) return;
    this.pool.spawn();
    this.loading = this.track(this.loadNew());
    const every = this.settings.refreshIntervalMs ?? 0;
    if (every > 0 && !this.refreshTimer) {
      this.refreshTimer = setInterval(() => void this.refresh().catch(() => undefined), every);
      this.refreshTimer.unref();
    }
  }

  stop(): void {
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    this.refreshTimer = null;
  }

  /** A failed load is reported by status() and by the next search, and the next refresh starts over. */
  private track(load: Promise<void>): Promise<void> {
    const tracked = load.catch((error: unknown) => {
      this.current = { ...this.current, state: 'failed', error: error instanceof Error ? error.message : String(error) };
      throw error;
    });
    tracked.catch(() => undefined);
    return tracked;
  }

  async ready(signal?: AbortSignal, onWait?: (progress: EngineProgress) => void): Promise<void> {
    this.start();
    const loading = this.loading;
    if (!loading) throw new Error(this.current.error ?? 'The structure index is not loaded.');
    if (signal?.aborted) throw new ChemSearchCancelled('The structure search was cancelled.');
    const report = () => onWait?.({ phase: 'index', searched: this.current.loaded, total: this.current.total, hits: 0 });
    const timer = onWait && this.current.state !== 'ready' ? setInterval(report, INDEX_PROGRESS_MS) : null;
    if (timer) report();
    try {
      await new Promise<void>((resolve, reject) => {
        const abort = () => reject(new ChemSearchCancelled('The structure search was cancelled.'));
        signal?.addEventListener('abort', abort, { once: true });
        // A replaced worker's shards are back before a new search starts: it would miss them.
        loading
          .then(() => this.pool.recovered())
          .then(() => {
            if (this.current.state === 'failed') throw new Error(this.current.error ?? 'The structure index failed.');
          })
          .then(resolve, reject)
          .finally(() => signal?.removeEventListener('abort', abort));
      });
    } finally {
      if (timer) clearInterval(timer);
    }
  }

  /** Loads structures with ids above those already indexed; the first call loads everything. */
  private async loadNew(): Promise<void> {
    const started = performance.now();
    // Read before the rows: a change in place during the load moves it again, so a refresh sees it.
    if (this.loader.fromStart && this.settings.revision) this.loadedRevision = await this.settings.revision();
    const workers = this.pool.workers;
    await Promise.all(workers.map((w) => w.ready));
    const total = this.current.loaded + (await this.loader.countAbove(this.loader.lastId));
    this.current = {
      ...this.current,
      state: this.current.state === 'ready' || this.current.state === 'recovering' ? this.current.state : 'loading',
      total,
      error: null,
    };
    // Two shards in flight per worker: the database read of the next overlaps the shard build.
    const inFlight = new Set<Promise<void>>();
    for await (const shard of this.shardSource()) {
      const slot = this.current.shards % this.pool.workers.length;
      const worker = this.pool.workers[slot];
      if (!worker) throw new Error('The chemistry workers stopped.');
      this.current = { ...this.current, shards: this.current.shards + 1 };
      this.shardRanges.set(shard.range.shardId, { range: shard.range, slot, loaded: false });
      const added = this.addShard(worker, shard).finally(() => inFlight.delete(added));
      inFlight.add(added);
      if (inFlight.size >= this.pool.workers.length * 2) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    await this.pool.recovered();
    const recovering = this.pool.recoveringCount > 0;
    this.current = {
      ...this.current,
      state: recovering ? 'recovering' : 'ready',
      total: this.current.loaded,
      loadMs: Math.round(performance.now() - started),
      error: null,
    };
    this.settings.log?.(
      `structure index: ${this.current.loaded} structures in ${this.current.shards} shards, ${this.current.loadMs} ms${this.snapshotUsed ? ' (from the local snapshot)' : ''}`,
    );
    this.onLoaded(recovering);
  }

  /**
   * The shards to load: on a load from the first structure, those of the local snapshot when its
   * key holds (index-snapshot.ts), then the database's from where they end; a whole read from the
   * database is written to the snapshot as it passes. Snapshot trouble is logged, never fatal.
   */
  private async *shardSource(): AsyncGenerator<LoadedShard> {
    const snapshot = this.settings.snapshot;
    if (this.loader.fromStart) this.snapshotUsed = false;
    const key = snapshot && this.loader.fromStart ? await this.snapshotKey() : null;
    const warn = (message: string, error: unknown) => snapshot?.onError?.(message, error);
    const stored = key
      ? await readIndexSnapshot(snapshot!.file, key).catch(
          (error: unknown) => (warn('The structure index snapshot was not used; reading the database', error), null),
        )
      : null;
    if (stored) {
      this.snapshotUsed = true;
      let last: LoadedShard | null = null;
      let read = 0;
      try {
        for await (const shard of stored.shards) {
          last = shard;
          read += shard.count;
          yield shard;
        }
      } catch (error) {
        // Damaged past its footer: the database gives the rest, and the next start reads it all.
        warn('The structure index snapshot is damaged; the rest of the index comes from the database', error);
        await fs.promises.rm(snapshot!.file, { force: true }).catch(() => undefined);
      }
      if (last) this.loader.continueAfter(last.range, read);
    }
    const writer = key && !stored ? new IndexSnapshotWriter(snapshot!.file, key) : null;
    let complete = false;
    try {
      for await (const shard of this.loader.shards()) {
        writer?.add(shard);
        yield shard;
      }
      complete = true;
    } finally {
      // In the background: a failed write only costs the next start its speed.
      if (writer)
        (complete ? writer.finish() : writer.abort()).catch((error: unknown) =>
          warn('The structure index snapshot was not written', error),
        );
    }
  }

  private async snapshotKey(): Promise<string | null> {
    const version = await this.settings.snapshot!.version().catch(() => null);
    return version === null ? null : indexSnapshotKey(this.db, version, this.settings.shardSize);
  }

  private async addShard(worker: WorkerHandle, shard: LoadedShard): Promise<void> {
    const { range, ...payload } = shard;
    let reply: { added?: number; ok?: boolean; error?: string };
    try {
      reply = await worker.request(
        { type: 'addShard', ...(payload as ShardPayload) },
        Math.max(SHARD_BUILD_MS, this.settings.requestLimitMs),
        [payload.pattern.buffer as ArrayBuffer],
      );
    } catch (error) {
      // The worker went away: its replacement reads this shard again from its range.
      if (error instanceof WorkerLost) return;
      throw error;
    }
    if (reply.ok === false) throw new Error(reply.error ?? 'A shard of the structure index could not be built.');
    const record = this.shardRanges.get(range.shardId);
    if (!record || record.loaded) return;
    record.loaded = true;
    this.current = { ...this.current, loaded: this.current.loaded + shard.count };
  }

  /**
   * A worker slot was lost: its shards are no longer in (status `recovering` while they are read
   * again). Answers their ranges.
   */
  dropSlot(slot: number): ShardRange[] {
    const lostShards = [...this.shardRanges.values()].filter((s) => s.slot === slot);
    const lostLoaded = lostShards.filter((s) => s.loaded).reduce((n, s) => n + s.range.count, 0);
    for (const shard of lostShards) shard.loaded = false;
    this.current = {
      ...this.current,
      loaded: this.current.loaded - lostLoaded,
      state: this.current.state === 'ready' || this.current.state === 'recovering' ? 'recovering' : this.current.state,
    };
    return lostShards.map((s) => s.range);
  }

  /** Rebuilds a replaced worker's shards from their str_id ranges; false when it went away meanwhile. */
  async reload(handle: WorkerHandle, ranges: ShardRange[]): Promise<boolean> {
    await handle.ready;
    for (const range of ranges) {
      if (handle.gone || this.pool.closed) return false;
      // Dropped by a rebuild (refresh after deletions) meanwhile: nothing to restore.
      if (!this.shardRanges.has(range.shardId)) continue;
      await this.addShard(handle, { ...(await this.loader.reread(range)), range });
    }
    return true;
  }

  /** Single-flight: concurrent callers (timer, seed, import) share one refresh. */
  refresh(): Promise<void> {
    this.refreshing ??= this.refreshOnce().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async refreshOnce(): Promise<void> {
    if (!this.loading) return this.start();
    await this.pool.recovered();
    // A failed load, or a worker that could not be rebuilt: start over.
    const failed =
      (await this.loading.then(
        () => false,
        () => true,
      )) || this.current.state === 'failed';
    const changed = failed || (await this.revised()) ? 'shrunk' : await this.loader.changed(this.current.loaded);
    if (changed === 'none') return;
    if (changed === 'shrunk') {
      // Structures were deleted or changed in place, or the last load failed: rebuild from scratch.
      // Searches running meanwhile report themselves incomplete (their missing shards are counted).
      await Promise.all(this.pool.workers.map((w) => w.request({ type: 'dropShards' }, SHARD_BUILD_MS).catch(() => undefined)));
      this.reset();
    }
    this.loading = this.track(this.loadNew());
    await this.loading;
  }

  /** The stored structures changed in place since the index read them (`settings.revision`). */
  private async revised(): Promise<boolean> {
    if (!this.settings.revision || this.loadedRevision === null) return false;
    return (await this.settings.revision()) !== this.loadedRevision;
  }
}
