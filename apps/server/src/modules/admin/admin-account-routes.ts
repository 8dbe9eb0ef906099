import type { FastifyInstance } from 'fastify';
import { adminAccountEndpoints } from '@kb/contracts/api';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import type { AdminDeps } from './admin-context.ts';
import { clientOf } from './admin-context.ts';
import { auditActor } from '../audit/audit-log.ts';
import { changeUserCredits, userLedger } from './credit-admin.ts';
import { createOrganisation, listOrganisations, updateOrganisation } from './organisations.ts';
import { endSubscription, grantSubscription, updateSubscription } from './subscriptions.ts';
import { importUsers } from './user-import.ts';
import { adminUser, listUsers } from './user-queries.ts';
import { createUser, updateUser, userAction } from './users.ts';

/**
 * Account administration (`/admin/subscriptions`, GOSTAR_ADMIN; contract admin-accounts.ts). The
 * access rule is the endpoint's; each change writes its audit row with the caller and address.
 */
export function registerAdminAccountRoutes(app: FastifyInstance, deps: AdminDeps): void {
  const e = adminAccountEndpoints;
  registerEndpoint(app, e.organisations, async ({ query }) => listOrganisations(deps.db, query));
  registerEndpoint(app, e.createOrganisation, async ({ body, request }) => createOrganisation(deps.db, auditActor(request), body));
  registerEndpoint(app, e.updateOrganisation, async ({ params, body, request }) =>
    updateOrganisation(deps.db, auditActor(request), params.organisationId, body),
  );

  registerEndpoint(app, e.users, async ({ query }) => listUsers(deps, query));
  registerEndpoint(app, e.user, async ({ params }) => adminUser(deps, params.userId));
  registerEndpoint(app, e.createUser, async ({ body, request }) => createUser(deps, auditActor(request), clientOf(request), body));
  registerEndpoint(app, e.updateUser, async ({ params, body, request }) => updateUser(deps, auditActor(request), params.userId, body));
  registerEndpoint(app, e.userAction, async ({ params, body, request }) =>
    userAction(deps, auditActor(request), clientOf(request), params.userId, body),
  );
  registerEndpoint(app, e.importUsers, async ({ body, request }) => importUsers(deps, auditActor(request), clientOf(request), body));

  registerEndpoint(app, e.grantSubscription, async ({ params, body, request }) =>
    grantSubscription(deps, auditActor(request), params.userId, body),
  );
  registerEndpoint(app, e.updateSubscription, async ({ params, body, request }) =>
    updateSubscription(deps, auditActor(request), params.subscriptionId, body),
  );
  registerEndpoint(app, e.endSubscription, async ({ params, body, request }) =>
    endSubscription(deps, auditActor(request), params.subscriptionId, body.reason),
  );

  registerEndpoint(app, e.credits, async ({ params, query }) => userLedger(deps, params.userId, query.page, query.pageSize));
  registerEndpoint(app, e.changeCredits, async ({ params, body, request }) =>
    changeUserCredits(deps, auditActor(request), params.userId, body),
  );
}
