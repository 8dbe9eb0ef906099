import type { FastifyInstance } from 'fastify';
import { sarEndpoints } from '@kb/contracts/sar';
import { sarCliffsEndpoints } from '@kb/contracts/sar-cliffs';
import { sarPairsEndpoints } from '@kb/contracts/sar-pairs';
import { registerEndpoint, requireAuth } from '../../http/endpoint-route.ts';
import type { ExportService } from '../export/export-service.ts';
import type { ExportJobRunner } from '../export/export-jobs.ts';
import type { SarService } from './sar-service.ts';
import type { SarCliffs } from './sar-cliffs.ts';
import type { SarPairs } from './sar-pairs.ts';

export interface SarModule {
  sar: SarService;
  cliffs: SarCliffs;
  pairs: SarPairs;
  /** A SAR table's export goes through the export jobs and credits. */
  exports: ExportService;
  runner: ExportJobRunner;
}

/** Registers the SAR view's endpoints of the contract (packages/contracts/src/sar.ts; docs/sar.md). */
export function registerSarRoutes(app: FastifyInstance, { sar, cliffs, pairs, exports, runner }: SarModule): void {
  registerEndpoint(app, sarEndpoints.setSarData, async ({ body, auth }) => sar.setSarData(requireAuth(auth), body));
  registerEndpoint(app, sarEndpoints.sarData, async ({ params, auth }) => sar.data(requireAuth(auth), params.sessionid));
  registerEndpoint(app, sarEndpoints.sarCores, async ({ body, auth }) => sar.cores(requireAuth(auth), body));
  registerEndpoint(app, sarEndpoints.sarOverlap, async ({ body, auth }) => sar.overlap(requireAuth(auth), body));
  registerEndpoint(app, sarEndpoints.sarTable, async ({ body, auth }) => sar.table(requireAuth(auth), body));
  registerEndpoint(app, sarEndpoints.sarProgress, async ({ params, auth }) => sar.progress(requireAuth(auth), params.sessionid));
  registerEndpoint(app, sarEndpoints.sarCancel, async ({ params, auth }) => sar.cancel(requireAuth(auth), params.sessionid));
  registerEndpoint(app, sarCliffsEndpoints.sarCliffs, async ({ body, auth }) => cliffs.cliffs(requireAuth(auth), body));
  registerEndpoint(app, sarPairsEndpoints.sarPairs, async ({ body, auth }) => pairs.pairs(requireAuth(auth), body));
  registerEndpoint(app, sarEndpoints.sarVirtual, async ({ body }) => sar.virtual(body));
  registerEndpoint(app, sarEndpoints.sarExport, async ({ body, auth }) => {
    const caller = requireAuth(auth);
    const { jobId, background } = await sar.export(caller, body);
    // As the results' exports: a small file is written while the request waits.
    if (background) runner.wake();
    else await runner.runNow(jobId);
    return exports.job(caller, jobId);
  });
}
