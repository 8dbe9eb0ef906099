import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Registers the uploads endpoints of the contract (packages/contracts/src/uploads.ts). */
export function registerUploadRoutes(app: FastifyInstance, db: Kysely<Database>): void {
  void app;
  void db;
}
