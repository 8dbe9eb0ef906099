import type { FastifyInstance } from 'fastify';
import { leafletEndpoints } from '@kb/contracts/leaflets';
import type { ReferenceSearchNote } from '@kb/contracts/leaflets';
import { HttpError } from '../../http/errors.ts';
import { registerEndpoint, requireAuth } from '../../http/endpoint-route.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import type { ExportJobRunner } from '../export/export-jobs.ts';
import type { ExportService } from '../export/export-service.ts';
import type { LeafletService, LeafletSession, SearchMembership } from './leaflet-service.ts';
import { exportMeasurements } from './measurement-export.ts';
import type { MeasurementService } from './measurement-service.ts';

/**
 * The search sessions a reference is opened from: modules/search's SearchService, passed in by
 * app.ts (declared here because leaflets do not import search; see .dependency-cruiser.mjs).
 */
interface LeafletSearchSessions {
  keptSession(
    auth: AuthContext,
    sessionId: string,
    need?: 'definition' | 'tables',
  ): Promise<{ id: string; status: string; set_id: number; summary: string | null } | null>;
  /** Which structures and activities are in the session's sets held in memory; null when they are not held. */
  heldMembership(session: { id: string; status: string; set_id: number }): Promise<SearchMembership | null>;
}

export interface LeafletModule {
  leaflets: LeafletService;
  measurements: MeasurementService;
  searchSessions: LeafletSearchSessions;
  /** The measurement list's export goes through the export jobs and credits. */
  exports: ExportService;
  runner: ExportJobRunner;
  /** Where the app is reached: exports write the leaflets' permanent links in full. */
  publicUrl: string;
}

/** Registers the leaflet endpoints of the contract (packages/contracts/src/leaflets.ts). */
export function registerLeafletRoutes(
  app: FastifyInstance,
  { leaflets, measurements, searchSessions, exports, runner, publicUrl }: LeafletModule,
): void {
  /**
   * The search a reference was opened from, when it is the caller's own (sets lost in a crash are
   * re-run first: SearchService.keptSession). Another user's search (a colleague opening a shared
   * link) or an unknown one is not an error: the whole reference opens, and the note says why.
   */
  const sessionOf = async (
    auth: AuthContext,
    sessionId: string | undefined,
  ): Promise<{ session: LeafletSession | null; note: ReferenceSearchNote | null }> => {
    if (sessionId === undefined) return { session: null, note: null };
    try {
      // The search's sets held in memory answer "in this search"; else its set tables are read.
      let session = await searchSessions.keptSession(auth, sessionId, 'definition');
      if (!session) return { session: null, note: 'unknown' };
      const members = session.status === 'ready' ? await searchSessions.heldMembership(session) : null;
      if (session.status === 'ready' && !members) session = (await searchSessions.keptSession(auth, sessionId)) ?? session;
      return { session: { id: session.id, status: session.status, setId: session.set_id, summary: session.summary, members }, note: null };
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 403) return { session: null, note: 'not-yours' };
      throw error;
    }
  };

  registerEndpoint(app, leafletEndpoints.compoundLeaflet, async ({ params, query }) => leaflets.compoundLeaflet(query.idType, params.id));
  registerEndpoint(app, leafletEndpoints.findDcmOrNot, async ({ params }) => leaflets.findDcm(params.id));
  registerEndpoint(app, leafletEndpoints.referenceLeaflet, async ({ params, query, auth }) => {
    const { session, note } = await sessionOf(requireAuth(auth), query.sessionid);
    return leaflets.referenceLeaflet(params.rid, session, query.inSearchOnly, note);
  });
  registerEndpoint(app, leafletEndpoints.measurements, async ({ query }) => measurements.list(query));
  registerEndpoint(app, leafletEndpoints.measurementsExport, async ({ body, auth }) => {
    const caller = requireAuth(auth);
    const { jobId, background } = await exportMeasurements(caller, body, measurements, exports, publicUrl);
    // As the other exports: a small file is written while the request waits.
    if (background) runner.wake();
    else await runner.runNow(jobId);
    return exports.job(caller, jobId);
  });
}
