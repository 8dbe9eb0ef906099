import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { chemistryEndpoints } from '@kb/contracts/chemistry';
import type { Database } from '../../db/schema.ts';
import { clientGoneSignal, registerEndpoint } from '../../http/endpoint-route.ts';
import type { ChemEngine } from './chem-engine.ts';
import { DepictionService } from './depictions.ts';
import { StructureLookups } from './structure-lookups.ts';

/** Depictions one user may ask for in a minute (the web client stays under it: 500). */
const DEPICTIONS_PER_MINUTE = 600;

function depictionRateKey(request: FastifyRequest): string {
  return request.auth ? `user:${request.auth.userId}` : `ip:${request.ip}`;
}

/** If-None-Match may list several ETags and mark them weak (W/"…"). */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*');
}

/** Registers the chemistry calls of the contract (packages/contracts/src/chemistry.ts). */
export function registerChemistryRoutes(app: FastifyInstance, db: Kysely<Database>, engine: ChemEngine, timeLimitMs = 120_000): void {
  app.addHook('onClose', () => engine.close());
  const depictions = new DepictionService(engine, db);
  const lookups = new StructureLookups(engine, db, timeLimitMs);

  registerEndpoint(
    app,
    chemistryEndpoints.depiction,
    async ({ query, request, reply }) => {
      const { input, etag } = await depictions.resolve(query);
      // Private: depictions are behind the login; a day is safe because the ETag names the content.
      const cacheHeaders = { etag, 'cache-control': 'private, max-age=86400' };
      if (etagMatches(request.headers['if-none-match'], etag)) {
        reply.code(304).headers(cacheHeaders);
        return '';
      }
      const svg = await depictions.svg(input, etag);
      // Only a drawing is cached; the SVG may never be read as a page with scripts.
      reply.type('image/svg+xml; charset=utf-8').headers({
        ...cacheHeaders,
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
      });
      return svg;
    },
    // A page of results asks for a few dozen drawings at once; a scraper asks for thousands. Counted
    // per user (after the login is read), not per address: colleagues behind one proxy do not share
    // a budget. The web asks in bounded batches under it (features/chemistry/depiction-queue.ts).
    { rateLimit: { max: DEPICTIONS_PER_MINUTE, timeWindow: '1 minute', hook: 'preHandler', keyGenerator: depictionRateKey } },
  );

  registerEndpoint(app, chemistryEndpoints.engineStatus, async () => engine.status());

  registerEndpoint(app, chemistryEndpoints.structuresBySmilesSmarts, async ({ body, reply }) => {
    // A client that goes away (a newer preview replaced it) stops the search.
    return lookups.preview(body, clientGoneSignal(reply));
  });
  registerEndpoint(app, chemistryEndpoints.structuresByInchikey, async ({ body }) => lookups.byInchikey(body.inchikey));
  registerEndpoint(app, chemistryEndpoints.physicochemicalStructural, async ({ body }) => lookups.countByProperties(body.properties));
  registerEndpoint(app, chemistryEndpoints.propertiesMinMax, async () => lookups.propertyRanges());
}
