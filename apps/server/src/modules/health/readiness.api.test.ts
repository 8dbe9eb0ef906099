import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReadinessResponseSchema } from '@kb/contracts/health';
import { ONE_DATABASE, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { startServerProcess } from '../search/server-process.test-support.ts';
import type { ServerProcess } from '../search/server-process.test-support.ts';

describe.each(ONE_DATABASE)('GET /api/health/ready on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  }, 120_000);
  afterAll(() => t?.close());

  it('answers 503 while a part warms and 200 once it is done, without a session', async () => {
    let finish!: () => void;
    t.app.services.readiness.track('search columns', new Promise<void>((resolve) => (finish = resolve)));
    const warming = await t.call({ method: 'GET', url: '/api/health/ready' });
    expect(warming.statusCode).toBe(503);
    expect(ReadinessResponseSchema.parse(warming.data)).toMatchObject({
      ready: false,
      parts: [{ name: 'search columns', state: 'warming' }],
    });
    finish();
    await new Promise((resolve) => setImmediate(resolve));
    const ready = await t.call({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ReadinessResponseSchema.parse(ready.data)).toMatchObject({ ready: true, parts: [{ name: 'search columns', state: 'ready' }] });
  });
});

/**
 * The real server (main.ts registers the parts), on PGlite: what it waits for does not depend on
 * the database. A thousand demo structures in 4-structure shards make the structure index and its
 * fragments take a while, so the first answers are usually 503s; each answer must agree with itself.
 */
describe('readiness of a real server start', () => {
  let dataDir: string;
  let server: ServerProcess | null = null;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-ready-'));
    server = await startServerProcess({
      dataDir,
      databaseUrl: '',
      logFile: path.join(dataDir, 'server.log'),
      env: { CHEM_SHARD_SIZE: '4', E2E_DEMO_CHUNKS: '1' },
    });
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('names what it prepares, and is ready once the structure index has its fragments', async () => {
    const baseUrl = server?.baseUrl ?? '';
    const deadline = Date.now() + 120_000;
    let last: { status: number; body: ReturnType<typeof ReadinessResponseSchema.parse> } | null = null;
    while (Date.now() < deadline) {
      const response = await fetch(`${baseUrl}/api/health/ready`);
      const body = ReadinessResponseSchema.parse(await response.json());
      expect(response.status).toBe(body.ready ? 200 : 503);
      expect(body.ready).toBe(body.parts.every((part) => part.state !== 'warming'));
      last = { status: response.status, body };
      if (body.ready) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(last?.status).toBe(200);
    expect(last?.body.parts.map((part) => part.name).sort()).toEqual([
      'chart dictionaries',
      'demo data',
      'search columns',
      'structure index',
      'target prediction',
    ]);
    expect(last?.body.parts.every((part) => part.state === 'ready')).toBe(true);
    const engine = await fetch(`${baseUrl}/api/health`);
    expect(engine.status).toBe(200);
  }, 150_000);
});
