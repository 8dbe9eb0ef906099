import type { FastifyInstance } from 'fastify';
import { trackerEndpoints } from '@kb/contracts/admin-trackers';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import { auditActor } from '../audit/audit-log.ts';
import type { TrackerService } from './tracker-service.ts';
import { attachmentHeader } from '../../http/attachment.ts';

/** Registers the trackers of `/admin/trackers` (packages/contracts/src/admin-trackers.ts); access is the contract's. */
export function registerTrackerRoutes(app: FastifyInstance, trackers: TrackerService): void {
  registerEndpoint(app, trackerEndpoints.logins, ({ query }) => trackers.list('logins', query));
  registerEndpoint(app, trackerEndpoints.searches, ({ query }) => trackers.list('searches', query));
  registerEndpoint(app, trackerEndpoints.exports, ({ query }) => trackers.list('exports', query));
  registerEndpoint(app, trackerEndpoints.datasets, ({ query }) => trackers.list('datasets', query));
  registerEndpoint(app, trackerEndpoints.terms, ({ query }) => trackers.list('terms', query));
  registerEndpoint(app, trackerEndpoints.organisations, () => trackers.organisations());

  // A file answer (responseType): sent as it is, not through the JSON serialiser.
  registerEndpoint(app, trackerEndpoints.csv, async ({ params, query, reply }) => {
    const text = await trackers.csv(params.tracker, query);
    const day = new Date().toISOString().slice(0, 10);
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', attachmentHeader(`trackers-${params.tracker}-${day}.csv`))
      .header('cache-control', 'no-store');
    return text;
  });

  registerEndpoint(app, trackerEndpoints.termCandidates, ({ params, query }) => trackers.candidates(params.termId, query.q));
  registerEndpoint(app, trackerEndpoints.resolveTerm, ({ params, body, request }) =>
    trackers.resolve(auditActor(request), params.termId, body),
  );
  registerEndpoint(app, trackerEndpoints.rejectTerm, ({ params, body, request }) =>
    trackers.reject(auditActor(request), params.termId, body.note),
  );
}
