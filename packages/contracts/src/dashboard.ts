import { z } from 'zod';

/** Spec §3 dashboard "Login history" row. `failed` is displayed as "successful attempt" (inverted). */
export const LoginHistoryRowSchema = z.object({
  loginDate: z.string(),
  logoutDate: z.string().nullable(),
  failed: z.boolean(),
  TotalDuration_seconds: z.number().int().nullable(),
  ipAddress: z.string().nullable(),
});
export type LoginHistoryRow = z.infer<typeof LoginHistoryRowSchema>;

export const LoginHistoryResponseSchema = z.object({ rows: z.array(LoginHistoryRowSchema) });
export type LoginHistoryResponse = z.infer<typeof LoginHistoryResponseSchema>;

/** Spec §3 "Notification settings". */
export const NotificationSettingsSchema = z.object({
  notificationSettingsId: z.number().int().nullable(),
  notificationSystemEmail: z.boolean(),
  notificationDatabaseEmail: z.boolean(),
  is_notification_email: z.boolean(),
});
export type NotificationSettings = z.infer<typeof NotificationSettingsSchema>;

/** Body of `POST /api/dashboard/notifications/settings`: `id` is the user id; settings to save are optional. */
export const NotificationSettingsRequestSchema = z.object({
  id: z.number().int(),
  settings: NotificationSettingsSchema.omit({ notificationSettingsId: true }).optional(),
});
export type NotificationSettingsRequest = z.infer<typeof NotificationSettingsRequestSchema>;
