import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Registers the trees endpoints of the contract (packages/contracts/src/trees.ts). */
export function registerTreeRoutes(app: FastifyInstance, db: Kysely<Database>): void {
  void app;
  void db;
}
