import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { superAdminEndpoints } from '@kb/contracts/superadmin';
import type { Database } from '../../db/schema.ts';
import type { DatabaseKind } from '../../db/database.ts';
import { registerEndpoint, requireAuth } from '../../http/endpoint-route.ts';
import type { ChemEngine } from '../chemistry/chem-engine.ts';
import type { Mailer } from '../auth/mailer.ts';
import type { SessionRepository } from '../sessions/session-repository.ts';
import type { AppSettings } from '../settings/app-settings.ts';
import { findUsers, grantAdminRole, listAdminRoles, revokeAdminRole } from './admin-roles.ts';
import { searchAudit } from './audit-search.ts';
import { datasetState } from './dataset-state.ts';
import type { DerivedDataRebuild } from './dataset-state.ts';
import type { MailSetup } from './superadmin-service.ts';
import { closeSession, openSessions, sendTestMail, settingsState, updateSettings } from './superadmin-service.ts';
import { auditActor, recordAudit } from '../audit/audit-log.ts';

export interface SuperAdminModule {
  db: Kysely<Database>;
  kind: DatabaseKind;
  sessions: SessionRepository;
  settings: AppSettings;
  mailer: Mailer;
  mail: MailSetup;
  serverName: string;
  engine: ChemEngine;
  /** The derived-data rebuild of this process (built in services.ts, which waits for it on close). */
  rebuild: DerivedDataRebuild;
}

/** Registers the super-admin endpoints (SUPER_ADMIN only: the endpoint declarations say so). */
export function registerSuperAdminRoutes(app: FastifyInstance, m: SuperAdminModule): void {
  const { db, rebuild } = m;

  registerEndpoint(app, superAdminEndpoints.adminRoles, () => listAdminRoles(db));
  registerEndpoint(app, superAdminEndpoints.findUsers, ({ query }) => findUsers(db, query.q));
  registerEndpoint(app, superAdminEndpoints.grantAdminRole, ({ body, request }) => grantAdminRole(db, auditActor(request), body));
  registerEndpoint(app, superAdminEndpoints.revokeAdminRole, async ({ params, request }) => ({
    message: await revokeAdminRole(db, auditActor(request), params.subscriptionId),
  }));

  registerEndpoint(app, superAdminEndpoints.audit, ({ query }) => searchAudit(db, query));

  registerEndpoint(app, superAdminEndpoints.sessions, ({ query, auth }) => openSessions(db, requireAuth(auth), query));
  registerEndpoint(app, superAdminEndpoints.closeSession, async ({ params, auth, request }) => {
    const caller = requireAuth(auth);
    return { message: await closeSession(db, m.sessions, caller, auditActor(request), params.sessionId) };
  });

  registerEndpoint(app, superAdminEndpoints.dataset, () => datasetState(db, m.kind, m.engine, rebuild));
  registerEndpoint(app, superAdminEndpoints.rebuild, async ({ auth, request }) => {
    const caller = requireAuth(auth);
    // The audit row is committed before the work starts: if it cannot be written, nothing starts.
    return rebuild.start(caller.email, (startedAt) =>
      db.transaction().execute((trx) =>
        recordAudit(trx, auditActor(request), {
          action: 'dataset.rebuild',
          targetType: 'dataset',
          targetId: null,
          targetLabel: 'Derived data (autocomplete terms, tree counts, fingerprints, structure index)',
          after: { startedAt },
        }),
      ),
    );
  });
  registerEndpoint(app, superAdminEndpoints.rebuildStatus, async () => rebuild.status());

  registerEndpoint(app, superAdminEndpoints.settings, () => settingsState(db, m.settings, m.mail));
  registerEndpoint(app, superAdminEndpoints.updateSettings, async ({ body, request }) => {
    await updateSettings(db, m.settings, auditActor(request), body);
    return settingsState(db, m.settings, m.mail);
  });
  registerEndpoint(app, superAdminEndpoints.testMail, async ({ auth }) => ({
    message: await sendTestMail(m.mailer, requireAuth(auth), m.serverName, m.mail),
  }));
}
