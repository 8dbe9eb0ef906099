import type { FastifyInstance } from 'fastify';
import { usageEndpoints } from '@kb/contracts/api';
import { registerEndpoint, requireAuth } from '../../http/endpoint-route.ts';
import type { UsageService } from './usage-service.ts';

/** Registers the usage dashboards and the analytics settings (access as the contract declares it). */
export function registerUsageRoutes(app: FastifyInstance, usage: UsageService): void {
  registerEndpoint(app, usageEndpoints.adminUsage, ({ query }) => usage.adminUsage(query));
  registerEndpoint(app, usageEndpoints.clientDashboard, ({ query, auth }) => usage.clientDashboard(requireAuth(auth), query));
  registerEndpoint(app, usageEndpoints.clientOrganisations, ({ query }) => usage.organisations(query.q));
  registerEndpoint(app, usageEndpoints.pendoDetails, ({ auth }) => usage.pendoDetails(requireAuth(auth)));
}
