import type { FastifyInstance } from 'fastify';
import { chartDefinition, chartEndpoints } from '@kb/contracts/charts';
import { badRequest } from '../../http/errors.ts';
import { registerEndpoint, requireAuth } from '../../http/endpoint-route.ts';
import type { ChartService } from './chart-service.ts';

/** Registers the chart and left-hand filter endpoints (packages/contracts/src/charts.ts). */
export function registerChartRoutes(app: FastifyInstance, charts: ChartService): void {
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
