// The substructure screen of one shard: its stored pattern fingerprints turned on their side, one
// bit array over the shard's rows per fingerprint bit. A query ANDs the arrays of the bits its own
// pattern fingerprint sets (rarest first, stopping once nothing is left): the rows left are the
// candidates, exactly those RDKit's SubstructLibrary would let through its own screen (a stored
// structure passes when it has every query bit). A query with 40 bits reads 40 × 1 KB for a
// shard of 8,192 rows instead of 8,192 × 256 bytes.
// Plain JavaScript on purpose: the chemistry workers load it without tsx.
import { bitCounts, emptySlices, sliceWords, writeRow } from './bit-slices.mjs';
import { FP_BITS, FP_BYTES } from './fingerprint.mjs';

/**
 * A shard's screen from its row-wise pattern fingerprints (`count` × FP_BYTES bytes). Rows in
 * `searchable` only (a stored SMILES over the stored limits is not searched); a searchable row
 * without a stored fingerprint (`hasPattern` 0) is in every bit array: it is never screened out.
 */
export function buildScreen(count, pattern, hasPattern, isSearchable) {
  const words = sliceWords(count);
  const slices = emptySlices(count);
  const searchable = new Uint32Array(words);
  for (let row = 0; row < count; row++) {
    if (!isSearchable(row)) continue;
    const word = row >> 5;
    const mask = 1 << (row & 31);
    searchable[word] |= mask;
    if (hasPattern[row]) writeRow(slices, words, row, pattern, row * FP_BYTES);
    else for (let bit = 0; bit < FP_BITS; bit++) slices[bit * words + word] |= mask;
  }
  return { words, slices, searchable, bitCount: bitCounts(slices, words) };
}

/** Words of `acc` still holding candidates (reused: sized for the largest shard seen). */
let live = new Int32Array(0);

/**
 * Leaves in `acc` (screen.words words) the candidate rows: searchable, in `within` when given
 * (a bit array of rows), and holding every bit of `queryBits`. False when none is left.
 */
export function screenRows(screen, queryBits, acc, within = null) {
  const { words, slices, searchable, bitCount } = screen;
  if (live.length < words) live = new Int32Array(words);
  // Rarest bits first: the candidates shrink fastest, and an empty result stops the reading.
  const order = Array.from(queryBits).sort((a, b) => bitCount[a] - bitCount[b]);
  // The first pass reads every word; later bits read only the words that still hold a candidate
  // (after the rarest bit, a selective query keeps a few of a shard's 256 words).
  const first = order.length > 0 ? order[0] * words : -1;
  let n = 0;
  for (let w = 0; w < words; w++) {
    let v = within ? searchable[w] & within[w] : searchable[w];
    if (first >= 0) v &= slices[first + w];
    acc[w] = v;
    if (v !== 0) live[n++] = w;
  }
  for (let i = 1; i < order.length && n > 0; i++) {
    const base = order[i] * words;
    let kept = 0;
    for (let j = 0; j < n; j++) {
      const w = live[j];
      const v = acc[w] & slices[base + w];
      acc[w] = v;
      if (v !== 0) live[kept++] = w;
    }
    n = kept;
  }
  return n > 0;
}

/** The rows set in `acc`, ascending, into `out` (an Int32Array long enough); their number. */
export function rowsOf(acc, words, out) {
  let n = 0;
  for (let w = 0; w < words; w++) {
    let x = acc[w];
    while (x !== 0) {
      const low = x & -x;
      x ^= low;
      out[n++] = (w << 5) + 31 - Math.clz32(low);
    }
  }
  return n;
}
