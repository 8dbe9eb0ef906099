import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PRODUCT_SLUG } from '@kb/contracts/auth';
import { DEMO_PASSWORD } from '@kb/contracts/roles';
import { AUTH_HEADERS } from '@kb/contracts/session';
import { REPO_ROOT, freePort } from '../../../../../e2e/support/server.ts';

/**
 * The real server as a child process on a data directory (or database) that outlives it, so a
 * test can `kill -9` it and start it again on the same data. It starts through the browser suite's
 * entry (e2e/support/server-main.ts: `E2E_DEMO_CHUNKS` seeds demo data first).
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

function tail(file: string, lines = 30): string {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n') : '(no output)';
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  fs.mkdirSync(path.dirname(options.logFile), { recursive: true });
  const log = fs.openSync(options.logFile, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'e2e/support/server-main.ts')], {
    cwd: REPO_ROOT,
    stdio: ['ignore', log, log],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      DATABASE_URL: options.databaseUrl,
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
  fs.closeSync(log);
  const deadline = Date.now() + (options.healthTimeoutMs ?? 120_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`The server exited before answering /api/health:\n${tail(options.logFile)}`);
    try {
      if ((await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2_000) })).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The server did not answer /api/health in time:\n${tail(options.logFile)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    baseUrl,
    async kill9() {
      const done = exited(child);
      child.kill('SIGKILL');
      await done;
    },
    async stop() {
      const done = exited(child);
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await done;
      clearTimeout(timer);
    },
  };
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
