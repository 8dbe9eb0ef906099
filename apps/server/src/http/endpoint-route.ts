import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ApiAccess, Endpoint } from '@kb/contracts/endpoint';
import { ApiErrorSchema } from '@kb/contracts/errors';
import { workClassOf } from '@kb/contracts/work-classes';
import type { AuthContext } from './auth-hook.ts';
import { withDbPriority, withInteractiveScope } from '../db/db-priority.ts';
import type { Admission } from './admission.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Turns for heavy calls (http/admission.ts); set before any endpoint is registered. */
    admission: Admission;
  }
}

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

export interface HandlerContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** Set on every non-public endpoint (the auth hook ran); null on public ones. */
  auth: AuthContext | null;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** The caller of a non-public endpoint; throws if used on a public one (a programming error). */
export function requireAuth(auth: AuthContext | null): AuthContext {
  if (!auth) throw new Error('requireAuth on a public endpoint');
  return auth;
}

/** Aborted when the client goes away before the answer is sent (a newer preview, a closed panel, a cancelled batch): its work stops. */
export function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

const errorResponses = {
  400: ApiErrorSchema,
  401: ApiErrorSchema,
  402: ApiErrorSchema,
  403: ApiErrorSchema,
  404: ApiErrorSchema,
  409: ApiErrorSchema,
  410: ApiErrorSchema,
  413: ApiErrorSchema,
  429: ApiErrorSchema,
};

/**
 * Registers one endpoint of the contract: path, validation, serialisation, OpenAPI and the access
 * rule all come from its declaration, so the server cannot drift from what the web client calls.
 */
export function registerEndpoint<
  P extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  B extends z.ZodType | undefined,
  R extends z.ZodType,
>(
  app: FastifyInstance,
  endpoint: Endpoint<P, Q, B, R>,
  handler: (ctx: HandlerContext<Infer<P>, Infer<Q>, Infer<B>>) => Promise<z.infer<R>>,
  /** Extra route config, e.g. `{ rateLimit }` for @fastify/rate-limit (it reads it when the route is added). */
  routeConfig: Record<string, unknown> = {},
): void {
  addRoute(app, endpoint, handler, routeConfig);
}

/**
 * Registers an endpoint that answers a stored file as a stream (`responseType` set): the handler
 * sets the reply's headers and returns the bytes, which Fastify pipes out as they are read.
 */
export function registerFileEndpoint<
  P extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  B extends z.ZodType | undefined,
  R extends z.ZodType,
>(
  app: FastifyInstance,
  endpoint: Endpoint<P, Q, B, R>,
  handler: (ctx: HandlerContext<Infer<P>, Infer<Q>, Infer<B>>) => Promise<Readable>,
): void {
  if (!endpoint.responseType) throw new Error(`${endpoint.path} answers JSON: register it with registerEndpoint`);
  addRoute(app, endpoint, handler, {});
}

function addRoute<
  P extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  B extends z.ZodType | undefined,
  R extends z.ZodType,
  A,
>(
  app: FastifyInstance,
  endpoint: Endpoint<P, Q, B, R>,
  handler: (ctx: HandlerContext<Infer<P>, Infer<Q>, Infer<B>>) => Promise<A>,
  routeConfig: Record<string, unknown>,
): void {
  const workClass = workClassOf(endpoint);
  // Zod does the validation (validatorCompiler); the handler's types come from the endpoint itself.
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    schema: {
      summary: endpoint.summary,
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      // File answers (responseType) are sent as they are, not through the JSON serialiser.
      response: endpoint.responseType ? errorResponses : { 200: endpoint.response, ...errorResponses },
    },
    ...(endpoint.bodyLimit ? { bodyLimit: endpoint.bodyLimit } : {}),
    config: {
      ...routeConfig,
      access: endpoint.access,
      touchesSession: endpoint.touchesSession ?? true,
      beforeSecondFactor: endpoint.beforeSecondFactor === true,
    },
    handler: async (request, reply) => {
      const run = () =>
        handler({
          params: request.params as Infer<P>,
          query: request.query as Infer<Q>,
          body: request.body as Infer<B>,
          auth: request.auth ?? null,
          request,
          reply,
        });
      // Short calls run as one interactive scope: bulk work waits while they use the embedded database.
      // Public calls (login, health) and the second-factor step take the session lane on a server.
      if (!workClass || !request.auth) return withInteractiveScope(run, sessionLaneCall(endpoint) ? 'session' : undefined);
      return admitted(request, reply, workClass, request.auth.userId, run);
    },
  });
}

/** Calls made before or while a session is established, which must answer however busy pages are. */
function sessionLaneCall(endpoint: { access: ApiAccess; beforeSecondFactor?: boolean }): boolean {
  return endpoint.access === 'public' || endpoint.beforeSecondFactor === true;
}

/**
 * The four calls of one search (its count and three log calls, spec §4) share one turn: they
 * name the same session and criteria. Any other heavy call takes a turn of its own.
 */
function shareOf(workClass: string, request: FastifyRequest): string | null {
  if (workClass !== 'search' || request.url.includes('/newsearchby/')) return null;
  const body = request.body as { sessionid?: unknown; searchcriteria?: unknown; searchpostobject?: unknown } | undefined;
  if (typeof body?.sessionid !== 'string') return null;
  const criteria = JSON.stringify(body.searchcriteria ?? body.searchpostobject ?? null);
  return `${body.sessionid}:${crypto.createHash('sha256').update(criteria).digest('base64url')}`;
}

/**
 * A heavy call waits for its turn (the calls of one search session share one), then runs with
 * bulk priority on the database; a caller who goes away while waiting leaves the line.
 */
async function admitted<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  workClass: NonNullable<ReturnType<typeof workClassOf>>,
  userId: number,
  run: () => Promise<T>,
): Promise<T> {
  const gone = new AbortController();
  // (request.raw is destroyed once its body is read: the connection is what tells a caller gone.)
  if (reply.raw.destroyed || request.raw.socket?.destroyed) gone.abort();
  else reply.raw.once('close', () => gone.abort());
  const release = await request.server.admission.enter(workClass, userId, shareOf(workClass, request), gone.signal);
  try {
    return await withDbPriority('bulk', run);
  } finally {
    release();
  }
}
