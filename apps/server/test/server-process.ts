import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * The one way tests, browser tests and benches start the real server as a child process and wait
 * until it answers `/api/health`. The child runs e2e/support/server-main.ts (the real main.ts; its
 * own command line so that a developer's `pkill -f main.ts` leaves it alone).
 */

export const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

/** Asks the kernel for a free port. Another process could take it before the server binds; rare enough on a test machine. */
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

/** The last lines of a log, for an error message. */
export function tail(file: string, lines = 40): string {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n') : '(no server output)';
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export interface SpawnServerOptions {
  /** DATA_DIR: the embedded database lives in its `db` folder when `databaseUrl` is empty. */
  dataDir: string;
  /** A PostgreSQL URL; empty for embedded PGlite. */
  databaseUrl: string;
  /** Receives stdout and stderr. */
  logFile: string;
  /** Appends to the log (a restart on the same data) instead of starting it anew. */
  appendLog?: boolean;
  /** Interface to listen on (HOST; null: HOST unset, the server's default); the URL always uses `urlHost`. */
  host?: string | null;
  /** Host name in `baseUrl` (default 127.0.0.1). */
  urlHost?: string;
  /** Server environment, over the process's own. */
  env: Record<string, string>;
  /** Sets PUBLIC_URL to the server's own `baseUrl` (links in its e-mails point at it). */
  publicUrl?: boolean;
  healthTimeoutMs?: number;
  /** What counts as up; default: `/api/health` answers 200. */
  isUp?: (health: Response) => boolean;
}

export interface SpawnedServer {
  baseUrl: string;
  port: number;
  pid: number;
  /** The health answer that said the server was up. */
  health: Response;
  /** SIGTERM, as an operator stops it; SIGKILL after 10 s. */
  stop(): Promise<void>;
  /** SIGKILL: no shutdown hook runs, the database is left as the crash left it. */
  kill9(): Promise<void>;
}

/** Starts the server on a free port and waits until it is up; on failure it is stopped and the log's tail thrown. */
export async function spawnServer(options: SpawnServerOptions): Promise<SpawnedServer> {
  const port = await freePort();
  const baseUrl = `http://${options.urlHost ?? '127.0.0.1'}:${port}`;
  fs.mkdirSync(path.dirname(options.logFile), { recursive: true });
  const log = fs.openSync(options.logFile, options.appendLog ? 'a' : 'w');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: options.host ?? '127.0.0.1',
    DATA_DIR: options.dataDir,
    DATABASE_URL: options.databaseUrl,
    ...(options.publicUrl ? { PUBLIC_URL: baseUrl } : {}),
    ...options.env,
  };
  if (options.host === null) delete env.HOST;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'e2e/support/server-main.ts')], {
    cwd: REPO_ROOT,
    stdio: ['ignore', log, log],
    env,
  });
  fs.closeSync(log);
  child.once('exit', (code, signal) => {
    fs.appendFileSync(
      options.logFile,
      `[test] server process exited: code ${code ?? '-'}, signal ${signal ?? '-'} at ${new Date().toISOString()}\n`,
    );
  });
  const kill = async (signal: NodeJS.Signals) => {
    const done = exited(child);
    child.kill(signal);
    const timer = signal === 'SIGKILL' ? null : setTimeout(() => child.kill('SIGKILL'), 10_000);
    await done;
    if (timer) clearTimeout(timer);
  };
  const server = { baseUrl, port, pid: child.pid ?? 0, stop: () => kill('SIGTERM'), kill9: () => kill('SIGKILL') };

  const isUp = options.isUp ?? ((health: Response) => health.ok);
  const timeoutMs = options.healthTimeoutMs ?? 120_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The server exited (${child.exitCode ?? child.signalCode}) before answering /api/health:\n${tail(options.logFile)}`);
    }
    try {
      const health = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (isUp(health)) return { ...server, health };
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await server.kill9();
      throw new Error(`The server on port ${port} did not answer /api/health within ${timeoutMs / 1000} s:\n${tail(options.logFile)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
