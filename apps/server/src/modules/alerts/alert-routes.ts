import type { FastifyInstance } from 'fastify';
import { alertEndpoints } from '@kb/contracts/alerts';
import { registerEndpoint, requireAuth } from '../../http/endpoint-route.ts';
import type { AlertService } from './alert-service.ts';

/** Registers the alert and notification endpoints (packages/contracts/src/alerts.ts); the alert check runs apart (services.ts). */
export function registerAlertRoutes(app: FastifyInstance, alerts: AlertService): void {
  registerEndpoint(app, alertEndpoints.savedSearchAlerts, async ({ auth }) => ({
    rows: await alerts.savedSearchAlerts(requireAuth(auth)),
  }));
  registerEndpoint(app, alertEndpoints.setSavedSearchAlert, async ({ auth, params, body }) =>
    alerts.setAlert(requireAuth(auth), params.criteriaId, body.alert),
  );
  registerEndpoint(app, alertEndpoints.notifications, async ({ auth, query }) =>
    alerts.notifications(requireAuth(auth), { ...query, unreadOnly: query.unreadOnly === 'true' }),
  );
  registerEndpoint(app, alertEndpoints.markRead, async ({ auth, params }) => alerts.markRead(requireAuth(auth), params.id));
  registerEndpoint(app, alertEndpoints.markAllRead, async ({ auth }) => alerts.markAllRead(requireAuth(auth)));
  registerEndpoint(app, alertEndpoints.openAlert, async ({ auth, params, body }) =>
    alerts.openAlert(requireAuth(auth), params.id, body.sessionid),
  );
  registerEndpoint(app, alertEndpoints.sessionWindow, async ({ auth, params }) =>
    alerts.sessionWindow(requireAuth(auth), params.sessionid),
  );
}
