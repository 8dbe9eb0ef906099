import { z } from 'zod';
import { SubscriptionDetailSchema } from './auth.ts';

export const AdminUserRowSchema = z.object({
  userId: z.number().int(),
  userName: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  creditBalance: z.number().int(),
  active: z.boolean(),
  lastLoginAt: z.string().nullable(),
  subscriptions: z.array(SubscriptionDetailSchema),
});
export type AdminUserRow = z.infer<typeof AdminUserRowSchema>;

export const AdminSubscriptionsResponseSchema = z.object({ rows: z.array(AdminUserRowSchema) });
export type AdminSubscriptionsResponse = z.infer<typeof AdminSubscriptionsResponseSchema>;

export const SuperAdminOverviewSchema = z.object({
  database: z.enum(['pglite', 'postgres']),
  users: z.number().int(),
  activeSessions: z.number().int(),
  usersPerRole: z.record(z.string(), z.number().int()),
  failedLoginsLastDay: z.number().int(),
  outboxPending: z.number().int(),
});
export type SuperAdminOverview = z.infer<typeof SuperAdminOverviewSchema>;
