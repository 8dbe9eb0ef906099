import { z } from 'zod';

export const HealthResponseSchema = z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']),
  /** Rows in the knowledge base's main tables (0 until it is loaded). */
  dataset: z.object({
    label: z.string(),
    structures: z.number().int(),
    activities: z.number().int(),
  }),
  version: z.string(),
  server: z.string(),
});
export type HealthResponse = z.infer<typeof HealthResponseSchema>;

/** One thing a server prepares after it starts listening; `failed` counts as done (it serves without it). */
export const ReadinessPartSchema = z.object({
  name: z.string(),
  state: z.enum(['warming', 'ready', 'failed']),
  /** How long it has taken so far, or took. */
  seconds: z.number(),
});
export type ReadinessPart = z.infer<typeof ReadinessPartSchema>;

/** 200 when every part is done, 503 (same body) while any is warming: a load balancer's readiness check. */
export const ReadinessResponseSchema = z.object({
  ready: z.boolean(),
  parts: z.array(ReadinessPartSchema),
});
export type ReadinessResponse = z.infer<typeof ReadinessResponseSchema>;
