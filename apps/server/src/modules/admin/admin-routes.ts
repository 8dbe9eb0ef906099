import type { FastifyInstance } from 'fastify';
import { adminEndpoints } from '@kb/contracts/api';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import type { AdminService } from './admin-service.ts';

/** Registers the admin endpoints of the contract (access is checked by the endpoint definitions). */
export function registerAdminRoutes(app: FastifyInstance, admin: AdminService): void {
  registerEndpoint(app, adminEndpoints.subscriptions, () => admin.subscriptions());
  registerEndpoint(app, adminEndpoints.superAdminOverview, () => admin.overview());
}
