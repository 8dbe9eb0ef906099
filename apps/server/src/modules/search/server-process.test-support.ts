import path from 'node:path';
import { PRODUCT_SLUG } from '@kb/contracts/auth';
import { DEMO_PASSWORD } from '@kb/contracts/roles';
import { AUTH_HEADERS } from '@kb/contracts/session';
import { spawnServer } from '../../../test/server-process.ts';

/**
 * The real server as a child process on a data directory (or database) that outlives it, so a
 * test can `kill -9` it and start it again on the same data (test/server-process.ts starts it;
 * `E2E_DEMO_CHUNKS` in `env` seeds demo data first, e2e/support/server-main.ts).
 */
export interface ServerProcess {
  baseUrl: string;
  /** SIGKILL: no shutdown hook runs, the database is left as the crash left it. */
  kill9(): Promise<void>;
  /** SIGTERM, as an operator stops it. */
  stop(): Promise<void>;
}

export interface ServerProcessOptions {
  dataDir: string;
  /** A PostgreSQL URL; empty for embedded PGlite in `${dataDir}/db`. */
  databaseUrl: string;
  logFile: string;
  env?: Record<string, string>;
  healthTimeoutMs?: number;
}

export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const server = await spawnServer({
    dataDir: options.dataDir,
    databaseUrl: options.databaseUrl,
    logFile: options.logFile,
    appendLog: true,
    ...(options.healthTimeoutMs ? { healthTimeoutMs: options.healthTimeoutMs } : {}),
    env: {
      SEED_DEMO: 'true',
      DEMO_DATA_SIZE: 'none',
      // Fixed across restarts: tokens issued before a crash stay valid after it.
      JWT_SECRET: 'crash-recovery-test-secret-long-enough-for-hs256',
      WEB_DIST: path.join(options.dataDir, 'no-web'),
      CHEM_WORKERS: '1',
      LOG_LEVEL: 'warn',
      E2E_DEMO_CHUNKS: '0',
      ...options.env,
    },
  });
  return { baseUrl: server.baseUrl, kill9: server.kill9, stop: server.stop };
}

export interface ApiAnswer {
  status: number;
  data: Record<string, unknown>;
}

/** A logged-in caller of a running server; answers carry their status (403s are what some tests want). */
export class ApiCaller {
  constructor(
    public baseUrl: string,
    private readonly headers: Record<string, string>,
  ) {}

  static async login(baseUrl: string, email: string): Promise<ApiCaller> {
    const response = await fetch(`${baseUrl}/api/pub/${PRODUCT_SLUG}/generate-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: email, password: DEMO_PASSWORD }),
    });
    if (!response.ok) throw new Error(`Logging in ${email} failed: ${response.status} ${await response.text()}`);
    const login = (await response.json()) as { token: string; nodeToken: string };
    return new ApiCaller(baseUrl, {
      [AUTH_HEADERS.mainToken]: `Bearer ${login.token}`,
      [AUTH_HEADERS.nodeToken]: `Bearer ${login.nodeToken}`,
      [AUTH_HEADERS.email]: email,
    });
  }

  async call(method: 'GET' | 'POST', url: string, body?: unknown, timeoutMs = 90_000): Promise<ApiAnswer> {
    const response = await fetch(`${this.baseUrl}${url}`, {
      method,
      headers: { ...this.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    let data: Record<string, unknown> = {};
    try {
      data = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      data = { text };
    }
    return { status: response.status, data };
  }

  post(url: string, body: unknown = {}): Promise<ApiAnswer> {
    return this.call('POST', url, body);
  }

  get(url: string): Promise<ApiAnswer> {
    return this.call('GET', url);
  }
}
