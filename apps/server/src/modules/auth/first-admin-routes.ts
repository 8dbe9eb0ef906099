import type { FastifyInstance } from 'fastify';
import { setupEndpoints } from '@kb/contracts/setup';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import type { FirstAdminSetup } from './first-admin.ts';

/** Per-address ceiling: the token has 192 random bits, and the call hashes a password. */
const SETUP_RATE = { max: 20, timeWindow: '1 minute' } as const;
const STATUS_RATE = { max: 60, timeWindow: '1 minute' } as const;

/** The set-up calls of contracts setup.ts. */
export function registerFirstAdminRoutes(app: FastifyInstance, setup: FirstAdminSetup): void {
  // Public and unauthenticated: limited per address too (its answer is also kept a few seconds).
  registerEndpoint(app, setupEndpoints.status, async () => setup.status(), { rateLimit: STATUS_RATE });
  registerEndpoint(
    app,
    setupEndpoints.createFirstSuperAdmin,
    async ({ body, request }) => {
      const agent = request.headers['user-agent'];
      return setup.createFirstSuperAdmin(body, {
        ip: request.ip ?? null,
        userAgent: typeof agent === 'string' ? agent.slice(0, 300) : null,
      });
    },
    { rateLimit: SETUP_RATE },
  );
}
