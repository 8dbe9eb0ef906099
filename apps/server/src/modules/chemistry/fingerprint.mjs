// The one definition of the fingerprints the knowledge base stores and the search engine compares
// (docs/architecture.md "Module boundaries"). Seeding and import (knowledge-base/chem/rdkit-worker.mjs)
// write them into `structures`; the search workers (chem-worker.mjs) fingerprint queries with the
// same settings and read the stored ones (index-loader.ts), and results/similarity-sort.ts compares
// them. Should these drift apart, similarity silently ranks against a different fingerprint and
// the substructure screen drops true hits, so every writer and reader of stored fingerprints
// imports this file.
// Plain JavaScript on purpose: worker threads load it without tsx (fingerprint.d.mts types it).

/** Bits of both fingerprints (ARCHITECTURE.md: 2048-bit Morgan r=2 and RDKit pattern). */
export const FP_BITS = 2048;
/** Bytes of one stored fingerprint. */
export const FP_BYTES = FP_BITS / 8;
/** Morgan (ECFP4-like) settings: similarity searches, similarity sort. */
export const MORGAN_SETTINGS = JSON.stringify({ radius: 2, nBits: FP_BITS });
/**
 * Pattern fingerprint settings: the stored fingerprints the SubstructLibrary screens with. The
 * library fingerprints the query itself, with RDKit's default pattern fingerprint (2048 bits), which
 * these settings must equal; engine-parity.api.test.ts fails on any hit the screen drops.
 */
export const PATTERN_SETTINGS = JSON.stringify({ nBits: FP_BITS });

/**
 * Bytes of a Morgan fingerprint folded for the similarity pre-screen: byte j of the fingerprint is
 * OR-ed into byte j % FOLD_BYTES. A query bit whose folded position is empty in a row is certainly
 * not in that row, so 16 compact bytes bound the bits a row can share before its 256 are read
 * (measured 1.7× faster at 0.7 over 1.25 M rows; docs/benchmarks.md "Structure search").
 */
export const FOLD_BYTES = 16;

/** Writes `fp`'s fold into `out` at `at` (FOLD_BYTES bytes, which must start zeroed). */
export function foldInto(fp, out, at) {
  for (let j = 0; j < fp.length; j++) out[at + (j % FOLD_BYTES)] |= fp[j];
}
