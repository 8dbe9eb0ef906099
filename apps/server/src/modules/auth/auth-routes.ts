import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authEndpoints } from '@kb/contracts/api';
import { PRODUCT_SLUG } from '@kb/contracts/auth';
import { registerEndpoint, requireAuth } from '../../http/endpoint-route.ts';
import { notFound } from '../../http/errors.ts';
import type { AuthService, ClientInfo } from './auth-service.ts';
import { primePasswordCheck } from './passwords.ts';

function clientInfo(request: FastifyRequest): ClientInfo {
  const agent = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: typeof agent === 'string' ? agent.slice(0, 300) : null };
}

function assertProduct(product: string): void {
  if (product !== PRODUCT_SLUG) throw notFound(`Unknown product "${product}".`);
}

/** Per-address ceiling on login calls, before any password hashing: argon2 is deliberately costly. */
const LOGIN_RATE = { max: 60, timeWindow: '1 minute' } as const;

export function registerAuthRoutes(app: FastifyInstance, auth: AuthService): void {
  // Public calls that hash passwords or send mail get the per-address ceiling.
  const limited = { rateLimit: LOGIN_RATE };
  registerEndpoint(
    app,
    authEndpoints.generateToken,
    async ({ params, body, request }) => {
      assertProduct(params.product);
      return auth.login(body, clientInfo(request));
    },
    limited,
  );
  registerEndpoint(app, authEndpoints.register, async ({ body, request }) => auth.register(body, clientInfo(request)), limited);
  registerEndpoint(
    app,
    authEndpoints.forgotPassword,
    async ({ body, request }) => auth.forgotPassword(body.email, clientInfo(request)),
    limited,
  );
  registerEndpoint(
    app,
    authEndpoints.verifySetPassword,
    async ({ params, body, request }) => auth.setPasswordFromLink(params.code, body.password, clientInfo(request)),
    limited,
  );

  registerEndpoint(app, authEndpoints.regenerateToken, async ({ params, auth: caller }) => {
    assertProduct(params.product);
    return auth.regenerate(requireAuth(caller));
  });
  registerEndpoint(app, authEndpoints.webApiLogin, async ({ auth: caller }) => auth.regenerate(requireAuth(caller)));
  registerEndpoint(app, authEndpoints.verifyInfo, async ({ params }) => auth.verifyInfo(params.code));
  registerEndpoint(
    app,
    authEndpoints.changePassword,
    async ({ body, auth: caller, request }) => auth.changePassword(requireAuth(caller), body, clientInfo(request)),
    limited,
  );

  // The first login of an unknown address must not take longer than later ones (the dummy hash).
  primePasswordCheck();
}
