import type { Counts, Entity } from './proportions.ts';
/**
 * Which rows release N of a generated file has. Release 1 is `scaledCounts(scale)` rows per entity;
 * each later release keeps every key, appends ~1 % new rows to each key range (a new "segment"),
 * retires ~0.5 % of the rows that existed before it and changes ~1 % of the activities' values.
 * Every decision is a function of (seed, row index), so release 2 is release 1 plus its changes,
 * without reading release 1.
 */
export declare class ReleasePlan {
    readonly scale: number;
    readonly release: number;
    readonly seed: number;
    readonly base: Counts;
    /** Rows per entity before retirements (release 1's plus the added segments). */
    readonly counts: Counts;
    /** Rows per entity in each release up to this one (index r - 1: release r), before retirements. */
    private readonly byRelease;
    private readonly starts;
    constructor(scale: number, release: number, seed: number);
    /** Start of each segment of an entity's index range: [0, release 1's end, release 2's end, ...]. */
    segments(entity: Entity): number[];
    /** The segment (0 = release 1) an index belongs to. */
    segmentOf(entity: Entity, index: number): number;
    /** Retired by this release or an earlier one (only rows that existed before that release). */
    retired(entity: 'molecules' | 'assays' | 'activities', index: number): boolean;
    /** The last release that changed this activity's values (0: its values are release 1's). */
    valueVersion(activity: number): number;
}
/** A stream number per (kind of decision, entity, release): independent decisions stay uncorrelated. */
export declare function stream(kind: number, entity: Entity, release: number): number;
/**
 * Splits `items` rows over `groups` groups in contiguous blocks of varying size (0 to twice the
 * mean): group g owns [boundary(g), boundary(g + 1)). Jittered boundaries stay in order, so no
 * table of sizes is needed: each boundary is computed on its own.
 */
export declare function boundary(items: number, groups: number, g: number, jitter: (g: number) => number): number;
