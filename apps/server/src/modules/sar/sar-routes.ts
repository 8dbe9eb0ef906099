import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { sarEndpoints } from '@kb/contracts/sar';
import { sarCliffsEndpoints } from '@kb/contracts/sar-cliffs';
import { sarPairsEndpoints } from '@kb/contracts/sar-pairs';
import type { Database } from '../../db/schema.ts';
import { registerEndpoint, requireAuth } from '../../http/endpoint-route.ts';
import type { ChemEngine } from '../chemistry/chem-engine.ts';
import type { ResultsService } from '../results/results-service.ts';
import type { ExportService } from '../export/export-service.ts';
import type { ExportJobRunner } from '../export/export-jobs.ts';
import { SarService } from './sar-service.ts';
import { SarCliffs } from './sar-cliffs.ts';
import { SarPairs } from './sar-pairs.ts';
import { SarJobs } from './sar-progress.ts';
import type { DatabaseKind } from '../../db/database.ts';

export interface SarModule {
  db: Kysely<Database>;
  results: ResultsService;
  engine: ChemEngine;
  exports: ExportService;
  runner: ExportJobRunner;
  /** A PostgreSQL server may be shared by several API servers: SAR progress and cancel go through it. */
  databaseKind: DatabaseKind;
  /** How often running SAR work writes its progress for the other servers (SEARCH_HEARTBEAT_MS). */
  heartbeatMs: number;
}

/** Registers the SAR view's endpoints of the contract (packages/contracts/src/sar.ts; docs/sar.md). */
export function registerSarRoutes(
  app: FastifyInstance,
  { db, results, engine, exports, runner, databaseKind, heartbeatMs }: SarModule,
): SarService {
  const jobs = new SarJobs({
    shared: databaseKind === 'postgres' ? db : null,
    heartbeatMs,
    onError: (error) => app.log.warn({ err: error }, 'SAR progress not shared'),
  });
  const sar = new SarService(db, results, engine, exports, jobs);
  const cliffs = new SarCliffs(sar, db, engine);
  const pairs = new SarPairs(sar, engine, db);
  app.addHook('onClose', async () => sar.close());

  registerEndpoint(app, sarEndpoints.setSarData, async ({ body, auth }) => sar.setSarData(requireAuth(auth), body));
  registerEndpoint(app, sarEndpoints.sarData, async ({ params, auth }) => sar.data(requireAuth(auth), params.sessionid));
  registerEndpoint(app, sarEndpoints.sarCores, async ({ body, auth }) => sar.cores(requireAuth(auth), body));
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
  return sar;
}
