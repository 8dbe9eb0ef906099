/**
 * How big a generated release is: ChEMBL 35's proportions (rounded, as issue 40 states them) times
 * the scale. Every other figure (shares of published-only values, of molecules without a structure,
 * units ...) comes from the subset's real rows, not from here.
 */
export declare const FULL_SIZE: {
    readonly molecules: 2400000;
    readonly assays: 1700000;
    readonly docs: 90000;
    readonly activities: 20000000;
    readonly targets: 15000;
};
export type Entity = keyof typeof FULL_SIZE;
export type Counts = Record<Entity, number>;
/** Rows per entity at a scale (1 = full size); at least one of each, so every join has a row. */
export declare function scaledCounts(scale: number): Counts;
/**
 * Release N+1 of the same file (`--release 2`): the same seed and keys, then per release after the
 * first these shares of release 1's rows change, retire or are added (issue 40's second import).
 */
export declare const RELEASE_CHANGES: {
    /** Activities whose values change (another deterministic perturbation). */
    readonly changedActivities: 0.01;
    /** Molecules, assays and activities that disappear (with the activities of retired molecules and assays). */
    readonly retired: 0.005;
    /** New rows at the end of every key range (molecules, assays, docs, activities). */
    readonly added: 0.01;
};
/** Rows per entity in release `release` before retirements: release 1's plus the added share per later release. */
export declare function releaseCounts(base: Counts, release: number): Counts;
