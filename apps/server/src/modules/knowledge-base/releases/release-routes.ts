import type { FastifyInstance } from 'fastify';
import { kbReleaseEndpoints } from '@kb/contracts/kb-loads';
import type { DatabaseHandle } from '../../../db/database.ts';
import { registerEndpoint, requireAuth } from '../../../http/endpoint-route.ts';
import { auditActor, recordAudit } from '../../audit/audit-log.ts';
import { latestFinishedLoad, listLoads } from '../kb-loads.ts';
import { ReleaseImportRunner, listReleaseFiles } from './release-import.ts';
import type { ReleaseImportOptions } from './release-import.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The release import of this process (tests wait for it). */
    releaseImport: ReleaseImportRunner;
  }
}

/** Release files, imports and loads (SUPER_ADMIN), and "what's new" for the search roles. */
export function registerReleaseRoutes(
  app: FastifyInstance,
  database: DatabaseHandle,
  importDir: string,
  options: ReleaseImportOptions = {},
): void {
  const { db } = database;
  const runner = new ReleaseImportRunner(database, importDir, options);
  app.decorate('releaseImport', runner);
  app.addHook('onClose', async () => runner.settled());

  registerEndpoint(app, kbReleaseEndpoints.releaseFiles, () => listReleaseFiles(importDir));
  registerEndpoint(app, kbReleaseEndpoints.startImport, async ({ body, auth, request }) => {
    const caller = requireAuth(auth);
    return runner.start(caller.email, body, (file) =>
      recordAudit(db, auditActor(request), {
        action: 'dataset.import',
        targetType: 'dataset',
        targetId: null,
        targetLabel: `ChEMBL release ${file}`,
        after: { file, allowMixed: body.allowMixed },
      }),
    );
  });
  registerEndpoint(app, kbReleaseEndpoints.importStatus, async () => runner.status());
  registerEndpoint(app, kbReleaseEndpoints.loads, async () => ({ loads: await listLoads(db) }));
  registerEndpoint(app, kbReleaseEndpoints.whatsNew, async () => ({ load: await latestFinishedLoad(db) }));
}
