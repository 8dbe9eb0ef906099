import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { usageEndpoints } from '@kb/contracts/api';
import type { Database } from '../../db/schema.ts';
import { registerEndpoint, requireAuth } from '../../http/endpoint-route.ts';
import type { PendoConfig } from './usage-service.ts';
import { UsageService } from './usage-service.ts';

/** Registers the usage dashboards and the analytics settings (access as the contract declares it). */
export function registerUsageRoutes(app: FastifyInstance, db: Kysely<Database>, pendo: PendoConfig): void {
  const usage = new UsageService(db, pendo);
  registerEndpoint(app, usageEndpoints.adminUsage, ({ query }) => usage.adminUsage(query));
  registerEndpoint(app, usageEndpoints.clientDashboard, ({ query, auth }) => usage.clientDashboard(requireAuth(auth), query));
  registerEndpoint(app, usageEndpoints.clientOrganisations, ({ query }) => usage.organisations(query.q));
  registerEndpoint(app, usageEndpoints.pendoDetails, ({ auth }) => usage.pendoDetails(requireAuth(auth)));
}
