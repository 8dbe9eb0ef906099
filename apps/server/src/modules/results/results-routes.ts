import type { FastifyInstance } from 'fastify';
import { resultsEndpoints } from '@kb/contracts/results';
import { RESULT_TABS } from '@kb/contracts/result-tabs';
import { registerEndpoint, requireAuth } from '../../http/endpoint-route.ts';
import type { ResultsService } from './results-service.ts';
import { columnMetadata } from './tab-columns.ts';

/** Registers the results endpoints of the contract (packages/contracts/src/results.ts). */
export function registerResultsRoutes(app: FastifyInstance, results: ResultsService): void {
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
}
