/**
 * Deterministic randomness by position, not by sequence: `unit(seed, stream, i)` is the same number
 * whichever order rows are generated in, so any row can be built on its own (streaming, no state)
 * and release 2 can ask again what release 1 decided for the same row.
 */

/** murmur3's 32-bit finaliser: every input bit affects every output bit. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Named streams keep independent decisions (which template, which target ...) uncorrelated. */
export const STREAM = {
  template: 1,
  target: 2,
  assaySize: 3,
  assayMolecule: 4,
  perturb: 5,
  noStructure: 6,
  retire: 7,
  change: 8,
  docTemplate: 9,
  moleculeTemplate: 10,
  order: 11,
  parentSeed: 12,
} as const;

export function hash32(seed: number, stream: number, index: number): number {
  return mix(mix(mix(seed ^ 0x9e3779b9) ^ Math.imul(stream, 0x27d4eb2d)) ^ index);
}

/** A number in [0, 1). Index is split in two 32-bit halves so keys beyond 2^32 stay distinct. */
export function unit(seed: number, stream: number, index: number): number {
  const high = Math.floor(index / 4294967296);
  return mix(hash32(seed, stream, index >>> 0) ^ high) / 4294967296;
}

/** An integer in [0, n). */
export function pick(seed: number, stream: number, index: number, n: number): number {
  return Math.floor(unit(seed, stream, index) * n);
}

/** A seeded Fisher-Yates shuffle (in place): the fixed order templates are cycled in. */
export function shuffled<T>(list: T[], seed: number, stream: number): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = pick(seed, stream, i, i + 1);
    [list[i], list[j]] = [list[j] as T, list[i] as T];
  }
  return list;
}
