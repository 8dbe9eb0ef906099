/** A generator of floats in [0, 1) from a 32-bit seed; the same seed gives the same sequence. */
export function mulberry32(seed: number): () => number;
