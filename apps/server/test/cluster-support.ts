import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { PRODUCT_SLUG } from '@kb/contracts/auth';
import type { LoginResult } from '@kb/contracts/auth';
import { DEMO_PASSWORD } from '@kb/contracts/roles';
import { AUTH_HEADERS } from '@kb/contracts/session';
import { spawnServer } from './server-process.ts';

/**
 * Several real server processes on one PostgreSQL database (docs/scaling.md): what the cluster
 * test and `npm run bench -- cluster` share. Each server is `node --import tsx
 * e2e/support/server-main.ts` (the real main.ts; its own command line so that a developer's
 * `pkill -f main.ts` leaves it alone), reached over HTTP like behind a load balancer.
 */

/** The response header naming the server instance that answered (app.ts). */
export const INSTANCE_HEADER = 'x-kb-instance';

export interface ClusterDatabase {
  /** URL of the fresh database. */
  url: string;
  /** Name of the database on the server. */
  name: string;
  query<T extends pg.QueryResultRow = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  /** Drops the database (FORCE: servers still connected are cut off). */
  drop(): Promise<void>;
}

async function runOn(url: string, text: string, values?: unknown[]): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

/** A database URL on the same server with another database name. */
export function withDatabase(url: string, name: string): string {
  const other = new URL(url);
  other.pathname = `/${name}`;
  return other.toString();
}

/**
 * A fresh database on the server of `serverUrl` (the servers migrate it on start). `name` is
 * created when missing and kept as it is when present (a bench re-using its seeded database).
 */
export async function createClusterDatabase(
  serverUrl: string,
  name = `kb_cluster_${crypto.randomBytes(5).toString('hex')}`,
): Promise<ClusterDatabase & { created: boolean }> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a plain database name: ${name}`);
  const admin = withDatabase(serverUrl, 'postgres');
  const exists = (await runOn(admin, 'SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount;
  if (!exists) await runOn(admin, `CREATE DATABASE ${name}`);
  const url = withDatabase(serverUrl, name);
  return {
    url,
    name,
    created: !exists,
    query: async <T extends pg.QueryResultRow>(text: string, values?: unknown[]) => (await runOn(url, text, values)).rows as T[],
    drop: async () => {
      await runOn(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

export interface ClusterServer {
  baseUrl: string;
  port: number;
  /** The server's process id (the bench reads its CPU time). */
  pid: number;
  /** The `x-kb-instance` this process answers with. */
  instance: string;
  logFile: string;
  /** SIGTERM (the export loop puts its job back), SIGKILL after 10 s. */
  stop(): Promise<void>;
}

export interface ClusterServerOptions {
  databaseUrl: string;
  /** Where stdout and stderr go (also DATA_DIR's parent: each server gets its own data dir). */
  logFile: string;
  env?: Record<string, string>;
  healthTimeoutMs?: number;
}

/**
 * One server process on `databaseUrl`, answering `/api/health`. No JWT_SECRET and no MFA key are
 * given: the servers must agree through the secrets the first of them keeps in the database.
 */
export async function startClusterServer(options: ClusterServerOptions): Promise<ClusterServer> {
  const dataDir = `${options.logFile}.data`;
  fs.mkdirSync(dataDir, { recursive: true });
  const server = await spawnServer({
    dataDir,
    databaseUrl: options.databaseUrl,
    logFile: options.logFile,
    appendLog: true,
    healthTimeoutMs: options.healthTimeoutMs ?? 180_000,
    // Up once it names its instance (the header a load balancer's client sees).
    isUp: (health) => health.ok && Boolean(health.headers.get(INSTANCE_HEADER)),
    env: {
      JWT_SECRET: '',
      MFA_SECRET_KEY: '',
      SEED_DEMO: 'true',
      DEMO_DATA_SIZE: 'none',
      WEB_DIST: path.join(dataDir, 'no-web'),
      LOG_LEVEL: 'warn',
      E2E_DEMO_CHUNKS: '0',
      ...options.env,
    },
  });
  const instance = server.health.headers.get(INSTANCE_HEADER) ?? '';
  return { baseUrl: server.baseUrl, port: server.port, pid: server.pid, instance, logFile: options.logFile, stop: server.stop };
}

export interface Answer {
  status: number;
  data: Record<string, unknown>;
  /** The body as text (file downloads). */
  text: string;
  /** Which server instance answered (`x-kb-instance`). */
  instance: string | null;
}

/**
 * A logged-in user calling any server of the cluster: `call(base, …)` sends the same tokens to
 * whichever server is named, as a load balancer would.
 */
export class ClusterUser {
  constructor(
    readonly login: LoginResult,
    readonly email: string,
  ) {}

  static async logIn(baseUrl: string, email: string): Promise<ClusterUser & { loginInstance: string | null }> {
    const answer = await request(
      baseUrl,
      'POST',
      `/api/pub/${PRODUCT_SLUG}/generate-token`,
      {},
      { username: email, password: DEMO_PASSWORD },
    );
    if (answer.status !== 200) throw new Error(`Logging in ${email} failed: ${answer.status} ${answer.text.slice(0, 300)}`);
    return Object.assign(new ClusterUser(answer.data as unknown as LoginResult, email), { loginInstance: answer.instance });
  }

  get headers(): Record<string, string> {
    return {
      [AUTH_HEADERS.mainToken]: `Bearer ${this.login.token}`,
      [AUTH_HEADERS.nodeToken]: `Bearer ${this.login.nodeToken}`,
      [AUTH_HEADERS.email]: this.email,
    };
  }

  call(baseUrl: string, method: 'GET' | 'POST', url: string, body?: unknown): Promise<Answer> {
    return request(baseUrl, method, url, this.headers, body);
  }
}

export async function request(
  baseUrl: string,
  method: 'GET' | 'POST',
  url: string,
  headers: Record<string, string>,
  body?: unknown,
  timeoutMs = 120_000,
): Promise<Answer> {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  let data: Record<string, unknown> = {};
  if (response.headers.get('content-type')?.includes('json')) {
    try {
      data = JSON.parse(text) as Record<string, unknown>;
    } catch {
      data = {};
    }
  }
  return { status: response.status, data, text, instance: response.headers.get(INSTANCE_HEADER) };
}
