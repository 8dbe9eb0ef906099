import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiAccess } from '@kb/contracts/endpoint';
import { AUTH_HEADERS } from '@kb/contracts/session';
import type { TokenKind } from '@kb/contracts/session';
import type { Role } from '@kb/contracts/roles';
import { isRole } from '@kb/contracts/roles';
import type { TokenService } from './tokens.ts';
import { HttpError, forbidden, sessionExpired, tokenMissing } from './errors.ts';
import { ADMIN_ROLES } from '@kb/contracts/roles';
import { ERROR_CODES } from '@kb/contracts/errors';
import { withSessionLane } from '../db/db-priority.ts';

/**
 * 403 for any call but the login and code-step ones from an admin's session without the second factor: the code tells
 * the web app whether to ask for a code or to send the admin to enrol (contracts mfa.ts).
 */
function secondFactorMissing(enrolled: boolean): HttpError {
  return enrolled
    ? new HttpError(403, {
        message: 'Your account has administrator roles: enter the code from your authenticator app to finish logging in.',
        code: ERROR_CODES.mfaRequired,
      })
    : new HttpError(403, {
        message: 'Your account has administrator roles: set up an authenticator app on the "Two-step login" page to finish logging in.',
        code: ERROR_CODES.mfaEnrolmentRequired,
      });
}

/** What the session store says about a token's session (sessions/session-repository.ts answers). */
export type SessionCheck =
  | {
      state: 'open';
      userId: number;
      email: string;
      userHashId: string;
      roles: string[];
      lastActivityAt: Date;
      /** The session passed the second factor (admin roles); the account has a confirmed authenticator. */
      secondFactor: { passed: boolean; enrolled: boolean };
    }
  | { state: 'closed' }
  | { state: 'idle' }
  /** Older than the absolute session lifetime (closed now). */
  | { state: 'expired' };

/**
 * The one thing the hook needs from the sessions module. Declared here, where it is used, so that
 * http/ (below every module) does not import a module (docs/architecture.md "Module boundaries").
 */
export interface SessionChecker {
  check(sessionId: string, userId: number, touch: boolean): Promise<SessionCheck>;
}

/** Who is calling: set by the auth hook on every non-public route. */
export interface AuthContext {
  userId: number;
  sessionId: string;
  email: string;
  userHashId: string;
  /** Roles of the user's active subscriptions, read from the database on this request. */
  roles: Role[];
  lastActivityAt: Date;
  /** Whether this session passed the second factor, and whether the account has one (contracts mfa.ts). */
  secondFactor: { passed: boolean; enrolled: boolean };
}

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthContext;
  }
  interface FastifyContextConfig {
    /** Who may call the route; missing means `authenticated` (secure by default). */
    access?: ApiAccess;
    /** False for polling calls that must not count as user activity. */
    touchesSession?: boolean;
    /** The login and second-step calls: the only ones an admin session that has not passed the second factor reaches. */
    beforeSecondFactor?: boolean;
  }
}

function bearer(value: string | string[] | undefined): string | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  const token = raw.replace(/^Bearer\s+/i, '').trim();
  return token.length > 0 ? token : null;
}

/**
 * Checks the session and the role of every request server-side (the web guard is a convenience).
 * Either token identifies the session, each only in its own header (the node token in
 * Authorization, the main token in JavaAuthorization); when both are sent they must name the same
 * one, and an `email` header must match its owner.
 */
export function registerAuthHook(app: FastifyInstance, tokens: TokenService, sessions: SessionChecker): void {
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const config = request.routeOptions.config;
    // Unmatched paths get the not-found answer; files of the web app are public. Any /api route
    // that does not declare its access needs a session: secure by default.
    if (request.is404) return;
    const isApi = (request.routeOptions.url ?? '').startsWith('/api');
    const access: ApiAccess = config.access ?? (isApi ? 'authenticated' : 'public');
    if (access === 'public') return;

    const presented = (
      [
        [bearer(request.headers[AUTH_HEADERS.nodeToken]), 'node'],
        [bearer(request.headers[AUTH_HEADERS.mainToken]), 'main'],
      ] as const
    ).filter((entry): entry is readonly [string, TokenKind] => entry[0] !== null);
    if (presented.length === 0) throw tokenMissing();
    // A token in the other kind's header is refused like a bad one: the kinds are not interchangeable.
    const claims = await Promise.all(presented.map(([token, kind]) => tokens.verify(token, kind)));
    const [first] = claims;
    if (!first || claims.some((c) => c === null || c.sid !== first.sid || c.sub !== first.sub)) throw tokenMissing();

    const emailHeader = request.headers[AUTH_HEADERS.email];
    if (typeof emailHeader === 'string' && emailHeader !== '' && emailHeader.toLowerCase() !== first.email) throw tokenMissing();

    const userId = Number(first.sub);
    const check = await withSessionLane(() => sessions.check(first.sid, userId, config.touchesSession !== false));
    if (check.state === 'idle') throw tokenMissing(true);
    if (check.state === 'closed') throw tokenMissing();
    if (check.state === 'expired') throw sessionExpired();

    const roles = check.roles.filter(isRole);
    // ASVS V2.8, one rule decided here for every call: a session of an account holding an admin
    // role reaches nothing but the login and code-step calls (`beforeSecondFactor`) until it passes
    // the second factor, whatever other roles the account holds. A password alone reads no data.
    if (!config.beforeSecondFactor && !check.secondFactor.passed && roles.some((r) => ADMIN_ROLES.includes(r))) {
      throw secondFactorMissing(check.secondFactor.enrolled);
    }
    request.auth = {
      userId,
      sessionId: first.sid,
      email: check.email,
      userHashId: check.userHashId,
      roles,
      lastActivityAt: check.lastActivityAt,
      secondFactor: check.secondFactor,
    };
    if (access === 'authenticated') return;
    if (roles.some((r) => access.includes(r))) return;
    throw forbidden('Your subscription does not include this. Ask your administrator for access.');
  });
}
