import { releaseCounts, RELEASE_CHANGES, scaledCounts } from './proportions.ts';
import type { Counts, Entity } from './proportions.ts';
import { hash32, STREAM, unit } from './random.ts';

/**
 * Which rows release N of a generated file has. Release 1 is `scaledCounts(scale)` rows per entity;
 * each later release keeps every key, appends ~1 % new rows to each key range (a new "segment"),
 * retires ~0.5 % of the rows that existed before it and changes ~1 % of the activities' values.
 * Every decision is a function of (seed, row index), so release 2 is release 1 plus its changes,
 * without reading release 1.
 */
export class ReleasePlan {
  readonly base: Counts;
  /** Rows per entity before retirements (release 1's plus the added segments). */
  readonly counts: Counts;
  /** Rows per entity in each release up to this one (index r - 1: release r), before retirements. */
  private readonly byRelease: Counts[];
  private readonly starts = new Map<Entity, number[]>();

  constructor(
    readonly scale: number,
    readonly release: number,
    readonly seed: number,
  ) {
    if (!Number.isInteger(release) || release < 1 || release > 9) throw new Error(`--release must be 1 to 9, got ${release}`);
    this.base = scaledCounts(scale);
    this.counts = releaseCounts(this.base, release);
    this.byRelease = Array.from({ length: release }, (_, r) => releaseCounts(this.base, r + 1));
  }

  /** Start of each segment of an entity's index range: [0, release 1's end, release 2's end, ...]. */
  segments(entity: Entity): number[] {
    let starts = this.starts.get(entity);
    if (!starts) {
      starts = [0, ...this.byRelease.map((c) => c[entity])];
      this.starts.set(entity, starts);
    }
    return starts;
  }

  /** The segment (0 = release 1) an index belongs to. */
  segmentOf(entity: Entity, index: number): number {
    const starts = this.segments(entity);
    for (let s = starts.length - 2; s >= 0; s--) if (index >= (starts[s] as number)) return s;
    return 0;
  }

  /** Retired by this release or an earlier one (only rows that existed before that release). */
  retired(entity: 'molecules' | 'assays' | 'activities', index: number): boolean {
    for (let r = 2; r <= this.release; r++) {
      if (
        index < (this.byRelease[r - 2] as Counts)[entity] &&
        unit(this.seed, stream(STREAM.retire, entity, r), index) < RELEASE_CHANGES.retired
      )
        return true;
    }
    return false;
  }

  /** The last release that changed this activity's values (0: its values are release 1's). */
  valueVersion(activity: number): number {
    for (let r = this.release; r >= 2; r--) {
      if (
        activity < (this.byRelease[r - 2] as Counts).activities &&
        unit(this.seed, stream(STREAM.change, 'activities', r), activity) < RELEASE_CHANGES.changedActivities
      )
        return r;
    }
    return 0;
  }
}

const ENTITY_CODE: Record<Entity, number> = { molecules: 1, assays: 2, docs: 3, activities: 4, targets: 5 };

/** A stream number per (kind of decision, entity, release): independent decisions stay uncorrelated. */
export function stream(kind: number, entity: Entity, release: number): number {
  return hash32(kind, ENTITY_CODE[entity], release);
}

/**
 * Splits `items` rows over `groups` groups in contiguous blocks of varying size (0 to twice the
 * mean): group g owns [boundary(g), boundary(g + 1)). Jittered boundaries stay in order, so no
 * table of sizes is needed: each boundary is computed on its own.
 */
export function boundary(items: number, groups: number, g: number, jitter: (g: number) => number): number {
  if (g <= 0) return 0;
  if (g >= groups) return items;
  return Math.floor(((g + jitter(g)) * items) / groups);
}
