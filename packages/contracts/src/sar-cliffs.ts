import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { SEARCH_ROLES } from './roles.ts';
import { SessionIdSchema } from './search.ts';
import { SarEndpointSchema, SarPairMemberSchema as PairMemberSchema } from './sar.ts';

/** Activity cliffs of the SAR view (docs/sar.md "Activity cliffs"). */

/** Cliffs per page: each page's differences are computed when it is asked for, within a bounded time. */
export const CLIFF_PAGE_MAX = 50;

/**
 * What the two compounds share, per compound (SMARTS): drawn with highlightMode 'rest', what lies
 * outside it — what differs from the other compound — is coloured. `mcs`: their maximum common
 * substructure (RDKit FMCS); `partial`: the largest common substructure RDKit found before its time
 * limit (a larger one may exist, so a little more may be coloured); `core`: the SAR table's core,
 * which both contain; `environment`: the atoms whose radius-1 environment the other compound also
 * has (their largest connected part) — found in milliseconds when the page's time for MCS is spent.
 * After mcs, partial or core, what the rest of each compound still shares (parts of ≥ 3 atoms) is
 * joined on with '.', so a part both have beyond one connected MCS is not coloured.
 */
export const CliffDifferenceSchema = z.object({
  kind: z.enum(['mcs', 'partial', 'core', 'environment']),
  a: z.string(),
  b: z.string(),
});
export type CliffDifference = z.infer<typeof CliffDifferenceSchema>;

export const SarCliffsRequestSchema = z.object({
  sessionid: SessionIdSchema,
  /** The endpoint whose values are compared; with `minus`, the difference column endpoint − minus. */
  endpoint: SarEndpointSchema,
  /**
   * Cliffs on a difference column (selectivity): pActivity on `endpoint` − pActivity on `minus`,
   * over the compounds measured on both. Both must be molar endpoints.
   */
  minus: SarEndpointSchema.nullish(),
  /** Tanimoto on Morgan r=2, 2,048 bits (the similarity search's fingerprint). */
  minSimilarity: z.number().min(0.5).max(1).default(0.7),
  minDelta: z.number().min(0).max(10).default(1),
  limit: z.number().int().min(1).max(1_000).default(200),
  /** The page of the ranked list answered, with each pair's difference (docs/sar.md "Activity cliffs"). */
  offset: z.number().int().min(0).max(999).default(0),
  pageSize: z.number().int().min(1).max(CLIFF_PAGE_MAX).default(CLIFF_PAGE_MAX),
  /**
   * The SAR table's core (SMILES, `[*:n]` at its R positions), optional: a pair that contains it
   * starts its MCS from it, and falls back to it when RDKit runs out of time.
   */
  core: z.string().trim().min(1).max(2_000).nullish(),
});
export const ActivityCliffSchema = z.object({
  /** The more active compound first. */
  a: PairMemberSchema,
  b: PairMemberSchema,
  similarity: z.number(),
  /** |ΔpActivity|. */
  delta: z.number(),
  /** Structure–activity landscape index: |Δ| / (1 − similarity). */
  sali: z.number(),
  /** The pair's common substructure (SMARTS) when it is one for both (`difference` of kind mcs, partial or core), else null. */
  common: z.string().nullable(),
  /** What each compound shares with the other; null only when RDKit cannot read one of them. */
  difference: CliffDifferenceSchema.nullable(),
});
export type ActivityCliff = z.infer<typeof ActivityCliffSchema>;
export const SarCliffsResponseSchema = z.object({
  compounds: z.number().int(),
  /** Pairs compared (n·(n−1)/2). */
  compared: z.number().int(),
  /** Pairs over both thresholds in all (the list holds the first `limit` by SALI). */
  total: z.number().int(),
  /** Cliffs listed: min(total, limit); `cliffs` is the page of them from `offset`. */
  listed: z.number().int(),
  offset: z.number().int(),
  cliffs: z.array(ActivityCliffSchema),
  durationMs: z.number().int(),
});
export type SarCliffsResponse = z.infer<typeof SarCliffsResponseSchema>;

export const sarCliffsEndpoints = {
  sarCliffs: defineEndpoint({
    method: 'POST',
    path: '/api/sar/cliffs',
    access: SEARCH_ROLES,
    summary:
      'Activity cliffs: pairs of similar compounds (Tanimoto, Morgan r=2) whose pActivity differs by at least a threshold, ranked by SALI; one page (at most 50) at a time, each pair with what differs drawn.',
    body: SarCliffsRequestSchema,
    response: SarCliffsResponseSchema,
  }),
} as const;
