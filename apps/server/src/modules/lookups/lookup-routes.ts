import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Registers the lookups endpoints of the contract (packages/contracts/src/lookups.ts). */
export function registerLookupRoutes(app: FastifyInstance, db: Kysely<Database>): void {
  void app;
  void db;
}
