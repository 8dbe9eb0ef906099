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
