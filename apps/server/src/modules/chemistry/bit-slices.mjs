// Fingerprints turned on their side: FP_BITS bit arrays over a shard's rows, one after the other
// (bit b of row r is bit r % 32 of word b · words + r / 32). The substructure screen holds the
// pattern fingerprints this way (substructure-screen.mjs), similarity the Morgan ones
// (similarity-slices.mjs); both read only the arrays of a query's own bits.
// Plain JavaScript on purpose: the chemistry workers load it without tsx.
import { FP_BITS, FP_BYTES } from './fingerprint.mjs';

/** Words of one bit array over `count` rows. */
export function sliceWords(count) {
  return Math.max(1, Math.ceil(count / 32));
}

/** A shard's bit arrays, zeroed: FP_BITS arrays of sliceWords(count) words, one after the other. */
export function emptySlices(count, shared = false) {
  const length = FP_BITS * sliceWords(count);
  return shared ? new Uint32Array(new SharedArrayBuffer(length * 4)) : new Uint32Array(length);
}

/**
 * Sets row `row`'s bits of fingerprint `fp` (FP_BYTES bytes from `from`, RDKit's layout: bit i is
 * bit i % 8 of byte i / 8) in `slices`. Read four bytes at a time, little-endian, so bit i is bit i % 32 of word
 * i / 32 and a zero word is passed at once (a Morgan fingerprint sets ≈ 60 of 2,048 bits).
 */
export function writeRow(slices, words, row, fp, from = 0) {
  const word = row >> 5;
  const mask = 1 << (row & 31);
  for (let at = 0; at < FP_BYTES; at += 4) {
    const b = from + at;
    let x = fp[b] | (fp[b + 1] << 8) | (fp[b + 2] << 16) | (fp[b + 3] << 24);
    while (x !== 0) {
      const low = x & -x;
      x ^= low;
      slices[((at << 3) + 31 - Math.clz32(low)) * words + word] |= mask;
    }
  }
}

/** How many rows hold each bit (the order in which a query reads its bits: rarest first). */
export function bitCounts(slices, words) {
  const counts = new Int32Array(FP_BITS);
  for (let bit = 0; bit < FP_BITS; bit++) {
    let n = 0;
    for (let w = bit * words, end = w + words; w < end; w++) n += popcount(slices[w]);
    counts[bit] = n;
  }
  return counts;
}

function popcount(x) {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** The set bits of a fingerprint (RDKit's layout: bit i is bit i % 8 of byte i / 8), ascending. */
export function bitsOf(fingerprint) {
  const bits = [];
  for (let byte = 0; byte < fingerprint.length; byte++) {
    for (let i = 0; i < 8; i++) if (fingerprint[byte] & (1 << i)) bits.push((byte << 3) + i);
  }
  return Int32Array.from(bits);
}
