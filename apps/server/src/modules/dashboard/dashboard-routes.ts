import type { FastifyInstance } from 'fastify';
import { authEndpoints, dashboardEndpoints } from '@kb/contracts/api';
import { registerEndpoint, requireAuth } from '../../http/endpoint-route.ts';
import { forbidden } from '../../http/errors.ts';
import type { AccountService } from './account-service.ts';

export function registerDashboardRoutes(app: FastifyInstance, accounts: AccountService): void {
  registerEndpoint(app, authEndpoints.profile, async ({ auth }) => accounts.profile(requireAuth(auth).userId));

  registerEndpoint(app, authEndpoints.subscriptionRequired, async ({ body, auth: caller }) => {
    const auth = requireAuth(caller);
    if (body.id !== auth.userId && !auth.roles.includes('GOSTAR_ADMIN')) throw forbidden('You may only read your own subscription.');
    return accounts.subscriptionInfo(body.id);
  });

  registerEndpoint(app, authEndpoints.subscriptionSummary, async ({ auth }) => accounts.subscriptionSummary(requireAuth(auth).userId));

  registerEndpoint(app, dashboardEndpoints.loginHistory, async ({ auth }) => ({
    rows: await accounts.loginHistory(requireAuth(auth).userId),
  }));

  registerEndpoint(app, dashboardEndpoints.notificationSettings, async ({ body, auth: caller }) => {
    const auth = requireAuth(caller);
    if (body.id !== auth.userId) throw forbidden('You may only change your own notification settings.');
    return accounts.notificationSettings(auth.userId, body.settings);
  });
}
