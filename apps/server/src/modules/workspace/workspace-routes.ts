import type { FastifyInstance } from 'fastify';
import { workspaceEndpoints as w } from '@kb/contracts/workspace';
import { registerEndpoint, requireAuth } from '../../http/endpoint-route.ts';
import { auditActor } from '../audit/audit-log.ts';
import type { CollectionUpload } from './collection-upload.ts';
import type { CollectionsService } from './collections-service.ts';
import type { WorkspaceHistory } from './history.ts';
import type { ResultSetsService } from './result-sets-service.ts';
import type { WorkspaceSharing } from './workspace-sharing.ts';

export interface WorkspaceModule {
  collections: CollectionsService;
  upload: CollectionUpload;
  resultSets: ResultSetsService;
  sharing: WorkspaceSharing;
  history: WorkspaceHistory;
}

/** Registers the workspace's endpoints of the contract (packages/contracts/src/workspace.ts; docs/workspace.md). */
export function registerWorkspaceRoutes(
  app: FastifyInstance,
  { collections, upload, resultSets, sharing, history }: WorkspaceModule,
): void {
  registerEndpoint(app, w.colleagues, async ({ query, auth }) => sharing.colleagues(requireAuth(auth), query.q));

  registerEndpoint(app, w.collections, async ({ auth }) => collections.list(requireAuth(auth)));
  registerEndpoint(app, w.createCollection, async ({ body, auth }) => collections.create(requireAuth(auth), body));
  registerEndpoint(app, w.collection, async ({ params, auth }) => collections.get(requireAuth(auth), params.id));
  registerEndpoint(app, w.updateCollection, async ({ params, body, auth }) => collections.update(requireAuth(auth), params.id, body));
  registerEndpoint(app, w.deleteCollection, async ({ params, auth }) => collections.delete(requireAuth(auth), params.id));
  registerEndpoint(app, w.collectionItems, async ({ params, query, auth }) =>
    collections.items(requireAuth(auth), params.id, query.page, query.pageSize),
  );
  registerEndpoint(app, w.addItems, async ({ params, body, auth }) => collections.addItems(requireAuth(auth), params.id, body.source));
  registerEndpoint(app, w.removeItems, async ({ params, body, auth }) =>
    collections.removeItems(requireAuth(auth), params.id, body.strIds),
  );
  registerEndpoint(app, w.uploadItems, async ({ params, body, auth }) => upload.upload(requireAuth(auth), params.id, body));
  registerEndpoint(app, w.shareCollection, async ({ params, body, auth, request }) => {
    const caller = requireAuth(auth);
    await sharing.share(caller, auditActor(request), 'collection', params.id, body);
    return collections.get(caller, params.id);
  });

  registerEndpoint(app, w.resultSets, async ({ auth }) => resultSets.list(requireAuth(auth)));
  registerEndpoint(app, w.saveResultSet, async ({ body, auth }) => resultSets.save(requireAuth(auth), body));
  registerEndpoint(app, w.resultSet, async ({ params, auth }) => resultSets.get(requireAuth(auth), params.id));
  registerEndpoint(app, w.updateResultSet, async ({ params, body, auth }) => resultSets.update(requireAuth(auth), params.id, body));
  registerEndpoint(app, w.deleteResultSet, async ({ params, auth }) => resultSets.delete(requireAuth(auth), params.id));
  registerEndpoint(app, w.shareResultSet, async ({ params, body, auth, request }) => {
    const caller = requireAuth(auth);
    await sharing.share(caller, auditActor(request), 'result_set', params.id, body);
    return resultSets.get(caller, params.id);
  });

  registerEndpoint(app, w.history, async ({ auth }) => history.list(requireAuth(auth)));
}
