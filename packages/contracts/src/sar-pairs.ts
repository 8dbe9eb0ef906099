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
  /** Distinct compound pairs in all. */
  pairs: z.number().int(),
  meanDelta: z.number(),
  sdDelta: z.number(),
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
    summary: 'Matched molecular pairs: single-cut transformations A → B with their number of pairs and the mean and spread of ΔpActivity.',
    body: SarPairsRequestSchema,
    response: SarPairsResponseSchema,
  }),
} as const;
