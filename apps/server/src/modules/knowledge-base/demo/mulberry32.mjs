// mulberry32: the project's one small seeded generator (demo data, the release generator's RDKit
// worker, benches and tests), so that the same seed gives the same numbers everywhere. Plain
// JavaScript so that worker threads started without tsx can import it too.

/** A generator of floats in [0, 1) from a 32-bit seed; the same seed gives the same sequence. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
