import { inject } from 'vitest';

/**
 * How many spec files run at once (`E2E_WORKERS`, default below): e2e/vitest.config.ts gives vitest
 * that many workers and the global setup starts that many shared servers, one per worker, so that
 * specs running side by side never share a server's state (login limits, sessions, authenticators).
 */
export const E2E_WORKERS = workerCount(process.env.E2E_WORKERS);

function workerCount(value: string | undefined): number {
  if (!value?.trim()) return 2;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1 || count > 8)
    throw new Error(`E2E_WORKERS must be a whole number from 1 to 8, not "${value}".`);
  return count;
}

export interface SharedServer {
  /** Origin of the server, e.g. `http://localhost:41234`. */
  baseUrl: string;
  /** The server's log (pino JSON lines); e-mails are read from it. */
  serverLog: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared servers of the run, one per worker (global-setup.ts). */
    sharedServers: SharedServer[];
  }
}

/** This worker's shared server: the specs it runs, one after another, use it and no other worker does. */
export function sharedServer(): SharedServer {
  const servers = inject('sharedServers');
  // vitest numbers its workers from 1 (VITEST_POOL_ID); one server per worker.
  const worker = Number.parseInt(process.env.VITEST_POOL_ID ?? '1', 10);
  const server = servers[(Math.max(1, worker) - 1) % servers.length];
  if (!server) throw new Error('No shared server was started: run the browser tests through `npm run test:e2e`.');
  return server;
}
