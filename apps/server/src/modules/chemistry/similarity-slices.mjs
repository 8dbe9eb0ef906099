// Tanimoto search over one shard's Morgan fingerprints turned on their side: one bit array over the
// shard's rows per fingerprint bit (as the substructure screen holds pattern fingerprints,
// substructure-screen.mjs). Rows are sorted by bit count (index-loader.ts), so 32 neighbouring rows
// — one word of every bit array — have almost the same bit count. A query reads, for each block of
// 32 rows, the words of its own bits, rarest first, and counts in 32 lanes at once how many of its
// bits each row lacks (a bit-sliced counter: plane j holds bit j of the 32 counts). A row that lacks
// more than the threshold allows cannot reach it; once all 32 have, the block is left. The rows that
// remain after every query bit have their exact count, so their Tanimoto is exact.
//
// Why: the row-wise scan this replaces spent ≈ 30–50 ns a row (per-row table look-ups, a branch that
// mispredicts on every row); this one does a few word operations per query bit per 32 rows and
// leaves most blocks after ≈ 17 of a query's ≈ 60 bits (docs/benchmarks.md, issue 39).
// Plain JavaScript on purpose: the chemistry workers load it without tsx.
import { bitsOf } from './bit-slices.mjs';
import { FP_BITS } from './fingerprint.mjs';

/** The first index in sorted[from, to) whose value is at least `value` (to when none is). */
export function lowerBound(sorted, value, from, to) {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// The counter's planes: 13 are enough for a query of all 2,048 bits.
const planes = new Int32Array(13);

/**
 * The rows of a shard whose Tanimoto to the query fingerprint `fp` is in [min, max], each with it.
 * `shard`: { count, pop (bit counts, ascending), slices, words, bitCount }. `accept(row)`, when
 * given, further limits the rows (a search inside earlier results). A row without bits (no stored
 * fingerprint) is never similar to anything.
 */
export function similarRows(shard, fp, min, max, accept = null) {
  const { pop, slices, words, bitCount } = shard;
  const bits = bitsOf(fp).sort((a, b) => bitCount[a] - bitCount[b] || a - b);
  const a = bits.length;
  const rows = [];
  const sims = [];
  // Tanimoto ≤ min(a, b) / max(a, b): rows outside this bit-count window cannot reach `min`.
  const popLo = Math.max(1, Math.ceil(min * a - 1e-9));
  const popHi = min > 0 ? Math.floor(a / min + 1e-9) : FP_BITS;
  const from = lowerBound(pop, popLo, 0, shard.count);
  const to = lowerBound(pop, popHi + 1, from, shard.count);
  if (a === 0 || from >= to) return { rows, sims };
  const offsets = Int32Array.from(bits, (bit) => bit * words);
  // Counts run from a start of top − allowed, so a row that lacks more than it may sets the carry
  // out of the top plane: 2^k > 2a leaves room for any start.
  const k = 33 - Math.clz32(a);
  const top = (1 << k) - 1;
  // common / (a + b − common) ≥ min  ⟺  common ≥ min (a + b) / (1 + min): a row may lack
  // a − that many of the query's bits.
  const ratio = min / (1 + min);
  for (let w = from >> 5, last = (to - 1) >> 5; w <= last; w++) {
    const first = w << 5;
    // The block's smallest bit count allows the most: the bound holds for every row of the block.
    const allowed = Math.max(0, Math.floor(a - ratio * (a + pop[Math.max(first, from)]) + 1e-9));
    const start = top - allowed;
    for (let j = 0; j < k; j++) planes[j] = (start >> j) & 1 ? -1 : 0;
    // Lanes outside [from, to) start out of the running.
    let out = 0;
    if (first < from) out |= (1 << (from - first)) - 1;
    if (first + 32 > to) out |= ~((1 << (to - first)) - 1);
    let c = 0;
    for (; c < a; c++) {
      // Lanes lacking this bit count one more.
      let carry = ~slices[offsets[c] + w];
      for (let j = 0; j < k && carry !== 0; j++) {
        const plane = planes[j];
        planes[j] = plane ^ carry;
        carry &= plane;
      }
      out |= carry;
      if (out === -1) break;
    }
    if (c < a) continue;
    let left = ~out;
    while (left !== 0) {
      const low = left & -left;
      left ^= low;
      const lane = 31 - Math.clz32(low);
      let count = 0;
      for (let j = 0; j < k; j++) count |= ((planes[j] >>> lane) & 1) << j;
      const row = first + lane;
      const common = a - (count - start);
      const sim = common / (a + pop[row] - common);
      if (sim >= min && sim <= max && (!accept || accept(row))) {
        rows.push(row);
        sims.push(sim);
      }
    }
  }
  return { rows, sims };
}
