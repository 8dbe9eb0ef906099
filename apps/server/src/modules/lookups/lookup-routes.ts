import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { lookupEndpoints } from '@kb/contracts/lookups';
import type { LookupQuery } from '@kb/contracts/lookups';
import type { Database } from '../../db/schema.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import { TERM_LOOKUPS, ensureLookupTerms, runLookup } from './lookup-service.ts';
import type { TermLookupName } from './lookup-service.ts';

/** Registers the lookups endpoints of the contract (packages/contracts/src/lookups.ts). */
export function registerLookupRoutes(app: FastifyInstance, db: Kysely<Database>): void {
  const ready = () => ensureLookupTerms(db, app.log);

  for (const name of Object.keys(TERM_LOOKUPS) as TermLookupName[]) {
    // GET look-ups carry the term in the query string, POST ones in the body; both validated by the contract.
    const endpoint = lookupEndpoints[name];
    registerEndpoint(app, endpoint, async ({ query, body }) => {
      await ready();
      return runLookup(db, name, (endpoint.method === 'GET' ? query : body) as LookupQuery);
    });
  }

  registerEndpoint(app, lookupEndpoints.activityUom, async ({ body }) => {
    await ready();
    return runLookup(db, 'activityUom', body);
  });
}
