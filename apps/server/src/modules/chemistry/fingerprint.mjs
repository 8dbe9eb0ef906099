// The one definition of the fingerprints the knowledge base stores and the search engine compares
// (docs/architecture.md "Module boundaries"). Seeding and import (knowledge-base/chem/rdkit-worker.mjs)
// write them into `structures`; the search workers (chem-worker.mjs, worker/query.mjs) fingerprint queries with the
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
