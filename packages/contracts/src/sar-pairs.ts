import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { SEARCH_ROLES } from './roles.ts';
import { SessionIdSchema } from './search.ts';
import { SarEndpointSchema, SarPairMemberSchema as PairMemberSchema } from './sar.ts';

/** Matched molecular pairs of the SAR view (docs/sar.md "Matched molecular pairs"). */

export const SarPairsRequestSchema = z.object({
  sessionid: SessionIdSchema,
  endpoint: SarEndpointSchema,
  /** Transformations seen in fewer pairs are left out. */
  minPairs: z.number().int().min(1).max(100).default(2),
  limit: z.number().int().min(1).max(1_000).default(200),
  /**
   * Environment radius around the cut (mmpdb's): 0 = none (one row per from → to); 1 = the constant
   * part's atom at the attachment point; 2 = it and its neighbours. One row per from → to and environment.
   */
  radius: z.number().int().min(0).max(2).default(0),
  /** Only transformations whose mean |Δ| is at least this. */
  minMeanDelta: z.number().min(0).max(10).default(0),
  /** consistent: every pair changes the activity the same way; mixed: some pairs each way. */
  sign: z.enum(['any', 'consistent', 'mixed']).default('any'),
});
export const MatchedPairSchema = z.object({
  a: PairMemberSchema,
  b: PairMemberSchema,
  /** The unchanged part, with its attachment point. */
  constant: z.string(),
  /** pActivity(b) − pActivity(a). */
  delta: z.number(),
});
export const TransformationSchema = z.object({
  /** Fragment replaced and its replacement, each with its attachment point (`[*:1]`). */
  from: z.string(),
  to: z.string(),
  /**
   * The constant part's atoms within `radius` bonds of the cut, as a rooted tree from `[*:1]`:
   * `[symbol;Dn;R]` (heavy neighbours, ring or `!R`), bonds `- = # :` ('' at radius 0).
   */
  environment: z.string(),
  /** Distinct compound pairs in all. */
  pairs: z.number().int(),
  meanDelta: z.number(),
  sdDelta: z.number(),
  medianDelta: z.number(),
  minDelta: z.number(),
  maxDelta: z.number(),
  /** Δ of every pair, ascending (at most 200, evenly picked when there are more): the distribution. */
  deltas: z.array(z.number()),
  /** Up to 100 of the pairs, largest Δ first. */
  examples: z.array(MatchedPairSchema),
});
export type Transformation = z.infer<typeof TransformationSchema>;
export const SarPairsResponseSchema = z.object({
  compounds: z.number().int(),
  /** Transformations over `minPairs` in all (the list holds the first `limit`, most pairs first). */
  total: z.number().int(),
  transformations: z.array(TransformationSchema),
  /** What was left out to keep the work bounded (constant parts shared by very many compounds), or null. */
  note: z.string().nullable(),
  durationMs: z.number().int(),
});
export type SarPairsResponse = z.infer<typeof SarPairsResponseSchema>;

export const sarPairsEndpoints = {
  sarPairs: defineEndpoint({
    method: 'POST',
    path: '/api/sar/pairs',
    access: SEARCH_ROLES,
    summary:
      'Matched molecular pairs: single-cut transformations A → B in their environment (radius 0–2 around the cut) with their number of pairs and the mean, median, spread and distribution of ΔpActivity.',
    body: SarPairsRequestSchema,
    response: SarPairsResponseSchema,
  }),
} as const;
