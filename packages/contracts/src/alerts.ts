import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { SEARCH_ROLES } from './roles.ts';
import { SessionParamsSchema, SixCountsSchema } from './search.ts';

/**
 * Alerts on new data for saved searches, and in-app notifications (issue 17). A saved search
 * marked "alert me" is counted again after every load of the knowledge base, restricted to the
 * rows that load brought in; new rows make a notification (and, per the notification settings, an
 * e-mail) whose link opens a search session of those rows only. docs/search-semantics.md
 * "New since a load", user manual "Alerts and notifications".
 */

const Id = z.coerce
  .number()
  .int()
  .positive()
  .max(2 ** 53 - 1);

/** The alert state of one saved search. */
export const SavedSearchAlertSchema = z.object({
  criteriaId: z.number().int(),
  alert: z.boolean(),
  /** The last load the user was told about (or the newest when the alert was switched on); null before any load. */
  sinceLoadId: z.number().int().nullable(),
  /** New activities found by the last check that found any; null before. */
  lastCount: z.number().int().nullable(),
});
export type SavedSearchAlert = z.infer<typeof SavedSearchAlertSchema>;

export const SavedSearchAlertsSchema = z.object({ rows: z.array(SavedSearchAlertSchema) });
export const CriteriaIdParamsSchema = z.object({ criteriaId: Id });
export const SetAlertRequestSchema = z.object({ alert: z.boolean() }).strict();

export const NOTIFICATION_KINDS = ['message', 'alert'] as const;

/** The load window an alert counted: rows first brought in by loads after `sinceLoadId`, up to `loadId`. */
export const LoadWindowInfoSchema = z.object({
  sinceLoadId: z.number().int(),
  loadId: z.number().int(),
  /** The label of the load that raised the alert ("ChEMBL 35 update"), and when it finished. */
  loadLabel: z.string(),
  loadFinishedAt: z.string().nullable(),
});
export type LoadWindowInfo = z.infer<typeof LoadWindowInfoSchema>;

export const NotificationSchema = z.object({
  id: z.number().int(),
  kind: z.enum(NOTIFICATION_KINDS),
  title: z.string(),
  body: z.string(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
  /** An app path the notification opens, or null. */
  link: z.string().nullable(),
  /** Alerts: the saved search (null once deleted) and its window of loads. */
  criteriaId: z.number().int().nullable(),
  window: LoadWindowInfoSchema.nullable(),
});
export type AppNotification = z.infer<typeof NotificationSchema>;

export const NOTIFICATIONS_PAGE_SIZE_MAX = 100;
export const NotificationsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(NOTIFICATIONS_PAGE_SIZE_MAX).default(20),
  /** `true`: unread ones only. */
  unreadOnly: z.enum(['true', 'false']).optional(),
});
export type NotificationsQuery = z.input<typeof NotificationsQuerySchema>;

export const NotificationsPageSchema = z.object({
  rows: z.array(NotificationSchema),
  total: z.number().int(),
  unread: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type NotificationsPage = z.infer<typeof NotificationsPageSchema>;

export const NotificationParamsSchema = z.object({ id: Id });
export const MarkReadResponseSchema = z.object({ marked: z.number().int(), unread: z.number().int() });

export const OpenAlertRequestSchema = SessionParamsSchema.strict();
export const OpenAlertResponseSchema = z.object({
  sessionid: z.string(),
  counts: SixCountsSchema,
  criteriaName: z.string(),
  window: LoadWindowInfoSchema,
});
export type OpenAlertResponse = z.infer<typeof OpenAlertResponseSchema>;

/** What the results page says of a session opened from an alert; `window` is null for an ordinary search. */
export const SessionWindowSchema = z.object({ sessionid: z.string(), window: LoadWindowInfoSchema.nullable() });
export type SessionWindow = z.infer<typeof SessionWindowSchema>;

export const alertEndpoints = {
  savedSearchAlerts: defineEndpoint({
    method: 'GET',
    path: '/api/alerts/saved-searches',
    access: SEARCH_ROLES,
    summary: 'The alert state ("alert me") of each of the caller’s saved searches.',
    response: SavedSearchAlertsSchema,
  }),
  setSavedSearchAlert: defineEndpoint({
    method: 'POST',
    path: '/api/alerts/saved-searches/:criteriaId',
    access: SEARCH_ROLES,
    summary: 'Switches "alert me" on or off for one of the caller’s saved searches (on: counts from the newest load on).',
    params: CriteriaIdParamsSchema,
    body: SetAlertRequestSchema,
    response: SavedSearchAlertSchema,
  }),
  notifications: defineEndpoint({
    method: 'GET',
    path: '/api/notifications',
    access: 'authenticated',
    summary: 'The caller’s notifications, newest first, a page at a time, with the unread count.',
    query: NotificationsQuerySchema,
    response: NotificationsPageSchema,
  }),
  markRead: defineEndpoint({
    method: 'POST',
    path: '/api/notifications/:id/read',
    access: 'authenticated',
    summary: 'Marks one of the caller’s notifications read.',
    params: NotificationParamsSchema,
    response: MarkReadResponseSchema,
  }),
  markAllRead: defineEndpoint({
    method: 'POST',
    path: '/api/notifications/read-all',
    access: 'authenticated',
    summary: 'Marks every notification of the caller read.',
    response: MarkReadResponseSchema,
  }),
  openAlert: defineEndpoint({
    method: 'POST',
    path: '/api/alerts/notifications/:id/open',
    access: SEARCH_ROLES,
    summary: 'Runs an alert’s saved search in a new search session restricted to the new rows of its loads, and marks the alert read.',
    params: NotificationParamsSchema,
    body: OpenAlertRequestSchema,
    response: OpenAlertResponseSchema,
  }),
  sessionWindow: defineEndpoint({
    method: 'GET',
    path: '/api/alerts/sessions/:sessionid',
    access: SEARCH_ROLES,
    summary: 'Whether a search session holds only the new rows of an alert, and of which loads.',
    params: SessionParamsSchema,
    response: SessionWindowSchema,
  }),
} as const;
