/**
 * Activity cliffs (docs/sar.md "Activity cliffs"): pairs of compounds that look alike — Tanimoto
 * on the stored Morgan fingerprint (r = 2, 2,048 bits: `structures.morgan`, the similarity
 * search's) at least `minSimilarity` — yet differ in activity by at least `minDelta`, ranked by the
 * structure–activity landscape index SALI = |Δ| / (1 − similarity).
 */

export interface CliffItem {
  strId: number;
  /** Morgan fingerprint bytes as stored (`structures.morgan`). */
  fp: Uint8Array;
  value: number;
}

export interface Cliff {
  /** Indexes into the items: `a` the more active (higher value). */
  a: number;
  b: number;
  similarity: number;
  delta: number;
  sali: number;
}

/**
 * Identical fingerprints (similarity 1: stereoisomers, salts, tautomers) would divide by zero:
 * 1 − similarity is taken as at least this, so their SALI is 100·|Δ| and they rank first.
 */
const SALI_MIN_DISTANCE = 0.01;

export function sali(delta: number, similarity: number): number {
  return Math.abs(delta) / Math.max(1 - similarity, SALI_MIN_DISTANCE);
}

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** All fingerprints as 32-bit words in one array (n × words) and their bit counts. */
function packed(items: readonly CliffItem[]): { words: Uint32Array; width: number; pops: Int32Array } {
  const bytes = items.reduce((m, item) => Math.max(m, item.fp.length), 0);
  const width = Math.ceil(bytes / 4);
  const buffer = new Uint8Array(items.length * width * 4);
  items.forEach((item, i) => buffer.set(item.fp, i * width * 4));
  const words = new Uint32Array(buffer.buffer);
  const pops = new Int32Array(items.length);
  for (let i = 0; i < items.length; i++) {
    let n = 0;
    for (let w = i * width, end = w + width; w < end; w++) n += popcount32(words[w]!);
    pops[i] = n;
  }
  return { words, width, pops };
}

/**
 * Every pair is a candidate (n·(n−1)/2 `compared`), but most are never scored: items are visited in
 * order of bit count, and Tanimoto ≤ min(pa, pb) / max(pa, pb) ends the inner loop as soon as the
 * larger fingerprint is too large to reach `minSimilarity`; a pair whose |Δ| is under `minDelta`
 * is skipped before its words are read.
 */
export function activityCliffs(
  items: readonly CliffItem[],
  options: { minSimilarity: number; minDelta: number; limit: number },
): { compared: number; total: number; cliffs: Cliff[] } {
  const n = items.length;
  const compared = (n * (n - 1)) / 2;
  const { words, width, pops } = packed(items);
  const order = Int32Array.from(items.keys()).sort((x, y) => pops[x]! - pops[y]!);
  const values = Float64Array.from(items, (item) => item.value);
  const { minSimilarity, minDelta } = options;
  const found: Cliff[] = [];
  for (let oi = 0; oi < n; oi++) {
    const i = order[oi]!;
    const pi = pops[i]!;
    // No fingerprint: never similar to anything.
    if (pi === 0) continue;
    const vi = values[i]!;
    const wi = i * width;
    // pj ≥ pi from here on: Tanimoto ≤ pi / pj.
    const maxPop = minSimilarity > 0 ? pi / minSimilarity + 1e-9 : Infinity;
    for (let oj = oi + 1; oj < n; oj++) {
      const j = order[oj]!;
      const pj = pops[j]!;
      if (pj > maxPop) break;
      const delta = Math.abs(vi - values[j]!);
      if (delta < minDelta) continue;
      const wj = j * width;
      let common = 0;
      for (let w = 0; w < width; w++) common += popcount32(words[wi + w]! & words[wj + w]!);
      const similarity = common / (pi + pj - common);
      if (similarity < minSimilarity) continue;
      const iFirst = vi > values[j]! || (vi === values[j]! && i < j);
      found.push({ a: iFirst ? i : j, b: iFirst ? j : i, similarity, delta, sali: sali(delta, similarity) });
    }
  }
  found.sort(byCliffRank);
  return { compared, total: found.length, cliffs: found.slice(0, Math.max(0, options.limit)) };
}

/** SALI descending, then |Δ| descending, then by index (a stable order for equal pairs). */
export function byCliffRank(x: Cliff, y: Cliff): number {
  return y.sali - x.sali || y.delta - x.delta || x.a - y.a || x.b - y.b;
}
