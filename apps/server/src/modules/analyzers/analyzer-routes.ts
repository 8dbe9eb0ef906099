import type { FastifyInstance } from 'fastify';
import { analyzerEndpoints } from '@kb/contracts/analyzers';
import { registerEndpoint, requireAuth } from '../../http/endpoint-route.ts';
import type { AnalyzerService } from './analyzer-service.ts';

/** Registers the analyzer endpoints (packages/contracts/src/analyzers.ts). */
export function registerAnalyzerRoutes(app: FastifyInstance, analyzers: AnalyzerService): void {
  registerEndpoint(app, analyzerEndpoints.visualization, async ({ body, auth }) => analyzers.visualization(requireAuth(auth), body));
  registerEndpoint(app, analyzerEndpoints.endpointOptions, async ({ body, auth }) => analyzers.endpoints(requireAuth(auth), body));
  registerEndpoint(app, analyzerEndpoints.storeRequest, async ({ body, auth }) => analyzers.store(requireAuth(auth), body));
  registerEndpoint(app, analyzerEndpoints.fetchRequest, async ({ query, auth }) => analyzers.fetch(requireAuth(auth), query.id));
}
