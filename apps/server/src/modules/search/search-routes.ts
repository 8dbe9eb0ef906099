import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { searchEndpoints } from '@kb/contracts/search-api';
import type { Database } from '../../db/schema.ts';
import { registerEndpoint, requireAuth } from '../../http/endpoint-route.ts';
import type { Admission } from '../../http/admission.ts';
import type { SavedQueryService } from './saved-queries.ts';
import type { SearchService, SessionKind } from './search-service.ts';
import { attachmentHeader } from '../../http/attachment.ts';

export interface SearchModule {
  db: Kysely<Database>;
  search: SearchService;
  saved: SavedQueryService;
  /** Turns for heavy calls: the progress call reports a waiting search's place in line. */
  admission: Admission;
}

/** Registers the search and count endpoints of the contract (packages/contracts/src/search-api.ts). */
export function registerSearchRoutes(app: FastifyInstance, { db, search, saved, admission }: SearchModule): void {
  registerEndpoint(app, searchEndpoints.count, async ({ body, auth }) => ({
    rows: [await search.countOnly(body.searchcriteria, { userId: requireAuth(auth).userId })],
  }));

  const sessionCount =
    (kind: SessionKind) =>
    async ({
      body,
      auth,
    }: {
      body: { searchcriteria: Parameters<SearchService['run']>[2]; sessionid: string };
      auth: Parameters<typeof requireAuth>[0];
    }) => ({
      rows: [await search.run(requireAuth(auth), body.sessionid, body.searchcriteria, kind)],
      sessionid: body.sessionid,
    });
  registerEndpoint(app, searchEndpoints.allResultsCount, sessionCount('search'));
  registerEndpoint(app, searchEndpoints.newSearchBySelectionCount, sessionCount('selection'));

  // The three log calls of the search flow (spec §4) run the same session once and report one table each.
  const log =
    (table: 'structures' | 'activities' | 'assays', kind: SessionKind) =>
    async ({
      body,
      auth,
    }: {
      body: { searchpostobject: Parameters<SearchService['run']>[2]; sessionid: string };
      auth: Parameters<typeof requireAuth>[0];
    }) => {
      const counts = await search.run(requireAuth(auth), body.sessionid, body.searchpostobject, kind);
      // The rows of that set, as counted (the sets themselves may still be being written).
      const rows = table === 'structures' ? counts.stridscount : table === 'activities' ? counts.actidscount : counts.assayidscount;
      return { sessionid: body.sessionid, table, rows };
    };
  registerEndpoint(app, searchEndpoints.structureLogs, log('structures', 'search'));
  registerEndpoint(app, searchEndpoints.activityLogs, log('activities', 'search'));
  registerEndpoint(app, searchEndpoints.assayLogs, log('assays', 'search'));
  registerEndpoint(app, searchEndpoints.selectionActivityLogs, log('activities', 'selection'));
  registerEndpoint(app, searchEndpoints.selectionAssayLogs, log('assays', 'selection'));

  registerEndpoint(app, searchEndpoints.chartDataStatus, async ({ body, auth }) => {
    const session = await search.owned(requireAuth(auth), body.sessionid);
    const status = !session
      ? 'none'
      : session.status === 'ready'
        ? 'ready'
        : session.status === 'running' || session.status === 'new'
          ? 'pending'
          : 'none';
    return { sessionid: body.sessionid, status: status as 'none' | 'ready' | 'pending' };
  });

  registerEndpoint(app, searchEndpoints.searchProgress, async ({ params, auth }) => {
    const caller = requireAuth(auth);
    // Waiting for a turn (http/admission.ts): its place in line. Turns are per user, so another
    // user's session id is never found here and goes on to the ownership check.
    const ahead = admission.position('search', caller.userId, params.sessionid);
    if (ahead !== null)
      return {
        sessionid: params.sessionid,
        status: 'running' as const,
        phase: 'queued' as const,
        queuePosition: ahead,
        searched: 0,
        total: 0,
        hits: 0,
        message: null,
      };
    return search.progress(caller, params.sessionid);
  });
  registerEndpoint(app, searchEndpoints.searchCancel, async ({ params, auth }) => ({
    cancelled: await search.cancel(requireAuth(auth), params.sessionid),
  }));

  registerEndpoint(app, searchEndpoints.defaultCount, () => search.defaultCounts());
  registerEndpoint(app, searchEndpoints.criteriaDefaultCount, () => search.defaultCounts());
  registerEndpoint(app, searchEndpoints.searchDefaultCount, () => search.defaultCounts());

  registerEndpoint(app, searchEndpoints.saveQuery, async ({ body, reply }) => {
    const file = saved.fileFor(body);
    const fileName = `${body.name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'search'}.kbquery.json`;
    reply.type('application/json; charset=utf-8').header('content-disposition', attachmentHeader(fileName));
    return JSON.stringify(file, null, 2);
  });
  registerEndpoint(app, searchEndpoints.variableSave, async ({ body, auth }) => saved.save(requireAuth(auth), body));
  registerEndpoint(app, searchEndpoints.criteriaFetch, async ({ auth }) => ({ rows: await saved.list(requireAuth(auth)) }));
  registerEndpoint(app, searchEndpoints.dashboardCriteriaFetch, async ({ auth }) => ({ rows: await saved.list(requireAuth(auth)) }));
  registerEndpoint(app, searchEndpoints.criteriaSelect, async ({ body, auth }) => saved.select(requireAuth(auth), body.criteriaId));
  registerEndpoint(app, searchEndpoints.criteriaGet, async ({ params, auth }) => saved.detail(requireAuth(auth), params.criteriaId));
  registerEndpoint(app, searchEndpoints.criteriaDelete, async ({ body, auth }) => ({
    deleted: await saved.remove(requireAuth(auth), body.criteriaId),
  }));
  registerEndpoint(app, searchEndpoints.sessionSummarySave, async ({ body, auth }) => {
    const caller = requireAuth(auth);
    const session = await search.owned(caller, body.sessionid);
    if (!session) return { saved: false };
    await db.updateTable('search_sessions').set({ summary: body.summary }).where('id', '=', body.sessionid).execute();
    return { saved: true };
  });
  registerEndpoint(app, searchEndpoints.home, async ({ auth }) => saved.home(requireAuth(auth)));
}
