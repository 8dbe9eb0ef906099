import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Registers the search endpoints of the contract (packages/contracts/src/search-api.ts). */
export function registerSearchRoutes(app: FastifyInstance, db: Kysely<Database>): void {
  void app;
  void db;
}
