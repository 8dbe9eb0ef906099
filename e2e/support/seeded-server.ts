import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { RunningServer } from './server.ts';
import { RESULTS_DIR, startServer } from './server.ts';

export interface SeededServerOptions {
  /** Demo chunks to seed (1,000 structures, ~11,000 activities each). */
  chunks?: number;
  /** Extra server environment (e.g. a lower SEARCH_ACTIVITY_CAP). */
  env?: Record<string, string>;
}

/**
 * A second server for the specs that search: its own database with a few demo chunks, a copy of
 * the run's prepared one (seeded once per chunk count, server.ts). The shared server of the other
 * specs has no knowledge base.
 */
export function useSeededServer(options: SeededServerOptions = {}): () => RunningServer {
  let server: RunningServer | undefined;
  beforeAll(async () => {
    server = await startServer({
      // Named after the spec: specs run side by side, each with its own server.
      logFile: path.join(RESULTS_DIR, `e2e-seeded-server-${path.basename(expect.getState().testPath ?? 'spec', '.spec.ts')}.log`),
      demoChunks: options.chunks ?? 3,
      ...(options.env ? { env: options.env } : {}),
      healthTimeoutMs: 240_000,
    });
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error('The seeded server is not started yet: call the getter inside a test or hook.');
    return server;
  };
}
