import type { z } from 'zod';
import type { Role } from './roles.ts';

/**
 * Who may call an endpoint. `authenticated` is any valid session; a role list means the caller
 * must hold one of those roles. Checked on the server for every request.
 */
export type ApiAccess = 'public' | 'authenticated' | readonly Role[];

/** One API call: the single declaration the server routes from and the web client calls through. */
export interface Endpoint<
  Params extends z.ZodType | undefined = z.ZodType | undefined,
  Query extends z.ZodType | undefined = z.ZodType | undefined,
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Response extends z.ZodType = z.ZodType,
> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Fastify path pattern (`:name` parameters), always under `/api`. */
  path: string;
  access: ApiAccess;
  summary: string;
  params?: Params;
  query?: Query;
  body?: Body;
  response: Response;
  /**
   * Set on the login and second-step calls only: the login confirmation, the second factor's status,
   * enrolment and code check, and logout. They are all an admin's session reaches before it passes
   * the second factor; every other call answers 403 MFA_REQUIRED / MFA_ENROLMENT_REQUIRED to it
   * (ASVS V2.8; server http/auth-hook.ts).
   */
  beforeSecondFactor?: boolean;
  /** False for calls that must not count as user activity (session polling). */
  touchesSession?: boolean;
  /** Largest accepted request body in bytes (default 1 MiB); uploads raise it. */
  bodyLimit?: number;
  /**
   * Set for calls that answer a file (spec "blob response"): its content type. The body is sent
   * as an attachment and `response` describes the text, not JSON.
   */
  responseType?: string;
}

export function defineEndpoint<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType = z.ZodType,
>(endpoint: Endpoint<P, Q, B, R>): Endpoint<P, Q, B, R> {
  return endpoint;
}

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

/** What a caller passes: params, query and body as the endpoint declares them. */
export type EndpointInput<E> =
  E extends Endpoint<infer P, infer Q, infer B, z.ZodType>
    ? (P extends z.ZodType ? { params: Infer<P> } : { params?: undefined }) &
        (Q extends z.ZodType ? { query: Infer<Q> } : { query?: undefined }) &
        (B extends z.ZodType ? { body: Infer<B> } : { body?: undefined })
    : never;

export type EndpointResponse<E> =
  E extends Endpoint<z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined, infer R> ? z.infer<R> : never;

/** Fills `:name` parameters of a path. */
export function buildPath(path: string, params: Record<string, string | number> | undefined): string {
  return path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}
