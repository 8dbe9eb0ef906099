import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { authEndpoints, dashboardEndpoints } from '@kb/contracts/api';
import { IDLE_TIMEOUT_MS } from '@kb/contracts/session';
import type { Database } from '../../db/schema.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import { registerEndpoint, requireAuth } from '../../http/endpoint-route.ts';
import { badRequest, forbidden, notFound } from '../../http/errors.ts';
import type { TokenService } from '../../http/tokens.ts';
import type { SessionRepository } from './session-repository.ts';
import type { SearchService } from '../search/search-service.ts';

/** A body's user_id must be the caller: one user never acts on another's sessions. */
function assertSelf(auth: AuthContext, userId: number): void {
  if (auth.userId !== userId) throw forbidden('You may only act on your own sessions.');
}

export function registerSessionRoutes(
  app: FastifyInstance,
  db: Kysely<Database>,
  sessions: SessionRepository,
  tokens: TokenService,
  searches: SearchService,
): void {
  registerEndpoint(app, authEndpoints.validateSession, async ({ auth: caller, request }) => {
    const auth = requireAuth(caller);
    const header = request.headers.authorization ?? request.headers.javaauthorization;
    const claims = typeof header === 'string' ? await tokens.verify(header.replace(/^Bearer\s+/i, '')) : null;
    return {
      valid: true as const,
      sessionId: auth.sessionId,
      userId: auth.userId,
      lastActivityAt: auth.lastActivityAt.toISOString(),
      idleTimeoutMs: IDLE_TIMEOUT_MS,
      tokenExpiresAt: new Date((claims?.exp ?? 0) * 1000).toISOString(),
    };
  });

  registerEndpoint(app, authEndpoints.closeSession, async ({ body, auth: caller }) => {
    const auth = requireAuth(caller);
    const sessionId = body.sessionid ?? auth.sessionId;
    const owner = await sessions.ownerOf(sessionId);
    if (owner === null) throw notFound('No such session.');
    assertSelf(auth, owner);
    return { closed: await sessions.close(sessionId, body.reason ?? 'closed') };
  });

  registerEndpoint(app, authEndpoints.lastSessionTime, async ({ auth: caller }) => {
    const auth = requireAuth(caller);
    const previous = await sessions.previousSessionEnd(auth.userId, auth.sessionId);
    return {
      lastActivityAt: auth.lastActivityAt.toISOString(),
      previousSessionEndedAt: previous?.toISOString() ?? null,
      serverTime: new Date().toISOString(),
      idleTimeoutMs: IDLE_TIMEOUT_MS,
    };
  });

  registerEndpoint(app, dashboardEndpoints.logout, async ({ body, auth: caller }) => {
    const auth = requireAuth(caller);
    assertSelf(auth, body.user_id);
    const owner = await sessions.ownerOf(body.sessionid);
    if (owner === null) throw notFound('No such session.');
    assertSelf(auth, owner);
    return { closed: await sessions.close(body.sessionid, 'logout') };
  });

  registerEndpoint(app, dashboardEndpoints.closeAllSessions, async ({ body, auth: caller }) => {
    const auth = requireAuth(caller);
    assertSelf(auth, body.user_id);
    // The session kept must be one of the caller's open ones: any other id would close them all,
    // the caller's own included.
    if (!(await sessions.isOpenSessionOf(body.sessionid, auth.userId))) {
      throw badRequest(
        'The session to keep (sessionid) is not one of your open sessions, so nothing was closed. Send the id of your current session.',
        {
          field: 'sessionid',
        },
      );
    }
    return { closed: await sessions.closeOthers(auth.userId, body.sessionid, 'closed_by_user') };
  });

  registerEndpoint(app, dashboardEndpoints.dropUnloggedTables, async ({ body, auth: caller }) => {
    const auth = requireAuth(caller);
    const search = await db
      .selectFrom('search_sessions')
      .select(['user_id', 'set_id', 'status'])
      .where('id', '=', body.sessionid)
      .executeTakeFirst();
    if (!search) return { dropped: 0 };
    assertSelf(auth, search.user_id);
    if (search.status === 'dropped' || search.status === 'expired') return { dropped: 0 };
    // The sets go; the session row stays as a recent search (modules/search).
    await searches.dropSets(search.set_id, body.sessionid);
    return { dropped: 1 };
  });
}
