import type { FastifyInstance } from 'fastify';
import { kbReleaseEndpoints } from '@kb/contracts/kb-loads';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { registerEndpoint, requireAuth } from '../../../http/endpoint-route.ts';
import { auditActor, recordAudit } from '../../audit/audit-log.ts';
import { latestFinishedLoad, listLoads } from '../kb-loads.ts';
import { listReleaseFiles } from './release-import.ts';
import type { ReleaseImportRunner } from './release-import.ts';

/** Release files, imports and loads (SUPER_ADMIN), and "what's new" for the search roles. */
export function registerReleaseRoutes(app: FastifyInstance, db: Kysely<Database>, importDir: string, runner: ReleaseImportRunner): void {
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
