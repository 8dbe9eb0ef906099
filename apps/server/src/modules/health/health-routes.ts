import type { FastifyInstance } from 'fastify';
import { systemEndpoints } from '@kb/contracts/api';
import type { DatabaseKind } from '../../db/database.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';

export interface DatasetSize {
  label: string;
  structures: number;
  activities: number;
}

/** `sizeOf` is asked on each call: the knowledge base grows while the server runs (imports). */
export function registerHealthRoutes(app: FastifyInstance, kind: DatabaseKind, serverName: string, sizeOf: () => Promise<DatasetSize>): void {
  registerEndpoint(app, systemEndpoints.health, async () => ({
    status: 'ok' as const,
    database: kind,
    dataset: await sizeOf(),
    version: '0.1.0',
    server: serverName,
  }));
}
