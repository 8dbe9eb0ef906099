import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { leafletEndpoints } from '@kb/contracts/leaflets';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import { registerEndpoint, requireAuth } from '../../http/endpoint-route.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import { LeafletService } from './leaflet-service.ts';
import type { LeafletSession } from './leaflet-service.ts';

/** Registers the leaflet endpoints of the contract (packages/contracts/src/leaflets.ts). */
export function registerLeafletRoutes(app: FastifyInstance, db: Kysely<Database>): void {
  const leaflets = new LeafletService(db);

  /** The search a reference was opened from: 403 for another user's, 404 when unknown; sets lost in a crash are re-run first (searchService.keptSession). */
  const sessionOf = async (auth: AuthContext, sessionId: string | undefined): Promise<LeafletSession | null> => {
    if (sessionId === undefined) return null;
    const session = await app.searchService.keptSession(auth, sessionId);
    if (!session) throw notFound(`No search session ${sessionId}: open the reference again from your results, or without a search.`);
    return { id: session.id, status: session.status, setId: session.set_id, summary: session.summary };
  };

  registerEndpoint(app, leafletEndpoints.compoundLeaflet, async ({ params, query }) => leaflets.compoundLeaflet(query.idType, params.id));
  registerEndpoint(app, leafletEndpoints.findDcmOrNot, async ({ params }) => leaflets.findDcm(params.id));
  registerEndpoint(app, leafletEndpoints.referenceLeaflet, async ({ params, query, auth }) => {
    const session = await sessionOf(requireAuth(auth), query.sessionid);
    return leaflets.referenceLeaflet(params.rid, session, query.inSearchOnly);
  });
}
