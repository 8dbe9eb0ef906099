import crypto from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { PRODUCT_SLUG } from '@kb/contracts/auth';
import type { LoginResult } from '@kb/contracts/auth';
import { DEMO_PASSWORD } from '@kb/contracts/roles';
import { loadConfig } from '../src/config.ts';
import type { AppConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import type { DatabaseHandle, DatabaseKind } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { buildApp } from '../src/app.ts';
import { seedDemoUsers } from '../src/seed/demo-users.ts';
import { seedDemoKnowledgeBase } from '../src/modules/knowledge-base/demo/demo-seed.ts';

/**
 * The databases every API test runs on: embedded PGlite always, and the PostgreSQL server too when
 * TEST_DATABASE_URL is set (each test app gets its own schema there, so files can run in parallel).
 */
export const DATABASES: DatabaseKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: AppConfig;
  /** `app.inject` with JSON parsing of the answer. */
  call(options: InjectOptions): Promise<LightMyRequestResponse & { data: Record<string, unknown> }>;
  login(email: string, password?: string, ip?: string): Promise<LoginResult>;
  close(): Promise<void>;
}

export interface TestDatabase {
  handle: DatabaseHandle;
  /** Closes the handle and, on a server, drops the private schema. */
  close(): Promise<void>;
}

/** A migrated, empty database of the given kind; on a server inside a private schema. */
export async function openTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const handle = await openDatabase({});
    await migrateToLatest(handle);
    return { handle, close: () => handle.close() };
  }
  const url = process.env.TEST_DATABASE_URL as string;
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE SCHEMA ${schema}`);
  const handle = await openDatabase({ url, schema });
  await migrateToLatest(handle);
  return {
    handle,
    close: async () => {
      await handle.close();
      await run(`DROP SCHEMA ${schema} CASCADE`);
    },
  };
}

export interface StartOptions {
  /** Demo knowledge-base chunks to seed first (1 chunk = 1,000 structures, ~11,000 activities, ~2 s). */
  demoChunks?: number;
}

/** A real server (real database, real argon2, real tokens) answering through `inject`. */
export async function startTestApp(kind: DatabaseKind, env: NodeJS.ProcessEnv = {}, options: StartOptions = {}): Promise<TestApp> {
  const testDb = await openTestDatabase(kind);
  const handle = testDb.handle;
  await seedDemoUsers(handle.db);
  if (options.demoChunks) await seedDemoKnowledgeBase(handle, { size: 'S', maxChunks: options.demoChunks });
  const config = loadConfig({ JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256', SERVER_NAME: 'test', ...env });
  const app = await buildApp({ config, database: handle });
  await app.ready();
  const call: TestApp['call'] = async (options) => {
    const response = await app.inject(options);
    let data: Record<string, unknown> = {};
    try {
      data = response.body ? (JSON.parse(response.body) as Record<string, unknown>) : {};
    } catch {
      data = {};
    }
    return Object.assign(response, { data });
  };
  return {
    app,
    database: handle,
    config,
    call,
    async login(email, password = DEMO_PASSWORD, ip) {
      const response = await call({
        method: 'POST',
        url: `/api/pub/${PRODUCT_SLUG}/generate-token`,
        payload: { username: email, password },
        ...(ip ? { remoteAddress: ip } : {}),
      });
      if (response.statusCode !== 200) throw new Error(`login ${email} failed: ${response.statusCode} ${response.body}`);
      return response.data as unknown as LoginResult;
    },
    async close() {
      await app.close();
      await testDb.close();
    },
  };
}

/** Both base-A headers of spec §7 for a login. */
export function authHeaders(login: LoginResult): Record<string, string> {
  return {
    authorization: `Bearer ${login.nodeToken}`,
    javaauthorization: `Bearer ${login.token}`,
    email: login.username,
    'x-custom-token': login.userHashId,
  };
}
