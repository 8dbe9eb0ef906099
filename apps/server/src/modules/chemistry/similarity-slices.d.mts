// Types of similarity-slices.mjs (the worker threads need it as plain JavaScript).
export declare function lowerBound(sorted: ArrayLike<number>, value: number, from: number, to: number): number;
export interface SliceShard {
  count: number;
  /** Bit counts of the rows, ascending. */
  pop: ArrayLike<number>;
  slices: Uint32Array;
  words: number;
  bitCount: Int32Array;
}
export declare function similarRows(shard: SliceShard, fp: Uint8Array, min: number, max: number, accept?: ((row: number) => boolean) | null): { rows: number[]; sims: number[] };
