/**
 * Deterministic randomness by position, not by sequence: `unit(seed, stream, i)` is the same number
 * whichever order rows are generated in, so any row can be built on its own (streaming, no state)
 * and release 2 can ask again what release 1 decided for the same row.
 */
/** Named streams keep independent decisions (which template, which target ...) uncorrelated. */
export declare const STREAM: {
    readonly template: 1;
    readonly target: 2;
    readonly assaySize: 3;
    readonly assayMolecule: 4;
    readonly perturb: 5;
    readonly noStructure: 6;
    readonly retire: 7;
    readonly change: 8;
    readonly docTemplate: 9;
    readonly moleculeTemplate: 10;
    readonly order: 11;
    readonly parentSeed: 12;
};
export declare function hash32(seed: number, stream: number, index: number): number;
/** A number in [0, 1). Index is split in two 32-bit halves so keys beyond 2^32 stay distinct. */
export declare function unit(seed: number, stream: number, index: number): number;
/** An integer in [0, n). */
export declare function pick(seed: number, stream: number, index: number, n: number): number;
/** A seeded Fisher-Yates shuffle (in place): the fixed order templates are cycled in. */
export declare function shuffled<T>(list: T[], seed: number, stream: number): T[];
