import type { FastifyInstance } from 'fastify';
import { mfaEndpoints } from '@kb/contracts/api';
import { registerEndpoint, requireAuth } from '../../http/endpoint-route.ts';
import type { MfaService } from './mfa-service.ts';

/** Wrong codes are counted per account in the database; this per-address ceiling comes on top. */
const CODE_RATE = { max: 30, timeWindow: '1 minute' } as const;

/** The second-factor calls of contracts mfa.ts (access, and the second-step exemption, come from the contract). */
export function registerMfaRoutes(app: FastifyInstance, mfa: MfaService): void {
  const limited = { rateLimit: CODE_RATE };
  registerEndpoint(app, mfaEndpoints.status, async ({ auth }) => mfa.status(requireAuth(auth)));
  registerEndpoint(app, mfaEndpoints.enrolStart, async ({ auth }) => mfa.startEnrolment(requireAuth(auth)), limited);
  registerEndpoint(
    app,
    mfaEndpoints.enrolConfirm,
    async ({ auth, body, request }) => mfa.confirmEnrolment(requireAuth(auth), body.code, request.ip ?? null),
    limited,
  );
  registerEndpoint(
    app,
    mfaEndpoints.verify,
    async ({ auth, body, request }) => mfa.verify(requireAuth(auth), body.code, request.ip ?? null),
    limited,
  );
  registerEndpoint(
    app,
    mfaEndpoints.regenerateRecoveryCodes,
    async ({ auth, body, request }) => mfa.regenerateRecoveryCodes(requireAuth(auth), body.code, request.ip ?? null),
    limited,
  );
  registerEndpoint(app, mfaEndpoints.reset, async ({ auth, params, request }) =>
    mfa.reset(requireAuth(auth), request.ip ?? null, params.userId),
  );
}
