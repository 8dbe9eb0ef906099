import type { FastifyInstance } from 'fastify';
import { systemEndpoints } from '@kb/contracts/api';
import type { DatabaseKind } from '../../db/database.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import { HttpError } from '../../http/errors.ts';
import type { StartupReadiness } from './readiness.ts';

export interface DatasetSize {
  label: string;
  structures: number;
  activities: number;
}

/** How old a dataset size may be before it is counted again (in the background). */
const SIZE_TTL_MS = 5_000;

/**
 * The latest value of `read`, refreshed in the background once it is older than `ttlMs`: only the
 * first call waits. Health must answer at once while the database is busy (a load balancer would
 * otherwise take a busy server for a dead one), and counting 20 M activities is not free.
 */
function staleWhileRevalidate<T>(read: () => Promise<T>, ttlMs: number): () => Promise<T> {
  let value: { at: number; data: T } | null = null;
  let refreshing: Promise<T> | null = null;
  const refresh = () => {
    refreshing ??= read()
      .then((data) => {
        value = { at: Date.now(), data };
        return data;
      })
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  };
  return async () => {
    if (!value) return refresh();
    if (Date.now() - value.at > ttlMs) refresh().catch(() => undefined);
    return value.data;
  };
}

/** `sizeOf` is asked again every few seconds: the knowledge base grows while the server runs (imports). */
export function registerHealthRoutes(
  app: FastifyInstance,
  kind: DatabaseKind,
  serverName: string,
  sizeOf: () => Promise<DatasetSize>,
  /** Why the database cannot answer any more, else null (the size above may be an old one). */
  databaseFailure: () => string | null,
  readiness: StartupReadiness,
): void {
  const size = staleWhileRevalidate(sizeOf, SIZE_TTL_MS);
  registerEndpoint(app, systemEndpoints.health, async () => {
    const failure = databaseFailure();
    // A load balancer must see a server whose database is gone as down, not as healthy.
    if (failure) throw new HttpError(503, { message: `The database is not answering: ${failure}`, code: 'UNAVAILABLE' });
    return {
      status: 'ok' as const,
      database: kind,
      dataset: await size(),
      version: '0.1.0',
      server: serverName,
    };
  });
  registerEndpoint(app, systemEndpoints.ready, async ({ reply }) => {
    const report = readiness.report();
    // A lost database outranks warm-up: the balancer must not send users here either way.
    if (databaseFailure() || !report.ready) reply.code(503);
    return report;
  });
}
