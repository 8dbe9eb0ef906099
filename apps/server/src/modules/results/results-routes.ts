import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { resultsEndpoints } from '@kb/contracts/results';
import { RESULT_TABS } from '@kb/contracts/result-tabs';
import type { Database } from '../../db/schema.ts';
import { registerEndpoint, requireAuth } from '../../http/endpoint-route.ts';
import type { ChemEngine } from '../chemistry/chem-engine.ts';
import { ResultsService } from './results-service.ts';
import type { KbDictionaryCache } from '../knowledge-base/kb-dictionaries.ts';
import { columnMetadata } from './tab-columns.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The results workspace over search sessions: charts and exports read rows through it. */
    resultsService: ResultsService;
  }
}

/** Registers the results endpoints of the contract (packages/contracts/src/results.ts). */
export function registerResultsRoutes(
  app: FastifyInstance,
  db: Kysely<Database>,
  engine: ChemEngine,
  dictionaries: KbDictionaryCache | null,
): ResultsService {
  const results = new ResultsService(db, app.searchService, engine, dictionaries);
  app.decorate('resultsService', results);

  registerEndpoint(app, resultsEndpoints.tabColumns, async ({ params }) => ({
    resetAll: params.resetAllFlag,
    tabs: RESULT_TABS.map((tab) => ({ tab: tab.key, label: tab.label, columns: columnMetadata(tab.key) })),
  }));
  registerEndpoint(app, resultsEndpoints.session, async ({ params, auth }) => results.overview(requireAuth(auth), params.sessionid));
  registerEndpoint(app, resultsEndpoints.tabRows, async ({ params, body, auth, reply }) => {
    const page = await results.page(requireAuth(auth), params.tab, body);
    // Spec §4: a 204 empties the tab.
    if (!page) return reply.code(204).send() as never;
    return page;
  });
  registerEndpoint(app, resultsEndpoints.applyFilters, async ({ params, body, auth }) =>
    results.applyFilters(requireAuth(auth), params.tab, body.sessionid, body.filters),
  );
  registerEndpoint(app, resultsEndpoints.resetAllFilters, async ({ body, auth }) =>
    results.resetAllFilters(requireAuth(auth), body.sessionid),
  );
  registerEndpoint(app, resultsEndpoints.newSearchBy, async ({ params, body, auth }) =>
    results.newSearchBy(requireAuth(auth), params.tab, body.sessionid, body.selection, body),
  );
  registerEndpoint(app, resultsEndpoints.gotoTab, async ({ body, auth }) =>
    results.goto(requireAuth(auth), body.sessionid, body.fromTab, body.toTab, body.ids),
  );
  registerEndpoint(app, resultsEndpoints.viewAll, async ({ body, auth }) => results.viewAll(requireAuth(auth), body.sessionid, body.tab));
  registerEndpoint(app, resultsEndpoints.tabularView, async ({ params }) => results.tabularView(params.id));
  return results;
}
