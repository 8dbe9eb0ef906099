import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { sarEndpoints } from '@kb/contracts/sar';
import type { Database } from '../../db/schema.ts';
import { registerEndpoint, requireAuth } from '../../http/endpoint-route.ts';
import type { ChemEngine } from '../chemistry/chem-engine.ts';
import type { ResultsService } from '../results/results-service.ts';
import type { ExportService } from '../export/export-service.ts';
import type { ExportJobRunner } from '../export/export-jobs.ts';
import { SarService } from './sar-service.ts';

export interface SarModule {
  db: Kysely<Database>;
  results: ResultsService;
  engine: ChemEngine;
  exports: ExportService;
  runner: ExportJobRunner;
}

/** Registers the SAR view's endpoints of the contract (packages/contracts/src/sar.ts; docs/sar.md). */
export function registerSarRoutes(app: FastifyInstance, { db, results, engine, exports, runner }: SarModule): SarService {
  const sar = new SarService(db, results, engine, exports);
  app.addHook('onClose', async () => sar.close());

  registerEndpoint(app, sarEndpoints.setSarData, async ({ body, auth }) => sar.setSarData(requireAuth(auth), body));
  registerEndpoint(app, sarEndpoints.sarData, async ({ params, auth }) => sar.data(requireAuth(auth), params.sessionid));
  registerEndpoint(app, sarEndpoints.sarCores, async ({ body, auth }) => sar.cores(requireAuth(auth), body));
  registerEndpoint(app, sarEndpoints.sarTable, async ({ body, auth }) => sar.table(requireAuth(auth), body));
  registerEndpoint(app, sarEndpoints.sarProgress, async ({ params, auth }) => sar.progress(requireAuth(auth), params.sessionid));
  registerEndpoint(app, sarEndpoints.sarCancel, async ({ params, auth }) => sar.cancel(requireAuth(auth), params.sessionid));
  registerEndpoint(app, sarEndpoints.sarCliffs, async ({ body, auth }) => sar.cliffs(requireAuth(auth), body));
  registerEndpoint(app, sarEndpoints.sarPairs, async ({ body, auth }) => sar.pairs(requireAuth(auth), body));
  registerEndpoint(app, sarEndpoints.sarVirtual, async ({ body }) => sar.virtual(body));
  registerEndpoint(app, sarEndpoints.sarExport, async ({ body, auth }) => {
    const caller = requireAuth(auth);
    const { jobId, background } = await sar.export(caller, body);
    // As the results' exports: a small file is written while the request waits.
    if (background) runner.wake();
    else await runner.runNow(jobId);
    return exports.job(caller, jobId);
  });
  return sar;
}
