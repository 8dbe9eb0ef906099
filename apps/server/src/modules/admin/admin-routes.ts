import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { adminEndpoints } from '@kb/contracts/api';
import type { Database } from '../../db/schema.ts';
import type { DatabaseKind } from '../../db/database.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import { AdminService } from './admin-service.ts';

/** Registers the admin endpoints of the contract (access is checked by the endpoint definitions). */
export function registerAdminRoutes(app: FastifyInstance, db: Kysely<Database>, kind: DatabaseKind): void {
  const admin = new AdminService(db, kind);
  registerEndpoint(app, adminEndpoints.subscriptions, () => admin.subscriptions());
  registerEndpoint(app, adminEndpoints.superAdminOverview, () => admin.overview());
}
