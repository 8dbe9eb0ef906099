// Types of bit-slices.mjs (the worker threads need it as plain JavaScript).
export declare function sliceWords(count: number): number;
export declare function emptySlices(count: number, shared?: boolean): Uint32Array;
export declare function writeRow(slices: Uint32Array, words: number, row: number, fp: Uint8Array, from?: number): void;
export declare function bitCounts(slices: Uint32Array, words: number): Int32Array;
export declare function bitsOf(fingerprint: Uint8Array): Int32Array;
