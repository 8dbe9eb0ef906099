import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * The Content Security Policy of every answer (pages, assets, API, Swagger UI at /api/docs).
 * What each source list allows, and who needs it:
 * - scripts only from this origin (no inline scripts, no eval), plus `'wasm-unsafe-eval'` so that
 *   WebAssembly may be compiled (Ketcher's Indigo engine; RDKit runs on the server);
 * - workers only from this origin (Ketcher's Indigo worker is a file of the build);
 * - inline styles: Mantine, ag-grid, Ketcher and Swagger UI write style elements and attributes;
 * - images from `data:` and `blob:` (depictions are shown from blob URLs; Ketcher's toolbar and
 *   exported pictures, Swagger UI's logo); reading a blob URL back (`connect-src blob:`) — blob
 *   URLs are objects this origin's own scripts made, so it opens no way out to another origin;
 * - nothing may frame the app (`frame-ancestors 'none'`: clickjacking), no plugins, forms and
 *   `<base>` only to this origin.
 */
const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
  scriptSrcAttr: ["'none'"],
  workerSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'", 'blob:'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
} as const;

/** The product-analytics agent's hosts (Pendo), when it is configured; null otherwise. */
export interface AnalyticsHosts {
  /** Serves the agent script and its styles and images. */
  agentHost: string;
  /** Receives the agent's events and serves guides. */
  dataHost: string;
}

/**
 * The policy, with the analytics agent's two hosts added only when analytics is configured: the
 * agent script from its host, its events and guide requests to the data host, their images.
 */
function contentSecurityPolicy(analytics: AnalyticsHosts | null): Record<string, string[]> {
  const directives: Record<string, string[]> = Object.fromEntries(
    Object.entries(CONTENT_SECURITY_POLICY).map(([key, list]) => [key, [...list]]),
  );
  if (!analytics) return directives;
  const agent = `https://${analytics.agentHost}`;
  const data = `https://${analytics.dataHost}`;
  directives.scriptSrc!.push(agent);
  directives.styleSrc!.push(agent);
  directives.imgSrc!.push(agent, data);
  directives.connectSrc!.push(data);
  return directives;
}

/**
 * Ketcher's Indigo worker (`/assets/indigoWorker-<hash>.js`): Emscripten's embind builds its
 * function wrappers with `new Function`, so this worker needs `'unsafe-eval'`. A dedicated worker
 * runs under the policy of its own script's answer, so the exception is confined to it: the worker
 * has no DOM, and the pages keep a policy without eval.
 */
const INDIGO_WORKER_PATH = /^\/assets\/indigoWorker-[\w-]+\.js$/;
export const INDIGO_WORKER_POLICY =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval'; connect-src 'self'; object-src 'none'; base-uri 'self'";

/**
 * Security headers (ASVS 4.0.3 V14.4) on every answer through @fastify/helmet: the CSP above,
 * `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer` (password links carry their
 * code in the path), `X-Frame-Options: DENY` for browsers without frame-ancestors, HSTS. API
 * answers are personal (tokens, profiles, results) and get `Cache-Control: no-store` unless the
 * route chose its own caching (structure depictions); files of the web app keep theirs.
 */
export async function registerSecurityHeaders(app: FastifyInstance, analytics: AnalyticsHosts | null = null): Promise<void> {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(analytics) },
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    // The app loads nothing cross-origin; these would only get in the way of a future CDN.
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const pathname = request.url.split('?', 1)[0] ?? '';
    if ((pathname === '/api' || pathname.startsWith('/api/')) && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
    if (INDIGO_WORKER_PATH.test(pathname)) reply.header('content-security-policy', INDIGO_WORKER_POLICY);
    return payload;
  });
}
