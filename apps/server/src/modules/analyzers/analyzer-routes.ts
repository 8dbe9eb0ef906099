import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { analyzerEndpoints } from '@kb/contracts/analyzers';
import type { Database } from '../../db/schema.ts';
import { registerEndpoint, requireAuth } from '../../http/endpoint-route.ts';
import type { ChemEngine } from '../chemistry/chem-engine.ts';
import type { ResultsService } from '../results/results-service.ts';
import { AnalyzerService } from './analyzer-service.ts';

/** Registers the analyzer endpoints (packages/contracts/src/analyzers.ts). */
export function registerAnalyzerRoutes(app: FastifyInstance, db: Kysely<Database>, results: ResultsService, engine: ChemEngine): void {
  const analyzers = new AnalyzerService(db, results, engine);
  registerEndpoint(app, analyzerEndpoints.visualization, async ({ body, auth }) => analyzers.visualization(requireAuth(auth), body));
  registerEndpoint(app, analyzerEndpoints.endpointOptions, async ({ body, auth }) => analyzers.endpoints(requireAuth(auth), body));
  registerEndpoint(app, analyzerEndpoints.storeRequest, async ({ body, auth }) => analyzers.store(requireAuth(auth), body));
  registerEndpoint(app, analyzerEndpoints.fetchRequest, async ({ query, auth }) => analyzers.fetch(requireAuth(auth), query.id));
}
