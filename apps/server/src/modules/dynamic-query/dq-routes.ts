import type { FastifyInstance } from 'fastify';
import { dynamicQueryEndpoints } from '@kb/contracts/dynamic-query';
import { registerEndpoint, requireAuth } from '../../http/endpoint-route.ts';
import type { ExportService } from '../export/export-service.ts';
import type { ExportJobRunner } from '../export/export-jobs.ts';
import type { DynamicQueryService } from './dq-service.ts';

export interface DynamicQueryModule {
  service: DynamicQueryService;
  /** A query's export goes through the export jobs and credits. */
  exports: ExportService;
  runner: ExportJobRunner;
}

/** Registers the dynamic query's endpoints (packages/contracts/src/dynamic-query.ts; docs/dynamic-query.md). */
export function registerDynamicQueryRoutes(app: FastifyInstance, { service, exports, runner }: DynamicQueryModule): void {
  registerEndpoint(app, dynamicQueryEndpoints.getTableColumns, async ({ body }) => service.tableColumns(body.entity));
  registerEndpoint(app, dynamicQueryEndpoints.run, async ({ body }) => service.run(body));
  registerEndpoint(app, dynamicQueryEndpoints.listSaved, async ({ auth }) => service.listSaved(requireAuth(auth)));
  registerEndpoint(app, dynamicQueryEndpoints.save, async ({ body, auth }) => service.save(requireAuth(auth), body.name, body.query));
  registerEndpoint(app, dynamicQueryEndpoints.openSaved, async ({ params, auth }) => service.open(requireAuth(auth), params.id));
  registerEndpoint(app, dynamicQueryEndpoints.deleteSaved, async ({ params, auth }) => service.deleteSaved(requireAuth(auth), params.id));
  registerEndpoint(app, dynamicQueryEndpoints.export, async ({ body, auth }) => {
    const caller = requireAuth(auth);
    const { jobId, background } = await service.export(caller, body);
    // As the results' exports: a small file is written while the request waits.
    if (background) runner.wake();
    else await runner.runNow(jobId);
    return exports.job(caller, jobId);
  });
}
