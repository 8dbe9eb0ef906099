import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { SEARCH_ROLES } from './roles.ts';
import { SessionIdSchema } from './search.ts';
import { SarEndpointSchema, SarPairMemberSchema as PairMemberSchema } from './sar.ts';

/** Activity cliffs of the SAR view (docs/sar.md "Activity cliffs"). */

export const SarCliffsRequestSchema = z.object({
  sessionid: SessionIdSchema,
  endpoint: SarEndpointSchema,
  /** Tanimoto on Morgan r=2, 2,048 bits (the similarity search's fingerprint). */
  minSimilarity: z.number().min(0.5).max(1).default(0.8),
  minDelta: z.number().min(0).max(10).default(1),
  limit: z.number().int().min(1).max(1_000).default(200),
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
  /**
   * The pair's maximum common substructure (SMARTS), tried for the first 50 cliffs of the answer
   * within a time budget (docs/sar.md); null beyond them, or when none was found in time. Drawn
   * with highlightMode 'rest', it colours what differs.
   */
  common: z.string().nullable(),
});
export type ActivityCliff = z.infer<typeof ActivityCliffSchema>;
export const SarCliffsResponseSchema = z.object({
  compounds: z.number().int(),
  /** Pairs compared (n·(n−1)/2). */
  compared: z.number().int(),
  /** Pairs over both thresholds in all (the list holds the first `limit` by SALI). */
  total: z.number().int(),
  cliffs: z.array(ActivityCliffSchema),
});
export type SarCliffsResponse = z.infer<typeof SarCliffsResponseSchema>;

export const sarCliffsEndpoints = {
  sarCliffs: defineEndpoint({
    method: 'POST',
    path: '/api/sar/cliffs',
    access: SEARCH_ROLES,
    summary: 'Activity cliffs: pairs of similar compounds (Tanimoto, Morgan r=2) whose pActivity differs by at least a threshold, ranked by SALI.',
    body: SarCliffsRequestSchema,
    response: SarCliffsResponseSchema,
  }),
} as const;
