import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { alertEndpoints } from '@kb/contracts/alerts';
import type { Database } from '../../db/schema.ts';
import { registerEndpoint, requireAuth } from '../../http/endpoint-route.ts';
import type { SearchService } from '../search/search-service.ts';
import { AlertChecker } from './alert-check.ts';
import type { AlertCheckOptions } from './alert-check.ts';
import { AlertService } from './alert-service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The alert check; main.ts starts its polling (tests call `checkNow`). */
    alertChecker: AlertChecker;
  }
}

/** Registers the alert and notification endpoints (packages/contracts/src/alerts.ts) and the alert check. */
export function registerAlertRoutes(app: FastifyInstance, db: Kysely<Database>, search: SearchService, options: AlertCheckOptions): void {
  const alerts = new AlertService(db, search);
  const checker = new AlertChecker(db, search, options);
  app.decorate('alertChecker', checker);
  app.addHook('onClose', () => checker.stop());

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
