import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
export const RESULTS_DIR = path.join(REPO_ROOT, 'test-results');

export interface RunningServer {
  /** Origin the browser uses, e.g. `http://localhost:41234`. */
  baseUrl: string;
  /** File receiving the server's stdout and stderr (pino JSON lines). */
  logFile: string;
  stop: () => Promise<void>;
}

/** Asks the kernel for a free port. Another process could take it before the server binds; rare enough on a CI box. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('No port'))));
    });
  });
}

function tail(file: string, lines = 40): string {
  if (!fs.existsSync(file)) return '(no server output)';
  return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
}

async function waitForHealth(baseUrl: string, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The server exited (${child.exitCode ?? child.signalCode}) before answering /api/health:\n${tail(logFile)}`);
    }
    try {
      const response = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server did not answer /api/health within ${timeoutMs / 1000}s:\n${tail(logFile)}`);
}

/**
 * Starts the real server (`node --import tsx apps/server/src/main.ts`, through server-main.ts) on a free port with a fresh
 * embedded database in a temporary DATA_DIR, so demo users are seeded as on a first start.
 */
export async function startServer(options: { logFile: string; env?: Record<string, string>; healthTimeoutMs?: number }): Promise<RunningServer> {
  const webIndex = path.join(REPO_ROOT, 'apps/web/dist/index.html');
  if (!fs.existsSync(webIndex)) {
    throw new Error(`The web app is not built (${webIndex} is missing). Run the browser tests with \`npm run test:e2e\`, which builds it.`);
  }
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-e2e-'));
  // Serve a snapshot of the build: a rebuild of apps/web/dist during the run (someone developing
  // the web app) would otherwise swap the asset files under the browser's feet.
  const webDist = path.join(dataDir, 'web');
  fs.cpSync(path.dirname(webIndex), webDist, { recursive: true });
  fs.mkdirSync(path.dirname(options.logFile), { recursive: true });
  const log = fs.openSync(options.logFile, 'w');

  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'e2e/support/server-main.ts')], {
    cwd: REPO_ROOT,
    stdio: ['ignore', log, log],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '0.0.0.0',
      DATA_DIR: dataDir,
      // Always the embedded database: the browser suite must not touch a shared PostgreSQL.
      DATABASE_URL: '',
      SEED_DEMO: 'true',
      // The demo knowledge base is not needed for these pages; seeding it would compete for the 2 cores.
      DEMO_DATA_SIZE: 'none',
      JWT_SECRET: crypto.randomBytes(32).toString('base64url'),
      PUBLIC_URL: baseUrl,
      WEB_DIST: webDist,
      // Debug: the mailer writes mail bodies (links) on debug lines only; support/outbox.ts reads them.
      LOG_LEVEL: 'debug',
      ...options.env,
    },
  });
  fs.closeSync(log);
  child.once('exit', (code, signal) => {
    fs.appendFileSync(options.logFile, `[e2e] server process exited: code ${code ?? '-'}, signal ${signal ?? '-'} at ${new Date().toISOString()}\n`);
  });

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForHealth(baseUrl, child, options.logFile, options.healthTimeoutMs ?? 120_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, logFile: options.logFile, stop };
}
