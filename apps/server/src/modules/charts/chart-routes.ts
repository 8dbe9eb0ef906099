import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { chartDefinition, chartEndpoints } from '@kb/contracts/charts';
import type { Database } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';
import { registerEndpoint, requireAuth } from '../../http/endpoint-route.ts';
import type { ResultsService } from '../results/results-service.ts';
import { ChartService } from './chart-service.ts';
import type { KbDictionaryCache } from '../knowledge-base/kb-dictionaries.ts';

/**
 * Registers the chart and left-hand filter endpoints (packages/contracts/src/charts.ts).
 * `dictionaries`: count the batched charts of the Activities and Structures tabs in memory.
 */
export function registerChartRoutes(
  app: FastifyInstance,
  db: Kysely<Database>,
  results: ResultsService,
  dictionaries: KbDictionaryCache | null,
): void {
  const charts = new ChartService(db, results, dictionaries, (error) =>
    app.log.error({ err: error }, 'A chart counted in memory failed; it was answered in SQL'),
  );

  registerEndpoint(app, chartEndpoints.chart, async ({ body, auth }) =>
    charts.chart(requireAuth(auth), {
      sessionid: body.sessionid,
      tab: body.type,
      chartKey: body.charttype,
      resetFlg: body.resetFlg,
      sortType: body.sortType,
      sortOrder: body.sortOrder,
      maxCount: body.maxCount,
      strIdList: body.strIdList,
    }),
  );
  registerEndpoint(app, chartEndpoints.leftHandFilter, async ({ params, body, auth }) => {
    const definition = chartDefinition(params.chartKey);
    if (definition && definition.chartType !== params.chartType) {
      throw badRequest(`Chart "${params.chartKey}" is a ${definition.chartType} chart, not ${params.chartType}.`, {
        chartKey: params.chartKey,
      });
    }
    return charts.chart(requireAuth(auth), {
      sessionid: body.sessionid,
      tab: body.type,
      chartKey: params.chartKey,
      resetFlg: false,
      sortType: body.sortType,
      sortOrder: body.sortOrder,
      maxCount: body.maxCount,
      search: body.search,
    });
  });
}
