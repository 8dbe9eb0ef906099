import type { FastifyInstance } from 'fastify';
import { treeEndpoints } from '@kb/contracts/trees';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import type { TreeService } from './tree-service.ts';

/** Registers the trees endpoints of the contract (packages/contracts/src/trees.ts). */
export function registerTreeRoutes(app: FastifyInstance, trees: TreeService): void {
  registerEndpoint(app, treeEndpoints.children, ({ params }) => trees.children(params.tree, params.id));
  registerEndpoint(app, treeEndpoints.adme, ({ params }) => trees.children('adme', params.id));
  registerEndpoint(app, treeEndpoints.toxicity, ({ params }) => trees.children('toxicity', params.id));
  registerEndpoint(app, treeEndpoints.search, async ({ params, query }) => ({
    items: await trees.search(params.tree, query.term, query.limit),
  }));
  registerEndpoint(app, treeEndpoints.byNameList, ({ params, body }) => trees.byNameList(params.tree, body.names));
}
